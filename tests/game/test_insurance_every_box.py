"""Insurance and even money asked once for every box (§10 seats, UI.md "Steady controls"):
one Accept or Decline answers each box's own offer, "Choose box by box" goes back to one
box at a time, and the engine still records one answer per box, so the round replays."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from game import services
from game.core import clock as game_clock
from game.core.errors import ActionRefused, GameNotFound, StaleVersion, http_status
from game.models import CoachDeviation, Game, Round
from game.presentation.insurance import every_box_question
from game.presentation.notices import status_line
from game.presentation.table import table_view
from game.rules.clock import FakeClock
from game.selectors import table_reads
from game.services.saving import load_engine
from tests.game.helpers import post, stack_shoe
from tests.game.html_tree import Node, parse

pytestmark = pytest.mark.django_db

# Dealt box 1, 2, 3, hole, box 1, 2, 3, upcard (R-4.2 per box), against an ace up:
# box 1 9S 7D (16), box 2 8S 8D (16), box 3 0S 5C (15); dealer 6H AC (soft 17, stands).
NO_NATURAL = ["9S", "8S", "0S", "6H", "7D", "8D", "5C", "AC"]
# Box 1 AH KD (blackjack: even money), boxes 2 and 3 as above (insurance).
BOX_1_NATURAL = ["AH", "8S", "0S", "6H", "KD", "8D", "5C", "AC"]
# The dealer has blackjack: hole KH under the ace.
DEALER_NATURAL = ["9S", "8S", "0S", "KH", "7D", "8D", "5C", "AC"]


def boxes_dealt(user: Any, cards: list[str], *, seats: int = 3, **options: Any) -> Game:
    """A game of ``seats`` boxes of $10 each, dealt from ``cards``."""
    game = services.new_game(user=user, options={"trivia_mode": False, "seats": seats, **options})
    stack_shoe(game, cards)
    return act(game, user, services.place_bet_and_deal, bet_cents=1000)


def act(game: Game, user: Any, service: Any, **kwargs: Any) -> Game:
    game.refresh_from_db()
    done = service(game_id=game.pk, user=user, version=game.version, **kwargs).game
    game.refresh_from_db()
    return done


def answers(game: Game) -> list[str]:
    game.refresh_from_db()
    return list(game.state["round"]["actions"])


def taken(game: Game) -> list[Any]:
    """Each box's insurance or even money taken, left to right (None: not taken)."""
    return [box["insurance"] for box in game.state["round"]["boxes"]]


def snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    return game.version, game.state, game.bank_cents, game.status_note


# --------------------------------------------------------------------- the services


def test_accepting_for_every_box_insures_each_box_for_half_its_bet(player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    assert game.state["round"]["phase"] == "insurance"
    bank = game.bank_cents
    act(game, player, services.answer_insurance_for_every_box, accept=True)
    assert answers(game) == ["insurance:accept"] * 3
    assert [insurance["stake"] for insurance in taken(game)] == [500, 500, 500]
    assert game.bank_cents == bank - 1500
    # The dealer has no blackjack: every insurance is lost at the peek, the turn begins.
    assert game.state["round"]["phase"] == "player_turn"
    assert [insurance["result"] for insurance in taken(game)] == ["lose"] * 3


def test_declining_for_every_box_declines_each_box(player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    bank = game.bank_cents
    act(game, player, services.answer_insurance_for_every_box, accept=False)
    assert answers(game) == ["insurance:decline"] * 3
    assert taken(game) == [None, None, None]
    assert game.bank_cents == bank and game.state["round"]["phase"] == "player_turn"


def test_a_natural_box_takes_even_money_and_the_others_insurance(player) -> None:
    game = boxes_dealt(player, BOX_1_NATURAL)
    assert game.state["round"]["phase"] == "even_money"
    act(game, player, services.answer_insurance_for_every_box, accept=True)
    assert answers(game) == ["even_money:accept", "insurance:accept", "insurance:accept"]
    assert [(box["kind"], box["stake"]) for box in taken(game)] == [
        ("even_money", 500),
        ("insurance", 500),
        ("insurance", 500),
    ]


def test_insurance_for_every_box_pays_each_box_when_the_dealer_has_blackjack(player) -> None:
    game = boxes_dealt(player, DEALER_NATURAL)
    bank = game.bank_cents
    act(game, player, services.answer_insurance_for_every_box, accept=True)
    assert game.state["round"]["phase"] == "round_over"
    # Each $5 insurance returns $15 (2 to 1); each $10 hand loses to the blackjack.
    assert [(box["result"], box["winnings"]) for box in taken(game)] == [("win", 1500)] * 3
    assert game.bank_cents == bank - 1500 + 4500


def test_each_boxs_insurance_is_kept_with_the_rounds_side_bets(player) -> None:
    game = boxes_dealt(player, DEALER_NATURAL)
    act(game, player, services.answer_insurance_for_every_box, accept=True)
    row = Round.objects.get(game=game, number=game.rounds_played)
    rows = list(row.side_bets.values_list("name", "stake_cents", "result", "winnings_cents"))
    assert rows == [("insurance", 500, "win", 1500)] * 3


def test_with_a_turn_timer_the_offers_wait_untimed_and_the_first_turn_clock_starts_once(
    player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # times the decisions of the turn only: the offers wait as long as the player
    # takes, and answering every box at once starts box 1's clock at that moment.
    clock = FakeClock(1_000_000)
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    game = boxes_dealt(player, NO_NATURAL, turn_seconds=10)
    assert game.state["round"]["deadline"] is None
    clock.advance(seconds=60)
    act(game, player, services.answer_insurance_for_every_box, accept=False)
    assert game.state["round"]["phase"] == "player_turn"
    assert game.state["round"]["deadline"] == clock() + 10_000


def test_the_coachs_hint_advises_declining_for_every_box(alice, player) -> None:
    game = boxes_dealt(player, BOX_1_NATURAL)
    response = alice.get(f"/games/{game.pk}/", {"hint": "1"}, HTTP_HX_REQUEST="true")
    assert "Basic strategy: Decline — Never take insurance or even money" in response.text
    assert "Take even money on Box 1 and insure Boxes 2 and 3" in response.text


def test_choosing_box_by_box_changes_only_the_tables_note(player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    version, state, bank, _ = snapshot(game)
    act(game, player, services.choose_insurance_box_by_box)
    assert game.version == version + 1
    assert (game.state, game.bank_cents) == (state, bank)
    # Then each box is answered on its own, as the player wants.
    act(game, player, services.answer_insurance, accept=True)
    act(game, player, services.answer_insurance, accept=False)
    act(game, player, services.answer_insurance, accept=True)
    assert answers(game) == ["insurance:accept", "insurance:decline", "insurance:accept"]
    assert [box is not None for box in taken(game)] == [True, False, True]


def test_the_boxes_left_after_answering_one_on_its_own_are_answered_together(player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    act(game, player, services.answer_insurance, accept=True)
    act(game, player, services.answer_insurance_for_every_box, accept=False)
    assert answers(game) == ["insurance:accept", "insurance:decline", "insurance:decline"]


def test_a_stale_post_is_refused_and_changes_nothing(player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    before = snapshot(game)
    for service, extra in (
        (services.answer_insurance_for_every_box, {"accept": True}),
        (services.choose_insurance_box_by_box, {}),
    ):
        with pytest.raises(StaleVersion) as refused:
            service(game_id=game.pk, user=player, version=game.version - 1, **extra)
        assert http_status(refused.value) == 409
    assert snapshot(game) == before


def test_another_players_game_is_not_found(player, other_player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    before = snapshot(game)
    for service, extra in (
        (services.answer_insurance_for_every_box, {"accept": False}),
        (services.choose_insurance_box_by_box, {}),
    ):
        with pytest.raises(GameNotFound) as refused:
            service(game_id=game.pk, user=other_player, version=game.version, **extra)
        assert http_status(refused.value) == 404
    assert snapshot(game) == before


@pytest.mark.parametrize("cards", [["9S", "8S", "0S", "6H", "7D", "8D", "5C", "9C"]])
def test_out_of_the_insurance_phase_both_are_refused(player, cards: list[str]) -> None:
    game = boxes_dealt(player, cards)  # a nine up: no insurance, the player's turn
    assert game.state["round"]["phase"] == "player_turn"
    before = snapshot(game)
    for service, extra in (
        (services.answer_insurance_for_every_box, {"accept": True}),
        (services.choose_insurance_box_by_box, {}),
    ):
        with pytest.raises(ActionRefused) as refused:
            act(game, player, service, **extra)
        assert refused.value.reason == "insurance_not_offered"
        assert http_status(refused.value) == 422
    assert snapshot(game) == before


def test_accepting_for_every_box_beyond_the_bank_is_refused_and_changes_nothing(
    player,
) -> None:
    # $40 bank, three $10 boxes: $10 left, the three insurances would cost $15.
    game = boxes_dealt(player, NO_NATURAL, starting_bank="40.00")
    before = snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        act(game, player, services.answer_insurance_for_every_box, accept=True)
    assert refused.value.reason == "insure_every_box_short"
    assert refused.value.details == {"cost_cents": 1500, "bank_cents": 1000}
    assert snapshot(game) == before
    # Declining every box is still open, and the table says why Accept is not.
    question = every_box_question(game, load_engine(game))
    assert question is not None
    assert question.accept_reason == (
        "Accepting on every box costs $15.00, more than your bank of $10.00: choose box by box."
    )
    act(game, player, services.answer_insurance_for_every_box, accept=False)
    assert answers(game) == ["insurance:decline"] * 3


def test_the_coach_marks_each_box_insured(player) -> None:
    game = boxes_dealt(player, ["AH", "8S", "6H", "KD", "8D", "AC"], seats=2)
    Game.objects.filter(pk=game.pk).update(coach=True)
    act(game, player, services.answer_insurance_for_every_box, accept=True)
    moves = list(CoachDeviation.objects.filter(game=game).values_list("move", "advised"))
    assert moves == [("even_money", "decline"), ("insurance", "decline")]


# --------------------------------------------------------------------- the words


def question_for(game: Game) -> Any:
    game.refresh_from_db()
    return every_box_question(game, load_engine(game))


@pytest.mark.parametrize(
    ("seats", "cards", "options", "heading", "question"),
    [
        (3, NO_NATURAL, {}, "Insurance?", "Insure all 3 boxes for $15.00?"),
        (
            2,
            ["9S", "8S", "6H", "7D", "8D", "AC"],
            {},
            "Insurance?",
            "Insure both boxes for $10.00?",
        ),
        (
            3,
            BOX_1_NATURAL,
            {},
            "Insurance and even money?",
            "Take even money on Box 1 and insure Boxes 2 and 3, $15.00 in all?",
        ),
        (
            2,
            ["AH", "AD", "6H", "KD", "QC", "AC"],
            {},
            "Even money?",
            "Take even money on both boxes for $10.00?",
        ),
        (
            # Insurance off: only the boxes with blackjack (1 and 3) are offered even money.
            3,
            ["AH", "8S", "AD", "6H", "KD", "8D", "JC", "AC"],
            {"insurance": False},
            "Even money?",
            "Take even money on Boxes 1 and 3 for $10.00?",
        ),
    ],
)
def test_the_question_names_the_boxes_their_offers_and_the_total(
    player, seats: int, cards: list[str], options: dict[str, Any], heading: str, question: str
) -> None:
    game = boxes_dealt(player, cards, seats=seats, **options)
    asked = question_for(game)
    assert (asked.heading, asked.question, asked.accept_reason) == (heading, question, "")
    # The felt's status line asks the same, naming no single box.
    assert status_line(game) == heading


def test_one_box_is_asked_on_its_own(player) -> None:
    # Insurance off: box 2 alone has blackjack, so it alone is offered even money.
    game = boxes_dealt(player, ["9S", "AH", "6H", "7D", "KD", "AC"], seats=2, insurance=False)
    assert question_for(game) is None
    assert status_line(game) == "Box 2: Even money?"


def test_box_by_box_the_table_asks_each_box_on_its_own(player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    act(game, player, services.choose_insurance_box_by_box)
    assert question_for(game) is None and status_line(game) == "Box 1: Insurance?"
    act(game, player, services.answer_insurance, accept=False)
    # Once a box has answered on its own the next is asked on its own too.
    assert question_for(game) is None and status_line(game) == "Box 2: Insurance?"
    assert table_view(game, reads=table_reads(game)).insurance_cost == 500


# --------------------------------------------------------------------- the page


def button(root: Node, name: str) -> Node:
    found = root.button(name)
    assert found is not None, f"no button {name!r}"
    return found


def form_of(node: Node) -> Node:
    while node.tag != "form":
        assert node.parent is not None, "not inside a form"
        node = node.parent
    return node


def test_the_panel_asks_once_with_equal_accept_and_decline(alice, player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    response = alice.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    panel = parse(response.text).one("section.panel")
    assert panel.one("h2").text() == "Insurance?"
    assert "Insure all 3 boxes for $15.00?" in panel.text()
    accept, decline, by_box = (
        button(panel, name) for name in ("Accept", "Decline", "Choose box by box")
    )
    assert form_of(accept)["action"] == f"/games/{game.pk}/insurance-every-box/"
    assert form_of(decline) is form_of(accept)
    # "Choose box by box" posts from the same row to its own action (no choice sent).
    assert by_box["formaction"] == f"/games/{game.pk}/insurance-box-by-box/"
    assert form_of(by_box) is form_of(accept) and not by_box.has("name")
    # Neither answer is highlighted as advice, and no box is singled out.
    assert accept["class"] == decline["class"] == "secondary"
    assert "box--in-play" not in response.text


def test_without_javascript_accept_posts_and_redirects(alice, player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    response = post(alice, game, "insurance-every-box", choice="accept")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert answers(game) == ["insurance:accept"] * 3


def test_with_htmx_box_by_box_answers_the_partial_asking_box_1(alice, player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    response = post(alice, game, "insurance-box-by-box", htmx=True)
    assert response.status_code == 200
    root = parse(response.text).one("#table")
    assert "Insurance costs $5.00 and pays 2 to 1" in root.one("section.panel").text()
    assert root.one("#message-line").text() == "Box 1: Insurance?"
    assert root.one("section.panel").button("Choose box by box") is None


def test_a_bad_choice_is_refused_with_422(alice, player) -> None:
    game = boxes_dealt(player, NO_NATURAL)
    before = snapshot(game)
    response = post(alice, game, "insurance-every-box", choice="maybe")
    assert response.status_code == 422 and "Choose Accept or Decline." in response.text
    assert snapshot(game) == before


# --------------------------------------------------------------------- the replay


def test_a_round_answered_for_every_box_replays_exactly(player, tmp_path: Path) -> None:
    game = boxes_dealt(player, [*BOX_1_NATURAL, "2H", "KS"])
    act(game, player, services.answer_insurance_for_every_box, accept=True)
    act(game, player, services.stand)  # box 2: 16
    act(game, player, services.stand)  # box 3: 15
    row = Round.objects.get(game=game, number=game.rounds_played)
    assert row.phase == "round_over"
    path = tmp_path / "round.json"
    call_command("export_round", str(row.pk), "-o", str(path))
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported["rounds"][0]["actions"] == [
        "even_money:accept",
        "insurance:accept",
        "insurance:accept",
        "stand",
        "stand",
    ]
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    result = json.loads(out.getvalue())
    assert result["rounds"] == [row.record]
    assert result["bank"] == row.record["bank_after"]
