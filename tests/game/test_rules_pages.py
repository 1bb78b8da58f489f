"""The rules pages: public, complete against RULES.md, exact house edges, links."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.urls import resolve, reverse

from game.rules.options import NEEDS, Options
from game.rules.sidebet_edges import EDGE_BETS, edge_percent, house_edge
from game.rules.sidebets import PAY_TABLES, SIDE_BET_NAMES
from game.rules_pages import views as rules_views
from game.rules_pages.content import SIDE_BET_ANCHORS, TOPICS, rules_url
from game.views.rendering import table_urls

pytestmark = pytest.mark.django_db

PAGES = ("rules", "rules_play", "rules_trivia", "rules_side_bets", "rules_options", "rules_terms")
MINUS = "\u2212"

# RULES.md §9 transcribed by hand (not read from the engine, so the page is checked
# against the rule book): bet anchor -> (condition id, label on the page, ratio).
RULES_PAY_TABLES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "perfect-pair": (  # R-SB-1
        ("two_perfect_pairs", "Two perfect pairs", "200 to 1"),
        ("perfect_pair", "Perfect pair", "25 to 1"),
        ("colored_pair", "Colored pair", "10 to 1"),
        ("mixed_pair", "Mixed pair", "5 to 1"),
    ),
    "twenty-one-plus-three": (  # R-SB-2
        ("suited_trips_high", "Suited trips, queens, kings or aces", "1000 to 1"),
        ("suited_trips", "Suited trips, 2 through jacks", "100 to 1"),
        ("straight_flush", "Straight flush", "35 to 1"),
        ("three_of_a_kind", "Three of a kind", "33 to 1"),
        ("straight", "Straight", "10 to 1"),
        ("flush", "Flush", "5 to 1"),
    ),
    "perfect-11s": (  # R-SB-13, per unit (the Decision there)
        ("jackpot_ace_king_spades", "Jackpot Ace with the king of spades", "720 to 1"),
        ("jackpot_ace_king", "Jackpot Ace with another king", "131 to 1"),
        ("suited_11_three_infinities", "Suited 11, three infinities", "25 to 1"),
        ("suited_11_two_infinities", "Suited 11, two infinities", "16 to 1"),
        ("suited_11", "Suited 11", "15 to 1"),
        ("colored_11", "Colored 11", "10 to 1"),
        ("mixed_11", "Mixed 11", "3 to 1"),
    ),
    "extra-bet-blackjack": (  # R-SB-20
        ("hand_wins", "Hand 1 wins", "2 to 1"),
        ("hand_pushes", "Hand 1 pushes", "Bet returned"),
    ),
    "house-money": (  # R-SB-30
        ("suited_ace_king", "Suited ace-king", "9 to 1"),
        ("straight_flush", "Straight flush", "4 to 1"),
        ("pair", "Pair", "3 to 1"),
        ("straight", "Straight", "1 to 1"),
    ),
    "lucky-ladies": (  # R-SB-40
        (
            "queen_hearts_pair_dealer_hearts_natural",
            "Queen of hearts pair, dealer blackjack in hearts",
            "1000 to 1",
        ),
        (
            "queen_hearts_pair_dealer_suited_natural",
            "Queen of hearts pair, dealer suited blackjack",
            "750 to 1",
        ),
        ("queen_hearts_pair_dealer_natural", "Queen of hearts pair, dealer blackjack", "500 to 1"),
        ("queen_hearts_pair", "Queen of hearts pair", "200 to 1"),
        ("queen_pair", "Pair of queens", "25 to 1"),
        ("matched_20", "Matched 20", "25 to 1"),
        ("suited_20", "Suited 20", "10 to 1"),
        ("ranked_20", "Ranked 20", "9 to 1"),
        ("any_20", "Any 20", "4 to 1"),
        ("queen_of_hearts", "Queen of hearts", "2 to 1"),
        ("queen", "Queen", "1 to 1"),
    ),
}

# Computed by game.rules.sidebet_edges for a fresh 6-deck shoe, pinned here.
EXPECTED_EDGES = {
    "perfect_pair": f"{MINUS}31.1171%",
    "21+3": f"{MINUS}0.1658%",
    "perfect_11s": "3.2389%",
    "house_money": "26.4902%",
}


# --- helpers -----------------------------------------------------------------------------


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def text_of(fragment: str) -> str:
    """Visible text with tags dropped and whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def section(content: str, anchor: str) -> str:
    match = re.search(
        rf'<section aria-labelledby="{re.escape(anchor)}">(.*?)</section>', content, re.S
    )
    assert match, f"no section for #{anchor}"
    return match.group(1)


def row(fragment: str, attribute: str, value: str) -> str:
    match = re.search(
        rf'<tr[^>]*\b{attribute}="{re.escape(value)}"[^>]*>(.*?)</tr>', fragment, re.S
    )
    assert match, f"no row {attribute}={value}"
    return text_of(match.group(1))


def option_doc(content: str, key: str) -> str:
    match = re.search(
        rf'<div class="option-doc" id="option-{key}" data-option="{key}">(.*?)</dl>',
        content,
        re.S,
    )
    assert match, f"no option {key}"
    return text_of(match.group(1))


class Outline(HTMLParser):
    """Headings, tables with captions, header cells' scope and labelled navs of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[int] = []
        self.tables = 0
        self.captions = 0
        self.th_without_scope = 0
        self.navs_without_label = 0
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.append(attributes["id"] or "")
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        elif tag == "table":
            self.tables += 1
        elif tag == "caption":
            self.captions += 1
        elif tag == "th" and attributes.get("scope") not in ("col", "row"):
            self.th_without_scope += 1
        elif tag == "nav" and not attributes.get("aria-label"):
            self.navs_without_label += 1


def outline(content: str) -> Outline:
    parser = Outline()
    parser.feed(content)
    return parser


# --- pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PAGES)
def test_each_page_is_public(client: Client, name: str) -> None:
    content = page(client, reverse(name))
    assert "login" not in client.get(reverse(name)).get("Location", "")
    assert "css/rules.css" in content


def test_the_index_is_at_rules() -> None:
    assert reverse("rules") == "/rules/"
    assert resolve("/rules/").func is rules_views.rules_index


def test_the_tables_rules_link_opens_these_pages() -> None:
    rules = table_urls(7)["rules"]
    assert rules == "/rules/?game=7"
    assert resolve(rules.partition("?")[0]).func is rules_views.rules_index


@pytest.mark.parametrize("name", PAGES)
def test_pages_are_accessible_in_structure(client: Client, name: str) -> None:
    parsed = outline(page(client, reverse(name)))
    assert parsed.headings[0] == 1 and parsed.headings.count(1) == 1
    for before, after in zip(parsed.headings, parsed.headings[1:], strict=False):
        assert after <= before + 1, f"heading level skips from h{before} to h{after}"
    assert parsed.tables == parsed.captions
    assert parsed.th_without_scope == 0
    assert parsed.navs_without_label == 0
    assert len(parsed.ids) == len(set(parsed.ids)), "duplicate ids"
    content = page(client, reverse(name))
    assert 'aria-label="On this page"' in content and 'aria-label="Rules pages"' in content


# --- side bets -------------------------------------------------------------------------------


def test_the_transcription_matches_the_engine() -> None:
    # Guards this test's own copy of RULES.md §9 against typos.
    anchor_to_bet = {anchor: bet for bet, anchor in SIDE_BET_ANCHORS.items()}
    for anchor, lines in RULES_PAY_TABLES.items():
        engine = PAY_TABLES[anchor_to_bet[anchor]]
        assert [condition for condition, _, _ in lines] == [c for c, _ in engine]


@pytest.mark.parametrize("anchor", RULES_PAY_TABLES)
def test_every_pay_line_of_rules_md_is_on_the_page(client: Client, anchor: str) -> None:
    bet_section = section(page(client, reverse("rules_side_bets")), anchor)
    rows = re.findall(r'<tr data-condition="([^"]+)"', bet_section)
    assert rows == [condition for condition, _, _ in RULES_PAY_TABLES[anchor]]
    for condition, label, ratio in RULES_PAY_TABLES[anchor]:
        cells = row(bet_section, "data-condition", condition)
        assert cells.startswith(label + " "), (condition, cells)
        assert ratio in cells, (condition, cells)


def test_pay_lines_show_what_a_ten_dollar_bet_returns(client: Client) -> None:
    content = page(client, reverse("rules_side_bets"))
    assert "$2,010.00" in row(
        section(content, "perfect-pair"), "data-condition", "two_perfect_pairs"
    )
    assert "$7,210.00" in row(
        section(content, "perfect-11s"), "data-condition", "jackpot_ace_king_spades"
    )
    assert "$10.00" in row(section(content, "extra-bet-blackjack"), "data-condition", "hand_pushes")


def test_the_lucky_ladies_example_from_the_brief(client: Client) -> None:
    cells = row(
        page(client, reverse("rules_side_bets")),
        "data-condition",
        "queen_hearts_pair_dealer_hearts_natural",
    )
    assert "Q♥ Q♥ with the dealer's A♥ K♥" in cells and "1000 to 1" in cells


def test_the_house_edges_are_exact_and_shown(client: Client) -> None:
    content = page(client, reverse("rules_side_bets"))
    edges = section(content, "house-edges")
    for bet in EDGE_BETS:
        computed = edge_percent(house_edge(bet, 6)).replace("-", MINUS)
        assert computed == EXPECTED_EDGES[bet]
        assert computed in row(edges, "data-bet", bet)
        # ...and again in the bet's own section.
        assert computed in text_of(section(content, SIDE_BET_ANCHORS[bet]))
    assert "$131.12" in row(edges, "data-bet", "perfect_pair")  # 100 × (1 + 0.311171)


def test_negative_edges_are_said_to_favour_the_player(client: Client) -> None:
    content = page(client, reverse("rules_side_bets"))
    for anchor in ("perfect-pair", "twenty-one-plus-three"):
        assert "favours you" in text_of(section(content, anchor))
    for anchor in ("perfect-11s", "house-money"):
        assert "favours you" not in text_of(section(content, anchor))
    assert "either pair is perfect" in text_of(section(content, "perfect-pair"))


def test_play_dependent_bets_say_their_edge_is_not_computed(client: Client) -> None:
    content = page(client, reverse("rules_side_bets"))
    for bet, anchor in (
        ("lucky_ladies", "lucky-ladies"),
        ("extra_bet_blackjack", "extra-bet-blackjack"),
    ):
        assert "depends on how the hand is played" in row(content, "data-bet", bet).lower()
        assert "not computed exactly" in text_of(section(content, anchor))


def test_house_money_parlay_choices_are_explained(client: Client) -> None:
    money = section(page(client, reverse("rules_side_bets")), "house-money")
    assert "$40.00" in row(money, "data-parlay", "collect")
    assert row(money, "data-parlay", "bet").endswith("$30.00 $20.00")
    assert row(money, "data-parlay", "winnings").endswith("$10.00 $40.00")
    assert row(money, "data-parlay", "all").endswith("$0.00 $50.00")


# --- links -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bet", SIDE_BET_NAMES)
def test_rules_url_of_every_engine_side_bet_lands_on_its_anchor(client: Client, bet: str) -> None:
    url = rules_url(bet)
    path, _, anchor = url.partition("#")
    assert path == reverse("rules_side_bets") and anchor == SIDE_BET_ANCHORS[bet]
    assert f'id="{anchor}"' in page(client, path)


def test_the_anchors_the_table_links_to() -> None:
    assert rules_url("perfect_pair") == "/rules/side-bets/#perfect-pair"
    assert rules_url("21+3") == "/rules/side-bets/#twenty-one-plus-three"
    assert rules_url("perfect_11s") == "/rules/side-bets/#perfect-11s"
    assert rules_url("extra_bet_blackjack") == "/rules/side-bets/#extra-bet-blackjack"
    assert rules_url("house_money") == "/rules/side-bets/#house-money"
    assert rules_url("lucky_ladies") == "/rules/side-bets/#lucky-ladies"
    assert rules_url("options") == "/rules/options/"
    assert rules_url("trivia") == "/rules/trivia/#trivia-mode"


@pytest.mark.parametrize("topic", sorted(TOPICS))
def test_every_topic_resolves_to_a_page_holding_its_anchor(client: Client, topic: str) -> None:
    path, _, anchor = rules_url(topic).partition("#")
    content = page(client, path)
    if anchor:
        assert f'id="{anchor}"' in content


def test_topics_are_forgiving_about_spelling_but_not_typos() -> None:
    assert rules_url("Even Money") == rules_url("even-money") == rules_url("even_money")
    with pytest.raises(ValueError, match="no rules page"):
        rules_url("insurence")


def test_the_template_tag_and_filter() -> None:
    rendered = Template(
        '{% load rules_links %}{% rules_link "house_money" %}|{{ bet|rules_url }}'
    ).render(Context({"bet": "21+3"}))
    assert rendered == "/rules/side-bets/#house-money|/rules/side-bets/#twenty-one-plus-three"


# --- the other pages ---------------------------------------------------------------------------


def test_trivia_credit_table(client: Client) -> None:
    content = page(client, reverse("rules_trivia"))
    assert row(content, "data-difficulty", "easy") == f"Easy +0 {MINUS}1"
    assert row(content, "data-difficulty", "medium") == f"Medium +1 {MINUS}1"
    assert row(content, "data-difficulty", "hard") == f"Hard +5 {MINUS}1"
    assert "10 credits" in text_of(content)


def test_play_page_covers_payouts_dealer_rules_and_surrender(client: Client) -> None:
    content = page(client, reverse("rules_play"))
    payouts = text_of(section(content, "payouts"))
    for ratio in ("1 to 1", "3 to 2", "2 to 1", "6 to 5", "Half the bet returned"):
        assert ratio in payouts
    for rule in ("s17", "h17", "s16", "h16"):
        assert f'id="dealer-{rule}"' in content
    assert "Hits soft 17" in row(content, "id", "dealer-h17")
    for mode in ("late", "early", "early-non-ace", "off"):
        assert f'id="surrender-{mode}"' in content
    for anchor in ("insurance", "even-money", "splitting", "resplitting", "doubling"):
        assert f'id="{anchor}"' in content


def test_options_page_lists_every_option_with_its_default(client: Client) -> None:
    content = page(client, reverse("rules_options"))
    every_option = set(Options().to_dict())
    listed = re.findall(r'<div class="option-doc" id="option-([a-z_]+)"', content)
    assert sorted(listed) == sorted(every_option)
    assert "Default: 3 to 2" in option_doc(content, "blackjack_payout")
    assert "Default: S17" in option_doc(content, "dealer_stands_on")
    assert "Default: $1,000.00" in option_doc(content, "starting_bank")
    assert "Default: Late" in option_doc(content, "surrender")
    assert "Default: 1" in option_doc(content, "max_splits")
    assert "Default: 0 (aces cannot be split)" in option_doc(content, "max_ace_splits")
    assert "Default: Under 25 % left" in option_doc(content, "reshuffle")
    assert "Default: Off" in option_doc(content, "simple")
    assert "Default: Off" in option_doc(content, "inverted")
    assert "1 to 8, infinite" in option_doc(content, "deck_count")
    for option in Options().to_dict():
        assert ("Switches on" in option_doc(content, option)) == (option in NEEDS)
    assert "Switches on: Double after split and Splits of aces" in (
        option_doc(content, "double_after_split_aces")
    )


# --- no unescaped output -----------------------------------------------------------------------


def test_no_safe_filter_or_mark_safe_in_the_rules_code() -> None:
    base = Path(settings.BASE_DIR)
    templates = sorted((base / "templates" / "rules").glob("*.html"))
    assert templates
    for template in templates:
        source = template.read_text()
        assert not re.search(r"\|\s*safe", source), template
        assert "autoescape off" not in source, template
    for module in (
        "game/rules_pages/content.py",
        "game/rules_pages/views.py",
        "game/templatetags/rules_links.py",
    ):
        assert "mark_safe" not in (base / module).read_text(), module
