"""The Terminology page: every keyword entry exists, is linked from the rules
pages, and links on to the rule it comes from."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from game.rules_pages.content import TERM_LIST, TERMS_BY_SLUG, rules_url, term_url
from tests.game import scenarios

pytestmark = pytest.mark.django_db

READING_PAGES = ("rules", "rules_play", "rules_trivia", "rules_side_bets")
TERM_LINK = re.compile(r'<a class="term" href="/rules/terms/(?:\?game=\d+)?#term-([\w-]+)">')


def linked_terms(client: Client, name: str, query: str = "") -> list[str]:
    return TERM_LINK.findall(client.get(reverse(name) + query).text)


def test_the_page_holds_every_entry_with_its_anchor(client: Client) -> None:
    page = client.get(reverse("rules_terms")).text
    for entry in TERM_LIST:
        assert f'<dt id="{entry.anchor}">{entry.name}</dt>' in page
    for keyword in ("Base bet", "Side bet", "Initial hand", "Perfect match", "Colored pair"):
        assert f">{keyword}</dt>" in page


@pytest.mark.parametrize("name", READING_PAGES)
def test_each_rules_page_links_its_keywords_to_the_terminology(client: Client, name: str) -> None:
    links = linked_terms(client, name)
    assert links, f"{name} links no keyword"
    assert set(links) <= set(TERMS_BY_SLUG)


def test_every_entry_is_linked_from_some_rules_page(client: Client) -> None:
    linked = {slug for name in READING_PAGES for slug in linked_terms(client, name)}
    assert linked == set(TERMS_BY_SLUG)


def test_each_entry_links_to_the_rule_it_comes_from(client: Client) -> None:
    page = client.get(reverse("rules_terms")).text
    for entry in (e for e in TERM_LIST if e.topic):
        assert f'href="{rules_url(entry.topic)}">{entry.name} in the rules</a>' in page


def test_a_misspelt_term_fails_loudly() -> None:
    with pytest.raises(ValueError, match="no terminology entry"):
        term_url("base-bets")


def test_keyword_links_keep_the_way_back_to_the_game(alice: Client, player: object) -> None:
    game = scenarios.betting(player)
    page = alice.get(f"{reverse('rules_play')}?game={game.pk}").text
    assert f'href="/rules/terms/?game={game.pk}#term-hole-card"' in page
