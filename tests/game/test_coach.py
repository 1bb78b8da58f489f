"""The coach: the Hint for the decision in front of the player, and the Coach
setting that marks and counts moves that differ from basic strategy."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import CoachDeviation, Game
from game.rules.public import public_view
from game.rules.storage import game_from_json
from game.selectors import coach_deviation_count
from game.services.coach import advice_for, hint_for_game
from tests.game import scenarios
from tests.game.helpers import post, stack_shoe
from tests.pages import once_key, without_csrf_tokens

pytestmark = pytest.mark.django_db

HINT = re.compile(r'<p class="coach-line coach-hint"[^>]*>(.*?)</p>', re.S)
NOTE = re.compile(r'<p class="coach-line coach-note"[^>]*>(.*?)</p>', re.S)

# Deal order: player, dealer hole, player, dealer upcard, then the draws.
HARD_16_V_6 = scenarios.PLAIN  # 9S 7D against 6C (hole 0H)
SOFT_18_V_9 = ["AS", "5H", "7D", "9C", "4C", "0D"]
PAIR_8S_V_7 = scenarios.PAIR  # 8S 8D against 7C; the split deals 3H to hand 1, 2C to hand 2
HARD_17_V_10 = ["9S", "7H", "8D", "0C", "5H", "KD"]


def dealt(user: Any, cards: list[str], *, coach: bool = False, **options: Any) -> Game:
    game = stack_shoe(services.new_game(user=user, options=options, coach=coach), cards)
    services.place_bet_and_deal(game_id=game.pk, user=user, version=game.version, bet_cents=1000)
    game.refresh_from_db()
    return game


def hint_text(client: Client, game: Game, **headers: Any) -> str:
    response = client.get(f"/games/{game.pk}/", {"hint": "1"}, **headers)
    assert response.status_code == 200
    found = HINT.search(response.text)
    assert found, "no hint on the page"
    return html.unescape(found.group(1))


def note_text(client: Client, game: Game) -> str | None:
    found = NOTE.search(client.get(f"/games/{game.pk}/").text)
    return html.unescape(found.group(1)) if found else None


# --------------------------------------------------------------------------- the hint


@pytest.mark.parametrize(
    ("cards", "options", "expected"),
    [
        (HARD_16_V_6, {}, "Basic strategy: Stand — Stand on 16 against a 6"),
        (SOFT_18_V_9, {}, "Basic strategy: Hit — Hit soft 18 against a 9"),
        (PAIR_8S_V_7, {}, "Basic strategy: Split — Always split 8s"),
        (HARD_17_V_10, {}, "Basic strategy: Stand — Stand on 17"),
        # Surrender off at this table: 16 against a 10 hits instead.
        (["9S", "7H", "7D", "0C", "5H", "KD"], {"surrender": "off"}, "Basic strategy: Hit — "),
        (["9S", "7H", "7D", "0C", "5H", "KD"], {}, "Basic strategy: Surrender — "),
        # 11 against a 6 doubles where doubling on any two cards is allowed …
        (["6S", "7H", "5D", "6C"], {}, "Basic strategy: Double Down — Double 11 against a 6"),
        # … and 9 against a 6 hits where only 10 or 11 may double.
        (["5S", "7H", "4D", "6C"], {"double_on": "10-11"}, "Basic strategy: Hit — Hit 9"),
    ],
)
def test_hint_gives_the_basic_strategy_move_and_why(
    alice, player, cards: list[str], options: dict[str, Any], expected: str
) -> None:
    game = dealt(player, cards, trivia_mode=False, **options)
    assert game.state["round"]["phase"] == "player_turn"
    text = hint_text(alice, game)
    assert text.startswith(expected), text
    assert "\n" not in text  # one line


def test_hint_after_a_split_respects_double_after_split(alice, player) -> None:
    # Hand 1 is 8S 3H = 11 against a 7: double with double-after-split, else hit.
    for das, expected in ((False, "Basic strategy: Hit — "), (True, "Basic strategy: Double Down")):
        game = dealt(player, PAIR_8S_V_7, trivia_mode=False, double_after_split=das)
        assert post(alice, game, "split").status_code == 302
        game.refresh_from_db()
        assert game.state["round"]["hands"][0]["cards"] == ["8S", "3H"]
        text = hint_text(alice, game)
        assert text.startswith(expected), (das, text)
        if not das:
            assert "Doubling would be better, but it is not allowed here." in text


def test_trivia_mode_does_not_change_the_advice(alice, player) -> None:
    texts = {
        trivia: hint_text(alice, dealt(player, SOFT_18_V_9, trivia_mode=trivia))
        for trivia in (True, False)
    }
    assert texts[True] == texts[False]


@pytest.mark.parametrize("upcard", ["6C", "0C", "9C"])
def test_hint_is_the_same_whatever_the_hole_card(alice, player, upcard: str) -> None:
    # Holes that never give the dealer a natural with these upcards (so play goes on).
    holes = ["2H", "5H", "8H", "KH"] if upcard != "6C" else ["2H", "5H", "AH", "KH"]
    texts = set()
    for hole in holes:
        game = dealt(player, ["9S", hole, "7D", upcard, "5H", "KD"], trivia_mode=False)
        assert game.state["round"]["dealer"][0] == hole
        texts.add(hint_text(alice, game))
        engine = game_from_json(game.state)
        assert advice_for(public_view(engine)) == hint_for_game(game)
    assert len(texts) == 1, texts


def test_hint_changes_nothing(alice, player) -> None:
    game = dealt(player, HARD_16_V_6)
    before = (game.version, game.state, game.status_note, game.bank_cents)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        hint_text(alice, game, **headers)
    game.refresh_from_db()
    assert (game.version, game.state, game.status_note, game.bank_cents) == before
    assert not CoachDeviation.objects.exists()


def test_hint_with_htmx_is_the_table_partial_with_the_hint_in_the_status_line(
    alice, player
) -> None:
    game = dealt(player, HARD_16_V_6)
    response = alice.get(f"/games/{game.pk}/", {"hint": "1"}, HTTP_HX_REQUEST="true")
    assert "<html" not in response.text and 'id="table"' in response.text
    status = re.search(r'<div id="status-live"[^>]*>(.*?)</div>', response.text, re.S)
    assert status and "Basic strategy: Stand" in html.unescape(status.group(1))


def test_hint_button_only_when_a_decision_is_pending(alice, player, questions) -> None:
    button = 'data-key="?"'
    betting = scenarios.betting(player)
    assert button not in alice.get(f"/games/{betting.pk}/").text
    assert not HINT.search(alice.get(f"/games/{betting.pk}/", {"hint": "1"}).text)
    playing = dealt(player, HARD_16_V_6)
    page = alice.get(f"/games/{playing.pk}/").text
    assert button in page and f'action="/games/{playing.pk}/"' in page and 'name="hint"' in page
    assert not HINT.search(page)  # shown only when asked for
    post(alice, playing, "hit")  # trivia mode: the difficulty choice is open, no hint
    assert button not in alice.get(f"/games/{playing.pk}/").text
    over = scenarios.round_over(player)
    assert button not in alice.get(f"/games/{over.pk}/").text


def test_hint_on_the_insurance_offer_is_decline(alice, player) -> None:
    game = scenarios.insurance(player)
    assert game.state["round"]["phase"] == "insurance"
    assert hint_text(alice, game).startswith("Basic strategy: Decline — Never take insurance")


def test_hint_never_shows_the_hole_card(alice, player) -> None:
    game = dealt(player, HARD_16_V_6)
    page = without_csrf_tokens(alice.get(f"/games/{game.pk}/", {"hint": "1"}).text)
    assert "Ten of Hearts" not in page and "0H" not in page


def test_hint_of_another_players_game_is_404(player, other_player, client_for) -> None:
    game = dealt(player, HARD_16_V_6)
    response = client_for(other_player).get(f"/games/{game.pk}/", {"hint": "1"})
    assert response.status_code == 404


# --------------------------------------------------------------------------- the Coach setting


def test_coach_marks_and_records_a_deviation(alice, player) -> None:
    game = dealt(player, HARD_16_V_6, coach=True, trivia_mode=False)
    round_number = game.state["round"]["number"]
    assert post(alice, game, "hit").status_code == 302
    deviation = CoachDeviation.objects.get()
    assert (deviation.game_id, deviation.move, deviation.advised) == (game.pk, "hit", "stand")
    assert (deviation.round_number, deviation.hand_index) == (round_number, 0)
    assert note_text(alice, game) == "Coach: basic strategy was Stand (hard 16 against 6)."
    game.refresh_from_db()
    assert deviation.game_version == game.version
    # The note belongs to that move: the next action clears it.
    post(alice, game, "stand")
    assert note_text(alice, game) is None
    assert coach_deviation_count(player) == 1


def test_statistics_page_counts_the_players_deviations(alice, player, other_player) -> None:
    game = dealt(player, HARD_16_V_6, coach=True, trivia_mode=False)
    post(alice, game, "hit")
    theirs = dealt(other_player, HARD_16_V_6, coach=True, trivia_mode=False)
    services.hit(game_id=theirs.pk, user=other_player, version=theirs.version)
    assert coach_deviation_count(other_player) == 1  # theirs, not alice's
    page = alice.get("/games/statistics/").text
    found = re.search(r'data-testid="stat-coach-deviations">(\d+)<', page)
    assert found and found.group(1) == "1"


def test_coach_leaves_a_basic_strategy_move_alone(alice, player) -> None:
    game = dealt(player, HARD_16_V_6, coach=True, trivia_mode=False)
    post(alice, game, "stand")
    assert not CoachDeviation.objects.exists()
    assert note_text(alice, game) is None


def test_coach_judges_hit_at_the_click_in_trivia_mode(alice, player, questions) -> None:
    game = dealt(player, HARD_16_V_6, coach=True, trivia_mode=True)
    post(alice, game, "hit")
    game.refresh_from_db()
    assert game.trivia_choice_for == "hit"
    assert CoachDeviation.objects.get().move == "hit"
    assert note_text(alice, game) == "Coach: basic strategy was Stand (hard 16 against 6)."


def test_coach_marks_a_pair_and_a_missed_double(alice, player) -> None:
    pair = dealt(player, PAIR_8S_V_7, coach=True, trivia_mode=False)
    post(alice, pair, "stand")
    assert note_text(alice, pair) == "Coach: basic strategy was Split (pair of 8s against 7)."
    eleven = dealt(player, ["6S", "7H", "5D", "6C", "0H", "KD"], coach=True, trivia_mode=False)
    post(alice, eleven, "hit")
    assert note_text(alice, eleven) == "Coach: basic strategy was Double Down (hard 11 against 6)."


def test_coach_marks_insurance_taken_but_not_declined(alice, player) -> None:
    declined = dealt(player, scenarios.ACE_UP, coach=True)
    post(alice, declined, "insurance", choice="decline")
    assert not CoachDeviation.objects.exists()
    taken = dealt(player, scenarios.ACE_UP, coach=True)
    post(alice, taken, "insurance", choice="accept")
    deviation = CoachDeviation.objects.get()
    assert (deviation.move, deviation.advised) == ("insurance", "decline")
    assert note_text(alice, taken) == "Coach: basic strategy was Decline (never take insurance)."


def test_without_coach_nothing_is_marked_or_recorded(alice, player) -> None:
    game = dealt(player, HARD_16_V_6, coach=False, trivia_mode=False)
    post(alice, game, "hit")
    assert not CoachDeviation.objects.exists()
    assert note_text(alice, game) is None


def test_deviation_count_is_per_player(player, other_player) -> None:
    assert coach_deviation_count(player) == 0
    for user, games in ((player, 2), (other_player, 1)):
        for _ in range(games):
            game = dealt(user, HARD_16_V_6, coach=True, trivia_mode=False)
            services.hit(game_id=game.pk, user=user, version=game.version)
    assert coach_deviation_count(player) == 2
    assert coach_deviation_count(other_player) == 1


def test_deviation_count_is_one_query(player, django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        coach_deviation_count(player)


def test_coach_setting_in_the_options_menu_and_carried_to_new_games(alice, player) -> None:
    game = scenarios.betting(player)
    menu = alice.get(f"/games/{game.pk}/options/").text
    assert "<legend>Coach</legend>" in menu and 'name="coach"' in menu
    data = {
        "version": str(game.version), "blackjack_payout": "3:2", "deck_count": "6",
        "min_bet": "1.00", "max_bet": "10000.00", "starting_bank": "1000.00",
        "dealer_stands_on": "S17", "charlie": "5", "double_on": "any", "surrender": "late",
        "trivia_mode": "on", "insurance": "on", "even_money": "on", "dealer_peek": "on",
        "reshuffle": "cut_card", "max_splits": "1", "max_ace_splits": "0",
        "coach": "on", "apply": "1",
    }  # fmt: skip
    assert alice.post(f"/games/{game.pk}/options/", data).status_code == 302
    game.refresh_from_db()
    assert game.coach is True and "coach" not in game.options
    menu = alice.get(f"/games/{game.pk}/options/").text
    assert re.search(r'<input type="checkbox" name="coach"[^>]* checked>', menu)
    assert 'id="id_coach_helptext"' in menu
    alice.post("/games/new/", once_key("new_game"))
    assert Game.objects.filter(owner=player).order_by("-id").first().coach is True


def test_query_counts_stay_flat_with_the_coach(
    alice, player, django_assert_max_num_queries
) -> None:
    from tests.game.test_queries_and_concurrency import MAX_QUERIES_PER_ACTION

    counts = []
    alice.get("/")  # the user is read once and cached (blackjack_site/auth.py)
    for _ in range(3):
        game = dealt(player, HARD_16_V_6, coach=True, trivia_mode=False)
        with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION + 1) as hit_queries:
            post(alice, game, "hit")  # the deviation: + one insert
        with django_assert_max_num_queries(7) as render_queries:  # + the coach's note
            assert alice.get(f"/games/{game.pk}/", {"hint": "1"}).status_code == 200
        counts.append((len(hit_queries), len(render_queries)))
    assert CoachDeviation.objects.count() == 3
    assert len(set(counts)) == 1, counts  # the same however many deviations are stored


# Early surrender: the offer before the peek is advised and judged from the
# published early-surrender table. TEN_UP is hard 16 against a ten: surrender early.
TEN_UP_HARD_20 = ["KS", "6H", "QD", "0C", "2H"]


def test_hint_on_the_early_surrender_offer(alice, player) -> None:
    sixteen = scenarios.early_surrender(player)
    assert sixteen.state["round"]["phase"] == "early_surrender"
    page = alice.get(f"/games/{sixteen.pk}/").text
    assert 'name="hint"' in page  # the Hint button is on the offer's panel
    assert hint_text(alice, sixteen).startswith("Basic strategy: Surrender — Surrender 16")
    twenty = dealt(player, TEN_UP_HARD_20, surrender="early")
    assert hint_text(alice, twenty).startswith("Basic strategy: Decline — Keep 20")


def test_coach_judges_both_answers_to_early_surrender(alice, player) -> None:
    kept_16 = dealt(player, scenarios.TEN_UP, coach=True, surrender="early")
    post(alice, kept_16, "early-surrender", choice="decline")
    deviation = CoachDeviation.objects.get()
    assert (deviation.move, deviation.advised) == ("decline", "surrender")
    assert note_text(alice, kept_16) == (
        "Coach: basic strategy was Surrender (hard 16 against 10)."
    )
    gave_up_20 = dealt(player, TEN_UP_HARD_20, coach=True, surrender="early")
    post(alice, gave_up_20, "early-surrender", choice="accept")
    assert CoachDeviation.objects.filter(game=gave_up_20).get().advised == "decline"
    followed = dealt(player, scenarios.TEN_UP, coach=True, surrender="early")
    post(alice, followed, "early-surrender", choice="accept")
    assert not CoachDeviation.objects.filter(game=followed).exists()


def test_early_surrender_hint_looks_at_the_box_it_is_offered_to(alice, player) -> None:
    # Two boxes against a ten, early surrender: box 1 KS QD (20, keep), box 2 9S 7D (16).
    game = dealt(player, ["KS", "9S", "6H", "QD", "7D", "0C", "2H"], surrender="early", seats=2)
    assert hint_text(alice, game).startswith("Basic strategy: Decline — Keep 20")
    post(alice, game, "early-surrender", choice="decline")
    assert hint_text(alice, game).startswith("Basic strategy: Surrender — Surrender 16")
