"""Links into the rules pages from any template.

``{% load rules_links %}{% rules_link "house_money" %}`` -> ``/rules/side-bets/#house-money``;
``{{ bet.name|rules_url }}`` does the same as a filter. Topics are the engine's side-bet
names (``perfect_pair``, ``21+3``, ``perfect_11s``, ``extra_bet_blackjack``,
``house_money``, ``lucky_ladies``) and the topics of
:data:`blackjack_site.rules_views.TOPICS` (``options``, ``trivia``, ``insurance``, …).
"""

from __future__ import annotations

from django import template

from blackjack_site.rules_views import rules_url as _rules_url

register = template.Library()


@register.simple_tag
def rules_link(topic: str) -> str:
    """The URL of a rules topic; an unknown topic raises, so a typo fails loudly."""
    return _rules_url(topic)


@register.filter
def rules_url(topic: str) -> str:
    return _rules_url(str(topic))
