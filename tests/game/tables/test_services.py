"""The shared-table services, rule by rule (TABLES.md T-1 … T-13)."""

from __future__ import annotations

import pytest

from game.core.errors import ActionRefused, StaleVersion, TableNotFound
from game.tables import presentation, scenes, services
from game.tables.models import Seat, SharedTable, TableEvent
from game.tables.services import locking, saving
from tests.game.tables.helpers import (
    bet_and_ready,
    engine_of,
    seat_version,
    stack_table_shoe,
    table_version,
)

# Deal order with ana in seat 1 (box 1) and ben in seat 3 (box 2): ana, ben, hole, ana,
# ben, upcard. Ana 10+7=17, ben 9+7=16, dealer hole 10, upcard 8 (18); next 5, 9, 4.
PLAIN = ["0S", "9S", "0H", "7D", "7C", "8C", "5H", "9H", "4C"]
# The dealer shows an ace (hole 6): insurance for both.
ACE_UP = ["0S", "9S", "6H", "7D", "7C", "AC", "5H", "9H", "4C"]

pytestmark = pytest.mark.django_db


def kinds(table: SharedTable) -> list[str]:
    return list(
        TableEvent.objects.filter(table=table).order_by("seq").values_list("kind", flat=True)
    )


# --------------------------------------------------------------------- T-1 … T-3


def test_a_new_table_waits_for_players_untimed(make_table):
    table = make_table()
    assert table.phase == SharedTable.Phase.INTERMISSION
    assert table.deadline_ms is not None  # only the 30-minute empty-table close
    assert kinds(table) == ["table_opened"]
    assert engine_of(table).options.turn_ms == 20_000  # T-8: timed, 20 s by default


def test_sitting_down_opens_betting_with_a_deadline(make_table, ana, clock):
    table = make_table()
    seat = services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=2)
    table.refresh_from_db()
    assert (seat.number, seat.bank_cents, seat.credits) == (2, 100_000, 10)
    assert table.betting_ends_ms == clock.now_ms + 30_000
    assert table.deadline_ms == table.betting_ends_ms


def test_a_seat_is_taken_once_and_a_player_sits_once(make_table, ana, ben):
    table = make_table()
    services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=2)
    with pytest.raises(ActionRefused) as refused:
        services.sit(table_id=table.pk, user=ben, version=seat_version(table, ben), number=2)
    assert refused.value.reason == "seat_taken"
    with pytest.raises(ActionRefused) as refused:
        services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=3)
    assert refused.value.reason == "already_seated"
    with pytest.raises(ActionRefused):
        services.sit(
            table_id=table.pk, user=ben, version=seat_version(table, ben), number=6
        )  # a five-seat table


def test_leaving_keeps_bank_and_credits_and_sitting_again_restores_them(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana, 25)
    bet_and_ready(table, ben, 10)
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="stand")
    services.play(table_id=table.pk, user=ben, version=seat_version(table, ben), action="stand")
    seat = Seat.objects.get(table=table, player=ana)
    bank_after = seat.bank_cents
    assert bank_after == 100_000 - 2_500  # 17 against the dealer's 18
    services.leave(table_id=table.pk, user=ana, version=seat_version(table, ana))
    services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=4)
    seat.refresh_from_db()
    assert (seat.number, seat.bank_cents, seat.credits) == (4, bank_after, 10)
    assert Seat.objects.filter(table=table, player=ana).count() == 1


# --------------------------------------------------------------------- T-5 intermission


def test_betting_ends_early_once_everyone_is_ready_or_sitting_out(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    services.sit_out(table_id=table.pk, user=ben, version=seat_version(table, ben))
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND
    assert engine_of(table).round.boxes[0].bet == 1_000
    assert len(engine_of(table).round.boxes) == 1  # ben sat out
    assert Seat.objects.get(player=ben, table=table).box is None


def test_ready_needs_a_bet(seated_pair, ana):
    table = seated_pair()
    with pytest.raises(ActionRefused) as refused:
        services.ready(table_id=table.pk, user=ana, version=seat_version(table, ana))
    # The rules engine's refusal, in its words (the single-player game's for a deal).
    assert refused.value.reason == "rule"
    assert refused.value.details == {"text": "The minimum bet is $1.00"}


def test_chips_are_refused_by_the_engines_check_beyond_the_maximum_and_the_bank(seated_pair, ana):
    table = seated_pair(max_bet="15.00")
    services.add_chip(
        table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=1_000
    )
    with pytest.raises(ActionRefused) as refused:
        services.add_chip(
            table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=1_000
        )
    assert refused.value.details == {"text": "The maximum bet is $15.00"}
    Seat.objects.filter(player=ana).update(bank_cents=1_200)
    with pytest.raises(ActionRefused) as refused:
        services.add_chip(
            table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500
        )
    assert refused.value.details == {"text": "Your bank of $12.00 does not cover bets of $15.00"}
    assert Seat.objects.get(player=ana).bet_cents == 1_000  # nothing changed
    # A stored bet the engine would refuse at the deal is refused at Ready, in its words.
    Seat.objects.filter(player=ana).update(bet_cents=2_000, bank_cents=100_000)
    with pytest.raises(ActionRefused) as refused:
        services.ready(table_id=table.pk, user=ana, version=seat_version(table, ana))
    assert refused.value.details == {"text": "The maximum bet is $15.00"}


def test_a_bet_being_built_reads_the_options_never_the_round(seated_pair, ana, monkeypatch):
    """A chip, a side chip, an activation and a Clear check the bet against the table's
    rules alone: the engine's state (the round, the shoe) is not parsed for them."""
    table = seated_pair(side_bets=True)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the engine's state was parsed for a bet being built")

    monkeypatch.setattr(saving, "game_from_json", no_parsing)
    version = lambda: seat_version(table, ana)  # noqa: E731
    services.add_chip(table_id=table.pk, user=ana, version=version(), chip_cents=1_000)
    services.add_side_chip(
        table_id=table.pk, user=ana, version=version(), bet="21+3", chip_cents=500
    )
    services.activate_extra_bet(table_id=table.pk, user=ana, version=version(), active=True)
    services.clear_side_bet(table_id=table.pk, user=ana, version=version(), bet="21+3")
    Seat.objects.filter(player=ana).update(bank_cents=1_200)
    with pytest.raises(ActionRefused):  # the bank: refused from the options alone
        services.add_chip(table_id=table.pk, user=ana, version=version(), chip_cents=500)
    seat = Seat.objects.get(player=ana)
    assert (seat.bet_cents, seat.side_bets, seat.extra_bet) == (1_000, {}, True)
    services.clear_bet(table_id=table.pk, user=ana, version=version())
    assert Seat.objects.get(player=ana).bet_cents == 0


def test_a_seat_without_credits_cannot_bet_in_trivia_mode_and_the_others_still_play(
    seated_pair, ana, ben
):
    table = seated_pair(PLAIN, trivia_mode=True)
    Seat.objects.filter(player=ana).update(credits=0)
    services.add_chip(table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500)
    with pytest.raises(ActionRefused) as refused:
        services.ready(table_id=table.pk, user=ana, version=seat_version(table, ana))
    assert refused.value.details == {"text": "No trivia credits left"}  # the engine's
    services.sit_out(table_id=table.pk, user=ana, version=seat_version(table, ana))
    bet_and_ready(table, ben)
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND


def test_at_the_deadline_only_the_ready_are_dealt_in(seated_pair, ana, ben, clock):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    services.add_chip(table_id=table.pk, user=ben, version=seat_version(table, ben), chip_cents=500)
    clock.advance(seconds=30)
    assert services.apply_due_deadlines() == 1
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND
    assert [s.box for s in table.seats.order_by("number")] == [0, None]


def test_a_bet_refused_at_the_deadline_sits_that_seat_out_and_the_others_are_dealt(
    seated_pair, ana, ben, clock
):
    """A Ready seat whose bet no longer passes the engine's checks at the deal (its row
    changed since Ready) sits the round out with a line in the log; the clock deals the
    others and the table goes on."""
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    services.add_chip(table_id=table.pk, user=ben, version=seat_version(table, ben), chip_cents=500)
    # ben is Ready with a bet his bank no longer covers.
    Seat.objects.filter(player=ben).update(ready=True, bank_cents=300)
    clock.advance(seconds=30)
    assert services.apply_due_deadlines() >= 1
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND
    assert len(engine_of(table).round.boxes) == 1
    ana_seat, ben_seat = Seat.objects.get(player=ana), Seat.objects.get(player=ben)
    assert ana_seat.box == 0 and ben_seat.box is None and not ben_seat.ready
    assert ben_seat.bank_cents == 300  # nothing taken
    refused = TableEvent.objects.get(table=table, kind="bet_refused")
    assert refused.data == {
        "seat": 3,
        "player": "ben",
        "reason": "Your bank of $3.00 does not cover bets of $5.00",
    }
    assert presentation.event_text(refused) == (
        "ben (seat 3) sits this round out: Your bank of $3.00 does not cover bets of $5.00."
    )
    # The table's actions go on: ana plays her turn.
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="stand")


def test_when_every_ready_bet_is_refused_at_the_deadline_betting_reopens(
    seated_pair, ana, ben, clock
):
    table = seated_pair(PLAIN, trivia_mode=True)
    bet_and_ready(table, ana)
    Seat.objects.filter(player=ana).update(credits=0)  # since her Ready
    clock.advance(seconds=30)
    assert services.apply_due_deadlines() >= 1
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    assert table.betting_ends_ms == clock.now_ms + 30_000
    assert kinds(table)[-2:] == ["bet_refused", "betting_reopened"]
    # A request applying the same deadline is not refused either.
    Seat.objects.filter(player=ana).update(ready=True)
    clock.advance(seconds=30)
    services.sit_out(table_id=table.pk, user=ben, version=seat_version(table, ben))
    assert kinds(table)[-3:] == ["bet_refused", "betting_reopened", "sitting_out"]


def test_a_chip_after_the_betting_deadline_applies_it_first_and_is_refused(
    seated_pair, ana, ben, clock
):
    """A seat-only action never runs past a deadline: the whole table's lock applies the
    deadline (T-13, as the clock would), then the chip is refused (T-12)."""
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    clock.advance(seconds=30)
    with pytest.raises(ActionRefused) as refused:
        services.add_chip(
            table_id=table.pk, user=ben, version=seat_version(table, ben), chip_cents=500
        )
    assert refused.value.reason == "betting_closed"
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND  # dealt to ana at the deadline
    assert Seat.objects.get(player=ben).bet_cents == 0


def test_nobody_bet_so_a_new_intermission_begins(seated_pair, clock):
    table = seated_pair()
    clock.advance(seconds=31)
    services.apply_due_deadlines()
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    assert table.betting_ends_ms == clock.now_ms + 30_000
    assert kinds(table).count("betting_open") == 1
    assert kinds(table)[-1] == "betting_reopened"


def log_of(table: SharedTable) -> list[str]:
    """The table's log as its page shows it, newest first."""
    table = scenes.table_by_id(table.pk)
    assert table is not None
    return presentation.table_scene(table).log


def test_an_intermission_nobody_bets_in_starts_again_without_a_new_log_line(
    seated_pair, ana, clock
):
    """T-5: betting starts over, with a new clock the pages are told of (an event, so the
    streams send the table), but the log is not filled with "Place your bets" every time."""
    table = seated_pair()
    log = log_of(table)
    assert [line for line in log if line.startswith("Place your bets")] == [
        "Place your bets: betting closes in 30 seconds."
    ]
    version = table.version
    for _ in range(3):
        clock.advance(seconds=31)
        services.apply_due_deadlines()
    table.refresh_from_db()
    assert table.version == version + 3  # news each time: the pages show the new clock
    assert table.betting_ends_ms == clock.now_ms + 30_000
    assert log_of(table) == log
    # The page's view: the same lines, the new clock.
    view = presentation.view_for(presentation.table_scene(table), ana)
    assert view.log == log[:12] and view.timer is not None and view.timer.seconds_left == 30


# --------------------------------------------------------------------- T-6, T-8, T-9


def test_a_round_deals_seat_order_and_plays_turns_in_seat_order(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    engine = engine_of(table)
    assert [h.cards for h in engine.round.hands] == [["0S", "7D"], ["9S", "7C"]]
    assert engine.box_in_turn() == 0
    # T-12: ben acting in ana's turn is refused and nothing changes.
    version = table.version
    with pytest.raises(ActionRefused) as refused:
        services.play(table_id=table.pk, user=ben, version=seat_version(table, ben), action="stand")
    assert refused.value.reason == "not_your_turn"
    table.refresh_from_db()
    assert table.version == version
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="stand")
    assert engine_of(table).box_in_turn() == 1
    services.play(table_id=table.pk, user=ben, version=seat_version(table, ben), action="hit")
    table.refresh_from_db()
    # Ben 16 + 5 = 21; the dealer stands on 18: ben wins, ana loses; betting reopens (T-9).
    assert table.phase == SharedTable.Phase.INTERMISSION
    banks = dict(table.seats.values_list("player__username", "bank_cents"))
    assert banks == {"ana": 99_000, "ben": 101_000}
    assert "round_over" in kinds(table) and kinds(table)[-1] == "betting_open"


def test_one_table_in_trouble_does_not_stop_the_clock_for_the_others(
    make_table, ana, ben, clock, monkeypatch
):
    first, second = make_table(), make_table()
    services.sit(table_id=first.pk, user=ana, version=seat_version(first, ana), number=1)
    services.sit(table_id=second.pk, user=ben, version=seat_version(second, ben), number=1)
    real = services.apply_due_deadlines_of

    def failing_first(table_id: int) -> int:
        if table_id == first.pk:
            raise ActionRefused("rule", text="broken")
        return real(table_id)

    monkeypatch.setattr(locking, "apply_due_deadlines_of", failing_first)
    clock.advance(seconds=31)
    assert services.apply_due_deadlines() == 1  # the second table's new intermission
    assert kinds(second)[-1] == "betting_reopened"
    assert "betting_reopened" not in kinds(first)


def test_a_turn_times_out_and_the_next_box_plays(seated_pair, ana, ben, clock):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    clock.advance(seconds=20)
    assert services.apply_due_deadlines() == 1
    engine = engine_of(table)
    assert engine.round.hands[0].status == "stood"
    assert engine.box_in_turn() == 1
    assert engine.round.deadline == clock.now_ms + 20_000
    assert services.apply_due_deadlines() == 0  # applied once only


def test_a_late_action_is_refused_after_the_deadline_is_applied(seated_pair, ana, ben, clock):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    clock.advance(seconds=21)
    # No clock ran: ana's own late post applies the deadline first, then is refused.
    with pytest.raises(ActionRefused) as refused:
        services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="hit")
    assert refused.value.reason == "not_your_turn"
    engine = engine_of(table)
    assert engine.round.hands[0].cards == ["0S", "7D"]  # the late hit changed nothing
    # … but the deadline it found had run out is applied and kept: ana stood, ben plays.
    assert engine.round.hands[0].stand_reason == "timeout" and engine.box_in_turn() == 1
    assert services.apply_due_deadlines() == 0


def test_a_repeated_post_is_stale(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    services.add_chip(table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500)
    with pytest.raises(StaleVersion):
        services.add_chip(
            table_id=table.pk, user=ana, version=seat_version(table, ana) - 1, chip_cents=500
        )
    # Another player's action does not make ana's page stale.
    version = seat_version(table, ana)
    services.add_chip(table_id=table.pk, user=ben, version=seat_version(table, ben), chip_cents=500)
    services.add_chip(table_id=table.pk, user=ana, version=version, chip_cents=500)
    assert table.seats.get(player=ana).bet_cents == 1_000


# --------------------------------------------------------------------- T-7 decisions at once


def test_insurance_is_answered_by_everyone_at_once_in_any_order(seated_pair, ana, ben):
    table = seated_pair(ACE_UP)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    engine = engine_of(table)
    assert engine.offer_for_box(0) == "insurance" and engine.offer_for_box(1) == "insurance"
    services.answer_offer(
        table_id=table.pk, user=ben, version=seat_version(table, ben), answer="insurance:accept"
    )
    engine = engine_of(table)
    assert engine.offer_for_box(1) is None and engine.offer_for_box(0) == "insurance"
    services.answer_offer(
        table_id=table.pk, user=ana, version=seat_version(table, ana), answer="insurance:decline"
    )
    engine = engine_of(table)
    assert engine.round.boxes[1].insurance["stake"] == 500
    assert engine.round.boxes[0].insurance is None
    assert engine.box_in_turn() == 0  # no dealer blackjack: the turns begin


def test_the_offer_deadline_declines_for_whoever_did_not_answer(seated_pair, ana, ben, clock):
    table = seated_pair(ACE_UP)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    services.answer_offer(
        table_id=table.pk, user=ana, version=seat_version(table, ana), answer="insurance:accept"
    )
    clock.advance(seconds=20)
    assert services.apply_due_deadlines() == 1
    engine = engine_of(table)
    assert engine.round.boxes[0].insurance is not None
    assert engine.round.boxes[1].insurance is None
    assert engine.box_in_turn() == 0


def test_an_offer_for_a_box_not_concerned_is_refused(seated_pair, ana, ben, watcher):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    with pytest.raises(ActionRefused):
        services.answer_offer(
            table_id=table.pk, user=ana, version=seat_version(table, ana), answer="insurance:accept"
        )
    with pytest.raises(ActionRefused) as refused:
        services.play(table_id=table.pk, user=watcher, version=0, action="stand")
    assert refused.value.reason == "not_seated"


# --------------------------------------------------------------------- trivia at the table


def test_a_trivia_hit_asks_a_question_and_the_turn_waits_for_it(
    question_open, ana, ben, questions, clock
):
    table = question_open(PLAIN, "easy")
    seat = table.seats.get(player=ana)
    asked = seat.pending_question
    assert asked is not None and engine_of(table).round.deadline is None
    # T-11: the others are told who is answering and how hard, never the question.
    last = TableEvent.objects.filter(table=table).latest("seq")
    assert (last.kind, last.data["difficulty"]) == ("question_asked", "easy")
    assert asked.question.correct_answer not in str(last.data)
    services.answer_question(
        table_id=table.pk, user=ana, version=seat.version, answer=asked.question.correct_answer
    )
    engine = engine_of(table)
    assert engine.round.hands[0].cards == ["0S", "7D", "5H"]
    revealed = TableEvent.objects.filter(table=table, kind="question_revealed").get()
    assert revealed.data["correct"] is True
    assert revealed.data["correct_answer"] == asked.question.correct_answer


def test_an_unanswered_question_times_out_as_wrong(question_open, ana, ben, questions, clock):
    table = question_open(PLAIN, "hard")
    clock.advance(seconds=15)  # answer_seconds off: 15 s, the clock fitting a 20 s turn
    assert services.apply_due_deadlines() == 1
    seat = table.seats.get(player=ana)
    assert seat.pending_question is None and seat.credits == 9
    engine = engine_of(table)
    assert engine.round.hands[0].stand_reason == "trivia_wrong"
    assert engine.box_in_turn() == 1


# --------------------------------------------------------------------- the host (T-1, T-2)


def test_only_the_host_changes_options_and_only_before_bets(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    with pytest.raises(ActionRefused) as refused:
        services.change_options(
            table_id=table.pk, user=ben, version=table_version(table), options={"deck_count": 2}
        )
    assert refused.value.reason == "host_only"
    bet_and_ready(table, ben)
    with pytest.raises(ActionRefused) as refused:
        services.change_options(
            table_id=table.pk, user=ana, version=table_version(table), options={"deck_count": 2}
        )
    assert refused.value.reason == "bets_placed"


def test_options_change_is_announced(make_table, ana):
    table = make_table()
    services.change_options(
        table_id=table.pk, user=ana, version=table_version(table), options={"deck_count": 2}
    )
    assert engine_of(table).options.deck_count == 2
    assert kinds(table)[-1] == "options_changed"


def test_renewing_the_invitation_changes_the_token(make_table, ana):
    table = make_table(public=False)
    old = table.invite_token
    services.renew_invite(table_id=table.pk, user=ana, version=table_version(table))
    table.refresh_from_db()
    assert table.invite_token != old and len(table.invite_token) >= 32


def test_closing_is_for_between_rounds(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    with pytest.raises(ActionRefused) as refused:
        services.close_table(table_id=table.pk, user=ana, version=table_version(table))
    assert refused.value.reason == "between_rounds_only"


def test_an_empty_table_closes_by_itself_after_30_minutes(make_table, ana, clock):
    """T-2 on the table clock, the clock every other deadline reads (the wall clock here is
    years after the fake one: a wall-clock comparison would close it at once)."""
    table = make_table()
    services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=1)
    clock.advance(seconds=3_600)  # seated meanwhile: the clock ran, the table stays
    services.leave(table_id=table.pk, user=ana, version=seat_version(table, ana))
    table.refresh_from_db()
    assert table.deadline_ms == clock.now_ms + 30 * 60_000
    clock.advance(seconds=29 * 60 + 59)
    assert services.apply_due_deadlines() == 0
    services.renew_invite(
        table_id=table.pk, user=ana, version=table_version(table)
    )  # a request applies what is due, too
    table.refresh_from_db()
    assert not table.is_closed
    clock.advance(seconds=1)
    assert services.apply_due_deadlines() == 1
    table.refresh_from_db()
    assert table.is_closed and table.deadline_ms is None
    with pytest.raises(TableNotFound):
        services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=1)


def test_a_table_nobody_ever_sat_at_closes_30_minutes_after_its_creation(make_table, clock):
    table = make_table()
    assert table.deadline_ms == clock.now_ms + 30 * 60_000
    clock.advance(seconds=30 * 60 - 1)
    assert services.apply_due_deadlines() == 0
    clock.advance(seconds=1)
    assert services.apply_due_deadlines() == 1
    table.refresh_from_db()
    assert table.is_closed


# --------------------------------------------------------------------- T-11: no secrets in events


def test_no_event_carries_the_hole_card_or_the_shoe(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    events = list(TableEvent.objects.filter(table=table).values_list("data", flat=True))
    face_down = [e for e in events if e.get("face_down")]
    assert face_down and all("card" not in e for e in face_down)
    assert "0H" not in str(events)  # the hole card
    assert "shoe" not in str(events) and "5H" not in str(events)  # the next card


def test_events_are_numbered_without_gaps(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    table.refresh_from_db()
    seqs = list(TableEvent.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(1, table.version + 1))


def test_stacking_helper_puts_cards_next(make_table):
    table = stack_table_shoe(make_table(), ["AS", "KS"])
    assert engine_of(table).shoe.cards[:2] == ["AS", "KS"]


def test_a_chip_writes_its_own_seat_only(seated_pair, ana, ben):
    """T-5: building a bet changes the player's seat alone (the table row is only
    share-locked meanwhile, so the table's players can build their bets at once)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = seated_pair()  # an unstacked shoe: its state as the engine writes it
    before = SharedTable.objects.get(pk=table.pk)
    with CaptureQueriesContext(connection) as queries:
        services.add_chip(
            table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=1000
        )
    writes = [q["sql"] for q in queries if q["sql"].startswith(("UPDATE", "INSERT"))]
    assert len(writes) == 1 and writes[0].startswith('UPDATE "game_seat"')
    after = SharedTable.objects.get(pk=table.pk)
    assert after.revision == before.revision and after.state == before.state
    assert Seat.objects.get(player=ana).bet_cents == 1000
    # A Ready writes the table; the one that deals, the engine's state.
    services.ready(table_id=table.pk, user=ana, version=seat_version(table, ana))
    bet_and_ready(table, ben)
    dealt = SharedTable.objects.get(pk=table.pk)
    assert dealt.phase == SharedTable.Phase.ROUND and dealt.state != before.state
