"""Links into the rules pages from any template.

``{% load rules_links %}{% rules_link "house_money" %}`` -> ``/rules/side-bets/#house-money``
(``/rules/side-bets/?game=7#house-money`` on game 7's pages, so the page links back);
``{{ bet.name|rules_url }}`` does the same as a filter. Topics are the engine's side-bet
names (``perfect_pair``, ``21+3``, ``perfect_11s``, ``extra_bet_blackjack``,
``house_money``, ``lucky_ladies``) and the topics of
:data:`game.rules_pages.content.TOPICS` (``options``, ``trivia``, ``insurance``, …).
"""

from __future__ import annotations

from django import template

from game.rules_pages.content import rules_url as _rules_url
from game.rules_pages.content import term_url

register = template.Library()


@register.simple_tag(takes_context=True)
def rules_link(context: template.Context, topic: str) -> str:
    """The URL of a rules topic; an unknown topic raises, so a typo fails loudly.
    On a game's page the rules page links back to that game."""
    return _rules_url(topic, game_id_in(context))


def game_id_in(context: template.Context) -> int | None:
    """The game the template shows (a table's view model or a plain ``game``), if any."""
    view = context.get("view")
    game = getattr(view, "game", None) or context.get("game")
    return getattr(game, "pk", None)


@register.filter
def rules_url(topic: str) -> str:
    return _rules_url(str(topic))


@register.inclusion_tag("rules/_term.html", takes_context=True)
def term(context: template.Context, slug: str, text: str) -> dict[str, str]:
    """A keyword linked to its Terminology entry: ``{% term "hole-card" "hole card" %}``."""
    return {"url": term_url(slug, context.get("rules_game_id")), "text": text}
