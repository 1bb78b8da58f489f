"""What a player gets from the single-player table's templates: the roles and accessible
names of its parts, the ``data-*`` contract of UI.md, the forms each control posts and
the values shown; hostile trivia text as text; rendered fragments kept per process that
always show what the table holds now."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.messages.storage.base import Message
from django.template import Context, Template
from django.template.loader import get_template, render_to_string
from django.test import Client, RequestFactory

from game import services
from game.models import Game
from game.presentation import coach
from game.presentation.table import answer_buttons, table_view
from game.selectors import table_reads
from game.views.rendering import table_urls
from tests.game import scenarios
from tests.game.helpers import post, stack_shoe
from tests.game.html_tree import Node, parse
from tests.game.presentation.test_side_bet_menu import with_stakes

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script> & \'quotes\' "too" &amp;'
PLAY_LABELS = ["Hit", "Stand", "Double Down", "Split", "Surrender"]


@pytest.fixture
def hostile_questions(db) -> None:
    """The only questions in the bank: their category, text and answers are hostile."""
    from tests.trivia.factories import CategoryFactory, QuestionFactory

    category = CategoryFactory(name=f"Cat {HOSTILE}")
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory(
            category=category,
            difficulty=difficulty,
            text=f"Q {difficulty} {HOSTILE}?",
            correct_answer=f"Right {HOSTILE}",
            incorrect_answers=[f"Wrong {HOSTILE}", "B & B", "<i>c</i>"],
        )


def table(client: Client, game: Game, **query: str) -> Node:
    """The table region of the game's page, as an htmx answer."""
    response = client.get(f"/games/{game.pk}/", query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return parse(response.content.decode()).one("#table")


def page(client: Client, game: Game) -> Node:
    return parse(client.get(f"/games/{game.pk}/").content.decode())


def names(nodes: list[Node]) -> list[str]:
    """Accessible names: the aria-label, else the text."""
    return [node.attrs.get("aria-label") or node.text() for node in nodes]


def labelled(root: Node, selector: str, label: str) -> Node:
    """The node matching ``selector`` named ``label`` (selectors split values at spaces)."""
    found = [node for node in root.select(selector) if node.attrs.get("aria-label") == label]
    assert len(found) == 1, f"{len(found)} {selector!r} named {label!r}"
    return found[0]


def button(root: Node, name: str) -> Node:
    found = root.button(name)
    assert found is not None, f"no button {name!r}"
    return found


def _new(user: Any, cards: list[str], **options: Any) -> Game:
    return stack_shoe(services.new_game(user=user, options=options), cards)


def _refreshed(game: Game) -> Game:
    game.refresh_from_db()
    return game


def _ended(game: Game, user: Any) -> Game:
    game.refresh_from_db()
    return services.end_game(game_id=game.pk, user=user, version=game.version).game


# --------------------------------------------------------------------- the table element


def test_the_table_element_carries_the_state_scripts_read(alice, player) -> None:
    game = _refreshed(scenarios.dealt(player))
    root = table(alice, game)
    assert root["data-phase"] == "player_turn" and root["data-panel"] == "player_turn"
    assert root["data-bank"] == "990.00" and root["data-credits"] == "10"
    assert root["data-round"] == "1" and root["data-version"] == str(game.version)
    assert (root["hx-target"], root["hx-swap"]) == ("#table", "outerHTML")
    assert root.one("h1").text() == "Blackjack table"
    terms, values = root.select(".stats dt"), root.select(".stats dd")
    stats = {dt.text(): dd.text() for dt, dd in zip(terms, values, strict=True)}
    assert stats == {"Bank": "$990.00", "Credits": "10", "Bet": "$10.00"}


def test_without_trivia_the_table_has_no_credits(alice, player) -> None:
    root = table(alice, scenarios.trivia_off(player))
    assert root["data-credits"] == "" and root.select_one('[data-testid="credits"]') is None


def test_the_top_bar_offers_options_between_rounds_only_and_end_game_while_playing(
    alice, player
) -> None:
    game = scenarios.betting(player)
    links = {a.text(): a["href"] for a in table(alice, game).select(".top-bar a")}
    assert links == {
        "End Game": f"/games/{game.pk}/end/",
        "Options": f"/games/{game.pk}/options/",
        "Rules": f"/rules/?game={game.pk}",
    }
    post(alice, game, "deal", htmx=True, amount="10")
    assert names(table(alice, game).select(".top-bar a")) == ["End Game", "Rules"]
    assert names(table(alice, _ended(game, player)).select(".top-bar a")) == ["Rules"]


def test_the_top_bar_has_a_sound_toggle_off_and_hidden_until_a_script_shows_it(
    alice, player
) -> None:
    toggle = button(table(alice, scenarios.betting(player)).one(".top-bar"), "Sound")
    assert (toggle["type"], toggle["aria-pressed"]) == ("button", "false")
    assert toggle.has("hidden") and toggle.has("data-sound-toggle")


def test_the_table_says_when_the_round_on_the_felt_was_won(alice, player) -> None:
    # Player 9S 7D (16) stands against 6C + 0H: the dealer draws KD and busts.
    won = scenarios.dealt(player, ["9S", "0H", "7D", "6C", "KD"], trivia_mode=False)
    assert not table(alice, won).has("data-round-won")
    services.stand(game_id=won.pk, user=player, version=_refreshed(won).version)
    root = table(alice, won)
    assert root.has("data-round-won")
    assert labelled(root, "section", "Player").one(".badge")["data-net"] == "1000"
    lost = table(alice, scenarios.round_over(player))
    assert not lost.has("data-round-won")
    assert lost.one(".badge")["data-net"] == "-1000"


def test_a_refusal_says_why_in_an_alert_on_the_table(alice, player) -> None:
    game = scenarios.betting(player)
    answer = post(alice, game, "hit", htmx=True)
    assert answer.status_code == 422
    notice = parse(answer.content.decode()).one("#table .table-notice")
    assert notice["role"] == "alert" and notice.text().startswith("No round in progress")


# --------------------------------------------------------------------- the felt


def test_the_dealer_shows_the_upcard_and_a_face_down_hole_card(alice, player) -> None:
    root = table(alice, scenarios.dealt(player))
    dealer = labelled(root, "section", "Dealer")
    assert dealer.one("h2").text() == "Dealer 6"
    assert names(dealer.select('[role="img"]')) == ["Face-down card", "Six of Clubs"]
    assert root.one(".card-shoe__count").text().isdigit()
    assert root.one("#message-line").text() == "Player's turn."


def test_an_infinite_shoe_says_so(alice, player) -> None:
    root = table(alice, _new(player, [], deck_count="infinite"))
    assert root.one(".card-shoe__count [aria-label]")["aria-label"] == "infinite"


def test_the_players_hand_shows_its_cards_total_and_stake(alice, player) -> None:
    root = table(alice, scenarios.dealt(player))
    hand = labelled(root, "section", "Player")
    assert hand["data-hand"] == "1" and hand.one("h2").text() == "Player 16"
    assert names(hand.select('[role="img"]')) == ["Nine of Spades", "Seven of Diamonds"]
    assert root.one('[data-testid="bet"]').text() == "$10.00"


def test_a_settled_hand_shows_its_badge_and_the_stake_taken(alice, player) -> None:
    # Player 9S 7D (16) stands against 6C + 0H; the dealer draws 2H: 18.
    root = table(alice, scenarios.round_over(player))
    badge = labelled(root, "section", "Player").one(".badge")
    assert badge.text() == "LOSE −$10.00" and "badge--lose" in badge.classes
    assert "betting-circle--taken" in root.one(".betting-circle").classes
    assert root.select(".chip-stack--paid") == []


def test_split_hands_not_in_play_stand_in_a_strip_beside_the_one_that_is(alice, player) -> None:
    game = scenarios.dealt(player, [*scenarios.PAIR, "3D", "4C", "5D"], trivia_mode=False)
    post(alice, game, "split", htmx=True)
    later = labelled(table(alice, game), "ul.split-strip", "Later hands")
    assert later.one(".strip-label").text() == "Hand 2 of 2"
    assert all("playing-card--small" in card.classes for card in later.select('[role="img"]'))
    post(alice, game, "stand", htmx=True)
    root = table(alice, game)
    assert labelled(root, "ul.split-strip", "Earlier hands")
    assert labelled(root, "section", "Player").one("h2").text().startswith("Hand 2 of 2")


def test_boxes_stand_side_by_side_and_each_is_chosen_by_its_circle(alice, player) -> None:
    game = _new(player, scenarios.PLAIN, seats=3)
    root = table(alice, game)
    boxes = root.select("section.box")
    assert names(boxes) == ["Box 1", "Box 2", "Box 3"]
    assert [box.attrs.get("aria-current") for box in boxes] == ["true", None, None]
    circles = [box.one("button.box-circle") for box in boxes]
    assert names(circles) == ["Box 1 $0.00", "Box 2 $0.00", "Box 3 $0.00"]
    assert [c["aria-pressed"] for c in circles] == ["true", "false", "false"]
    assert {(c["form"], c["name"], c["formaction"]) for c in circles} == {
        ("bet-form", "box", f"/games/{game.pk}/select-box/")
    }
    assert [c["value"] for c in circles] == ["1", "2", "3"]
    # The boxes are chosen by their circles only: no second row of box buttons in the panel.
    assert root.select_one(".box-picker") is None
    form = root.one("form#bet-form")
    assert button(form, "Same bet on every box")["formaction"] == f"/games/{game.pk}/same-bet/"


def test_side_bets_riding_show_on_their_circles_as_chip_stacks(alice, player) -> None:
    game = with_stakes(scenarios.betting(player), {"21+3": 500})
    spots = table(alice, game).one("ul.side-spots")
    assert spots["aria-label"] == "Side bets"
    circle = spots.one('[data-side-circle="twenty-one-plus-three"]')
    assert circle.one('[data-testid="stake-twenty-one-plus-three"]').text() == "$5.00"
    assert [c.classes for c in circle.select(".side-spot__stack .stack-chip")] == [
        ["stack-chip", "chip--5"]
    ]


def test_a_running_decision_clock_shows_as_a_timer(alice, player) -> None:
    game = scenarios.dealt(player, scenarios.PLAIN, turn_seconds=30, trivia_mode=False)
    timer = table(alice, game).one('[role="timer"]')
    assert timer["data-seconds-left"] == "30" and timer["data-table-url"] == f"/games/{game.pk}/"
    assert timer.text() == "Time to decide 30 s"


# --------------------------------------------------------------------- cards


def card(code: str | None, size: str = "") -> Node:
    html = get_template("game/_cards.html#card").render({"code": code, "size": size})
    return parse(html).one(".playing-card")


NUMBER_CARDS = [("2H", 2), ("3C", 3), ("4D", 4), ("5S", 5), ("6H", 6), ("7C", 7), ("8D", 8)]
NUMBER_CARDS += [("9S", 9), ("0H", 10)]


@pytest.mark.parametrize(("code", "pips"), NUMBER_CARDS)
def test_a_number_card_shows_as_many_pips_as_its_rank(code: str, pips: int) -> None:
    assert len(card(code).select(".pip")) == pips


@pytest.mark.parametrize("code", ["AS", "JC", "QD", "KH"])
def test_aces_and_court_cards_have_no_pip_grid(code: str) -> None:
    assert card(code).select(".pip") == []


def test_pips_stand_in_distinct_places_and_the_lower_half_is_upside_down() -> None:
    pips = card("0S").select(".pip")
    assert {pip["href"] for pip in pips} == {"#suit-S"}
    assert len({(pip["x"], pip["y"]) for pip in pips}) == 10
    # The lower half is turned like a real card's, each pip about its own centre.
    turned = [pip for pip in pips if pip.has("transform")]
    assert len(turned) == 5
    assert all(pip["transform"] == f"rotate(180 {pip['x']} {pip['y']})" for pip in turned)


def test_both_corners_carry_the_index_and_the_name_is_spoken() -> None:
    seven = card("7C")
    assert seven["role"] == "img" and seven["aria-label"] == "Seven of Clubs"
    assert seven["data-card"] == "7C" and "playing-card--black" in seven.classes
    corners = seven.select(".pc-corner")
    assert [corner.text() for corner in corners] == ["7", "7"]
    assert [corner.one("use")["href"] for corner in corners] == ["#suit-C", "#suit-C"]
    assert seven.one("svg")["aria-hidden"] == "true"  # the card's name is its label
    assert [corner.text() for corner in card("0H").select(".pc-corner")] == ["10", "10"]


SUIT_COLOURS = [("H", "red"), ("S", "black"), ("D", "red"), ("C", "black")]


@pytest.mark.parametrize("rank", "JQK")
@pytest.mark.parametrize(("suit", "colour"), SUIT_COLOURS)
def test_each_court_card_draws_its_ranks_figure_in_its_suits_colour(
    rank: str, suit: str, colour: str
) -> None:
    court = card(rank + suit)
    assert f"playing-card--{colour}" in court.classes
    assert [figure["href"] for figure in court.select("use.pc-figure")] == [f"#court-{rank}"]
    assert [corner.text() for corner in court.select(".pc-corner")] == [rank, rank]
    assert court.select(".pip") == []
    small = card(rank + suit, "small")
    assert [figure["href"] for figure in small.select("use.pc-figure")] == [f"#half-{rank}"]


def test_the_small_card_keeps_one_large_index_and_one_centre_suit() -> None:
    nine = card("9S", "small")
    assert nine.select(".pip") == [] and "playing-card--small" in nine.classes
    assert nine.one(".pc-index--large").text() == "9"
    assert nine.one("use.pc-centre")["href"] == "#suit-S"


def test_the_face_down_card_and_the_jackpot_ace_are_named() -> None:
    back = card(None)
    assert back["aria-label"] == "Face-down card" and "playing-card--back" in back.classes
    assert back.text() == "" and not back.has("data-card")
    assert back.select("svg") == []  # the back's pattern is its CSS
    jackpot = card("AS*")
    assert jackpot["aria-label"] == "Ace of Spades (Jackpot Ace)"
    assert "playing-card--jackpot" in jackpot.classes
    assert jackpot.one(".playing-card__jackpot").text() == "JACKPOT"


def test_a_card_drawn_once_is_drawn_alike_each_time_in_every_size() -> None:
    row = Template("{% load table_tags %}{% card_row cards size %}")
    first = row.render(Context({"cards": ["QH", None, "0D"], "size": ""}))
    assert row.render(Context({"cards": ["QH", None, "0D"], "size": ""})) == first
    small = parse(row.render(Context({"cards": ("QH", None, "0D"), "size": "small"})))
    assert [c["aria-label"] for c in small.select('[role="img"]')] == [
        "Queen of Hearts",
        "Face-down card",
        "Ten of Diamonds",
    ]
    assert all("playing-card--small" in c.classes for c in small.select('[role="img"]'))


def drawn_references(root: Node) -> set[str]:
    """The ids the page's SVG ``<use>`` elements point at (``#suit-H`` → ``suit-H``)."""
    return {use["href"].removeprefix("#") for use in root.select("use")}


def page_ids(root: Node) -> set[str]:
    return {node["id"] for node in root.descendants() if node.has("id")}


@pytest.mark.parametrize("scenario", ["betting", "dealt", "pair"])
def test_every_drawing_a_card_uses_is_on_the_page_and_nothing_is_styled_inline(
    alice, player, scenario: str
) -> None:
    game = getattr(scenarios, scenario)(player)
    root = page(alice, game)
    assert drawn_references(root) <= page_ids(root)
    # The CSP allows no inline style: no style attribute, no <style> element.
    assert [node.tag for node in root.descendants() if node.has("style")] == []
    assert root.select("style") == []
    if scenario != "betting":
        assert {"suit-C", "suit-S", "court-J", "court-Q", "court-K"} <= page_ids(root)


def test_the_court_figures_are_drawn_once_a_page_not_once_a_swap(alice, player) -> None:
    game = scenarios.dealt(player)
    assert len(page(alice, game).select("svg.card-art")) == 1
    swapped = parse(alice.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true").content.decode())
    assert swapped.select("svg.card-art") == []  # the page keeps the one it has


def _with_cards_left(game: Game, cards_left: int) -> Game:
    """The game's shoe with only its next ``cards_left`` cards undealt."""
    state = dict(game.state)
    shoe = dict(state["shoe"])
    shoe["cards"] = list(shoe["cards"])[: shoe.get("position", 0) + cards_left]
    state["shoe"] = shoe
    Game.objects.filter(pk=game.pk).update(state=state)
    return _refreshed(game)


def tray_level(root: Node) -> list[str]:
    return [c for c in root.one(".discard-tray").classes if c.startswith("discard-tray--")]


@pytest.mark.parametrize(("cards_left", "level"), [(52, "0"), (50, "1"), (26, "2"), (10, "4")])
def test_the_discard_tray_fills_as_the_shoe_is_dealt(
    alice, player, cards_left: int, level: str
) -> None:
    game = _with_cards_left(_new(player, [], deck_count=1), cards_left)
    root = table(alice, game)
    assert root.one(".card-shoe__count").text() == str(cards_left)
    assert tray_level(root) == [f"discard-tray--{level}"]


def test_an_infinite_shoe_keeps_its_tray_empty(alice, player) -> None:
    assert tray_level(table(alice, _new(player, [], deck_count="infinite"))) == ["discard-tray--0"]


# --------------------------------------------------------------------- the turn's buttons


def test_the_turns_buttons_post_each_to_its_action_and_say_why_one_is_off(alice, player) -> None:
    game = scenarios.dealt(player)
    root = table(alice, game)
    group = labelled(root, '[role="group"]', "Actions")
    form = group.one("form.play-form")
    assert form["action"] == form["hx-post"] == f"/games/{game.pk}/stand/"
    buttons = group.select("form.play-form button")
    assert [b.text() for b in buttons] == PLAY_LABELS
    urls = [f"/games/{game.pk}/{action}/" for action in ("hit", "stand", "double", "split")]
    assert [b["formaction"] for b in buttons][:4] == urls
    assert [b["data-key"] for b in buttons] == ["h", "s", "d", "p", "r"]
    # Highlighting never advises: Hit and Stand have equal weight, the rest are quieter.
    assert [b.classes for b in buttons] == [["primary"], ["primary"], [], [], []]
    split = button(group, "Split")
    assert split.has("disabled") and split["aria-describedby"] == "why-not-split"
    why = root.one("details.unavailable-actions")
    assert why.one("summary").text() == "Why are some actions unavailable?"
    assert root.one("#why-not-split").text() == split["title"] != ""


def test_the_buttons_always_show_what_the_table_allows_now(alice, player) -> None:
    """The rows of buttons are kept rendered per process: each follows its game's URLs
    and what is allowed now, never a copy made for another game or another moment."""
    first = scenarios.dealt(player, trivia_mode=False)
    second = scenarios.dealt(player, trivia_mode=False)
    for game in (first, second):
        hit = button(table(alice, game), "Hit")
        assert hit["formaction"] == f"/games/{game.pk}/hit/" and not hit.has("disabled")
    post(alice, first, "hit", htmx=True)
    double = button(table(alice, first), "Double Down")
    assert double.has("disabled") and double["title"]
    assert not button(table(alice, second), "Double Down").has("disabled")


def test_the_coach_hint_is_a_get_of_the_table_and_says_its_advice(alice, player) -> None:
    game = scenarios.dealt(player)
    root = table(alice, game)
    hint = root.one("form.hint-form")
    assert hint["method"] == "get" and hint["action"] == hint["hx-get"] == f"/games/{game.pk}/"
    assert button(hint, "Hint")["aria-keyshortcuts"] == "?"
    advice = table(alice, game, hint="1").one('[data-testid="coach-hint"]')
    assert advice.text()


# --------------------------------------------------------------------- forms


def test_every_action_form_posts_to_its_action_with_the_version_shown(alice, player) -> None:
    for make in (scenarios.betting, scenarios.dealt, scenarios.insurance, scenarios.round_over):
        game = _refreshed(make(player))
        forms = page(alice, game).one("#table").select('form[method="post"]')
        assert forms
        for form in forms:
            assert form["action"].startswith(f"/games/{game.pk}/")
            assert form["hx-post"] == form["action"]
            version = form.one('input[name="version"]')
            assert version["value"] == str(game.version)
            assert form.one('input[name="csrfmiddlewaretoken"]')


# --------------------------------------------------------------------- panels


def test_the_bet_panel_offers_chips_an_amount_clear_bet_and_deal(alice, player) -> None:
    game = scenarios.betting(player)
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=2550)
    root = table(alice, game)
    form = root.one("form.bet-form")
    assert form["action"] == f"/games/{game.pk}/deal/"
    # Enter in the amount field presses the form's first button in the page's order: a
    # hidden Deal, before the betting spots on the felt and the $1 chip.
    first = [b for b in root.select("button") if b.has("form") or b in form.select("button")][0]
    assert first.text() == "Deal" and first["tabindex"] == "-1" and first["aria-hidden"] == "true"
    assert first["form"] == "bet-form"
    chips = labelled(form, '[role="group"]', "Chips").select("button")
    assert names(chips) == ["$1", "$5", "$10", "$25", "$100", "$500"]
    assert [(c["name"], c["value"]) for c in chips][:2] == [("chip", "1"), ("chip", "5")]
    assert {c["formaction"] for c in chips} == {f"/games/{game.pk}/chip/"}
    amount = form.one("#bet-amount")
    assert root.one('label[for="bet-amount"]').text() == "Bet amount"
    assert amount["value"] == "25.50" and amount["aria-describedby"] == "table-limits"
    assert button(form, "Clear Bet")["formaction"] == f"/games/{game.pk}/clear-bet/"
    assert root.one("#table-limits").text() == "Table limits $1.00 – $10000.00"


def test_each_side_bet_circle_has_its_name_top_payout_rules_and_adds_the_selected_chip(
    alice, player
) -> None:
    game = with_stakes(scenarios.betting(player), {"21+3": 500}, extra_bet=True)
    root = table(alice, game)
    # No drawer: the side bets are circles on the felt, each a button of the bet form.
    assert root.select_one("#side-bets-toggle") is None and root.select_one("fieldset") is None
    assert root.one('[data-testid="side-bet-total"]').text() == (
        "Side bets $5.00 · Extra Bet Blackjack active"
    )
    spots = root.select("ul.side-spots li.side-spot")
    assert [spot.one(".side-circle__label").text() for spot in spots] == [
        "Perfect Pair",
        "21+3",
        "Perfect 11s",
        "House Money",
        "Lucky Ladies",
        "Extra Bet",
    ]
    assert [spot.one(".side-spot__payout").text() for spot in spots] == [
        "pays up to 200:1",
        "pays up to 1000:1",
        "pays up to 720:1",
        "pays up to 9:1",
        "pays up to 1000:1",
        "pays up to 2:1",
    ]
    three = root.one('li[data-bet="21+3"]')
    rules = three.one("a.side-spot__rules")
    assert rules["aria-label"] == "21+3 rules" and rules.text() == "i"
    assert rules["href"].endswith("#twenty-one-plus-three")
    circle = three.one("button.side-spot__circle")
    assert (circle["form"], circle["name"], circle["value"], circle["formaction"]) == (
        "bet-form",
        "side_chip",
        "21+3:5",
        f"/games/{game.pk}/side-chip/",
    )
    clear = three.one("button.side-spot__clear")
    assert (clear["aria-label"], clear["name"], clear["value"]) == ("Clear 21+3", "bet", "21+3")
    assert root.one('li[data-bet="perfect_pair"]').select_one(".side-spot__clear") is None
    assert button(root, "Deactivate")["value"] == "off"


def test_the_selected_chip_is_pressed_and_every_spot_adds_it(alice, player) -> None:
    game = scenarios.betting(player)
    root = table(alice, game, selected_chip="25")
    rack = labelled(root, '[role="group"]', "Chips")
    assert [c["aria-pressed"] for c in rack.select("button")] == [
        "false",
        "false",
        "false",
        "true",
        "false",
        "false",
    ]
    main = root.one("button.betting-circle__spot")
    assert (main.text(), main["name"], main["value"], main["aria-current"]) == (
        "Main bet",
        "chip",
        "25",
        "true",
    )
    assert root.one("#side-spot-perfect-pair")["value"] == "perfect_pair:25"
    assert root.one('input[name="selected_chip"]')["value"] == "25"
    # Once a side-bet circle is the current spot, the rack's chips go to it.
    root = table(alice, game, selected_chip="10", spot="21+3")
    assert root.one("#side-spot-twenty-one-plus-three")["aria-current"] == "true"
    assert not root.one("button.betting-circle__spot").has("aria-current")
    chips = labelled(root, '[role="group"]', "Chips").select("button")
    assert [(c["name"], c["value"]) for c in chips][:2] == [
        ("side_chip", "21+3:1"),
        ("side_chip", "21+3:5"),
    ]
    assert {c["formaction"] for c in chips} == {f"/games/{game.pk}/side-chip/"}
    assert root.one("#chip-rack-target").text().startswith("Chips go to 21+3")


def test_the_side_bet_circles_follow_each_stake(alice, player) -> None:
    game = with_stakes(scenarios.betting(player), {"21+3": 500})
    assert table(alice, game).one('[data-testid="stake-perfect-pair"]').text() == "$0.00"
    game = with_stakes(game, {"21+3": 500, "perfect_pair": 100})
    root = table(alice, game)
    assert root.one('[data-testid="stake-perfect-pair"]').text() == "$1.00"
    assert root.one('[data-testid="side-bet-total"]').text() == "Side bets $6.00"
    assert button(root, "Activate")["value"] == "on"


def test_no_side_bet_circles_when_side_bets_are_off(alice, player) -> None:
    root = table(alice, _new(player, scenarios.PLAIN, side_bets=False))
    assert root.select_one("ul.side-spots") is None
    assert root.one("button.betting-circle__spot")["name"] == "chip"


@pytest.mark.parametrize(("make", "name"), [(scenarios.insurance, "Insurance")])
def test_the_dealers_ace_offer_says_its_cost_and_posts_the_choice(
    alice, player, make: Callable[[Any], Game], name: str
) -> None:
    game = make(player)
    panel = table(alice, game).one("section.panel")
    assert panel.one("h2").text() == f"{name}?"
    assert f"{name} costs $5.00 and pays 2 to 1" in panel.text()
    form = panel.one("form")
    assert form["action"] == f"/games/{game.pk}/insurance/"
    assert [(b.text(), b["value"]) for b in form.select("button")] == [
        ("Accept", "accept"),
        ("Decline", "decline"),
    ]


def test_even_money_is_offered_by_its_name(alice, player) -> None:
    game = scenarios.dealt(player, ["AS", "6H", "0D", "AC", "2H"], even_money=True)
    panel = table(alice, game).one("section.panel")
    assert panel.one("h2").text() == "Even money?"


def test_early_surrender_says_what_half_the_bet_is(alice, player) -> None:
    game = scenarios.early_surrender(player)
    panel = table(alice, game).one("section.panel")
    assert panel.one("h2").text() == "Early surrender?"
    assert "half your bet ($10.00) back" in panel.text()
    assert panel.one("form")["action"] == f"/games/{game.pk}/early-surrender/"


def test_a_doubles_question_says_what_is_at_stake(alice, player, questions) -> None:
    game = scenarios.dealt(player)  # a $10 bet
    post(alice, game, "double", htmx=True, difficulty="easy")
    panel = table(alice, game).one("section.panel")
    assert panel.one(".trivia-stake").text() == "Double to $20.00: answer to draw one card."


def test_the_difficulty_panel_says_what_each_level_earns(alice, player) -> None:
    game = scenarios.choosing_difficulty(player)
    panel = table(alice, game).one("section.panel")
    assert panel.one("h2").text() == "Trivia: choose a difficulty"
    assert panel.one("p").text().startswith("Hit: answer to draw a card. Credits: 10.")
    buttons = panel.select("form button")
    assert [b["value"] for b in buttons] == ["easy", "medium", "hard"]
    described = [panel.one(f"#{b['aria-describedby']}").text() for b in buttons]
    assert described[0] == "A right answer earns 0 credits."
    assert described[2] == "A right answer earns 5 credits."


@pytest.mark.usefixtures("hostile_questions")
def test_the_question_is_text_and_each_answer_a_button_named_by_it(alice, player) -> None:
    game = scenarios.question_shown(player)
    panel = table(alice, game).one("section.panel")
    assert panel.one("#trivia-question").text() == f"Q easy {HOSTILE}?"
    assert f"Cat {HOSTILE}" in panel.one(".trivia-meta").text()
    form = panel.one("form.answers")
    assert form["aria-labelledby"] == "trivia-question"
    answers = form.select("button.answer")
    assert all(b["name"] == "answer" for b in answers)
    attempt = game.trivia_attempts.get()
    assert [b["value"] for b in answers] == attempt.answers_shown
    assert [b["aria-keyshortcuts"] for b in answers] == ["A 1", "B 2", "C 3", "D 4"]
    assert [b.one(".answer-letter").text() for b in answers] == ["A", "B", "C", "D"]


def test_true_or_false_is_answered_by_its_first_letter() -> None:
    buttons = answer_buttons(["True", "False"])
    assert [(b.key, b.shortcut, b.letter) for b in buttons] == [("t", "T", ""), ("f", "F", "")]
    lettered = answer_buttons(["w", "x", "y", "z", "v"])
    assert [b.key for b in lettered] == ["a", "b", "c", "d", "a"]


@pytest.mark.usefixtures("hostile_questions")
@pytest.mark.parametrize("make", [scenarios.question_shown, scenarios.answered])
def test_hostile_trivia_text_comes_out_as_text(alice, player, make) -> None:
    html = alice.get(f"/games/{make(player).pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "<script>" not in html and "<i>c</i>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;quotes&#x27;" in html
    assert HOSTILE in parse(html).one("#table").text()


@pytest.mark.usefixtures("hostile_questions")
def test_a_wrong_answer_stands_the_hand_and_shows_its_reveal_beside_it(alice, player) -> None:
    game = scenarios.answered(player)
    root = table(alice, game)
    assert "Incorrect: the hand stands. Credits -1." in root.one("#message-line").text()
    revealed = labelled(root, "section.trivia-revealed", "Trivia answer")
    assert revealed.classes == ["trivia-revealed", "trivia-revealed--wrong"]
    attempt = game.trivia_attempts.get()
    assert revealed.one(".trivia-revealed__given").text() == f"Your answer: {attempt.answer_given}"
    assert revealed.one(".trivia-revealed__right").text() == f"Right answer: Right {HOSTILE}"
    assert revealed.one(".report-question summary").text() == "Report this question"
    reasons = revealed.select("#report-reason option")
    assert reasons[0].text() == "Choose a reason…" and len(reasons) > 2
    # The round went on by itself: nothing to press to continue.
    assert not [b for b in root.select("button") if b.text() == "Continue"]


@pytest.mark.usefixtures("hostile_questions")
def test_a_reveal_saved_before_answers_were_applied_at_once_still_offers_continue(
    alice, player
) -> None:
    game = scenarios.reveal_waiting_for_continue(player)
    panel = table(alice, game).one("section.panel")
    assert panel.one("h2").text() == "Incorrect" and panel.one("h2").classes == ["incorrect"]
    right = panel.one("li.right-answer")
    assert right.text() == f"Right {HOSTILE} (right answer)"
    assert panel.one("li.given").text().endswith("(your answer)")
    assert "Credits -1: 10 → 9. Your hand stands." in panel.text()
    assert button(panel, "Continue")["data-key"] == "n"


@pytest.mark.usefixtures("hostile_questions")
def test_a_right_answer_shows_on_the_felt_with_its_question(alice, player) -> None:
    root = table(alice, scenarios.answered_right(player))
    revealed = labelled(root, "section.trivia-revealed", "Trivia answer")
    assert revealed.one(".right-answer").text() == f"Right {HOSTILE}"
    # The difficulty chosen is remembered: Hit and Double Down ask at it, changed beside them.
    difficulty = labelled(root, '[role="group"]', "Actions").one('select[name="difficulty"]')
    options = [(o["value"], o.has("selected")) for o in difficulty.select("option")]
    assert options == [("easy", True), ("medium", False), ("hard", False)]


@pytest.mark.usefixtures("hostile_questions")
def test_the_difficulty_beside_the_buttons_is_the_one_last_chosen(alice, player) -> None:
    # Player 2S 3D against a six; each right answer deals a small card.
    game = scenarios.dealt(player, ["2S", "0H", "3D", "6C", "2H", "3C", "4D", "KD"])

    def hit_and_answer_right(difficulty: str) -> list[str]:
        post(alice, game, "hit", htmx=True, difficulty=difficulty)
        attempt = game.trivia_attempts.get(answered_at__isnull=True)
        post(alice, game, "answer", htmx=True, answer=attempt.question.correct_answer)
        actions = labelled(table(alice, game), '[role="group"]', "Actions")
        options = actions.select('select[name="difficulty"] option')
        return [option["value"] for option in options if option.has("selected")]

    assert hit_and_answer_right("easy") == ["easy"]
    assert hit_and_answer_right("hard") == ["hard"]


def test_the_outcome_lists_each_hand_and_the_rounds_total(alice, player) -> None:
    game = scenarios.round_over(player)
    panel = table(alice, game).one("section.panel")
    assert "Round 1 outcome" in [heading.text() for heading in panel.select("h2")]
    rows = panel.select("table.outcome tbody tr")
    assert [row["data-result"] for row in rows] == ["lose"]
    assert rows[0].text() == "Player Lose lower total $0.00"
    assert panel.one("tfoot").text() == "Total this round You lost $10.00 $0.00"
    assert not panel.one("details.round-details").has("open")


def test_the_outcome_offers_rebet_and_chips_at_once(alice, player) -> None:
    """No Next Round step: Rebet (the primary action, N) deals the same stakes again, and
    the chips start a new bet from zero (the amount field is empty)."""
    game = scenarios.round_over(player)
    panel = table(alice, game).one("section.panel")
    rebet = button(panel, "Rebet")
    assert rebet.classes == ["primary"] and rebet["data-key"] == "n"
    assert rebet["formaction"] == f"/games/{game.pk}/rebet/"
    assert panel.one(f"#{rebet['aria-describedby']}").text() == "$10.00 again"
    deals = [b for b in panel.select("button") if b.text() == "Deal" and not b.has("aria-hidden")]
    assert [deal.classes for deal in deals] == [["secondary", "deal-button"]]
    # Nothing is bet yet for the next round: Deal waits (table.js disables it) and says why.
    (deal,) = deals
    assert deal.has("data-waits-for-bet")
    assert panel.one(f"#{deal['aria-describedby']}").text().startswith("Deal: place a bet first")
    assert [chip.text() for chip in panel.select(".chips button")][:2] == ["$1", "$5"]
    assert panel.one("#bet-amount")["value"] == ""
    assert not [b for b in panel.select("button") if b.text() == "Next Round"]


def test_rebet_is_off_with_the_reason_when_the_bank_no_longer_covers_it(alice, player) -> None:
    game = scenarios.round_over(player)
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=game.bank_cents + 100)
    panel = table(alice, game).one("section.panel")
    rebet = button(panel, "Rebet")
    assert rebet.has("disabled") and rebet["title"].startswith("Your bank of $990.00")


def test_game_over_says_why_and_offers_a_new_game(alice, player) -> None:
    game = _ended(scenarios.round_over(player), player)
    moment = table(alice, game).one('.felt [data-testid="game-over"]')
    assert moment["aria-labelledby"] == "game-over-heading"
    assert moment.one("#game-over-heading").text() == "Game ended"
    assert "You ended the game." in moment.text()
    assert moment.one('[data-testid="final-bank"]').text() == "$990.00"
    assert moment.one('[data-testid="rounds-played"]').text() == "1"
    new_game = moment.one('form[action="/games/new/"]')
    assert button(new_game, "New Game")["data-key"] == "n"


# --------------------------------------------------------------------- the status line


def status_text(game: Game, player: Any, **context: Any) -> str:
    view = table_view(game, reads=table_reads(game))
    request = RequestFactory().get("/")
    request.user = player
    values = {
        "view": view,
        "urls": table_urls(game.pk),
        "notice": "",
        **coach.table_context(game, view, hint=False, note=""),
        **context,
    }
    return render_to_string("game/table.html#status_oob", values, request=request)


def test_the_status_line_announces_the_notice_or_what_the_table_says(player) -> None:
    game = scenarios.dealt(player)
    live = parse(status_text(game, player)).one("#status-live")
    assert live["role"] == "status" and live["aria-live"] == "polite"
    assert live["hx-swap-oob"] == "true" and live.text() == "Player's turn."
    noticed = parse(status_text(game, player, notice=HOSTILE)).one("#status-live")
    assert noticed.text() == HOSTILE
    said = status_text(
        game,
        player,
        messages=[Message(20, HOSTILE), Message(25, "Saved & done")],
        coach_note="Note.",
        coach_hint=type("Hint", (), {"hint_text": "Stand."})(),
    )
    assert parse(said).one("#status-live").text() == (
        f"{HOSTILE} Saved & done Note. Stand. Player's turn."
    )
    assert "<script>" not in said


def test_deal_waits_with_its_reason_while_nothing_is_bet(alice, player) -> None:
    """Deal waits, saying why, until a chip or an amount makes a bet (UI.md "Steady
    controls"): the page marks it and names the reason; table.js keeps it disabled until a
    bet is made (test_stage_browser.py), without JavaScript a Deal of nothing is refused."""
    game = scenarios.betting(player)
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=0)
    form = table(alice, game).one("form.bet-form")
    deal = button(form, "Deal")
    assert deal.has("data-waits-for-bet")
    reason = form.one(f"#{deal['aria-describedby']}").text()
    assert reason == "Deal: place a bet first (a chip, or an amount)."

    Game.objects.filter(pk=game.pk).update(pending_bet_cents=1000)
    form = table(alice, game).one("form.bet-form")
    deal = button(form, "Deal")
    assert not deal.has("data-waits-for-bet") and deal.classes == ["primary", "deal-button"]
    assert form.select_one("#deal-refusal") is None


def test_the_status_bar_shows_the_bank_the_credits_and_what_is_bet(alice, player) -> None:
    """One slim bar at the top of the table: between rounds the bet being built, in a round
    everything it took from the bank."""
    game = scenarios.betting(player)
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=2500)
    root = table(alice, game)
    bar = root.one("dl.status-bar")
    # Above the felt, not inside it: the bar stays in view (sticky) however the felt scrolls.
    assert bar.parent is root
    assert bar.one('[data-testid="stake"]').text() == "$25.00"
    dealt = table(alice, _refreshed(scenarios.dealt(player)))
    assert dealt.one('.status-bar [data-testid="stake"]').text() == "$10.00"
