"""What a player follows in time at a shared table: whose turn it is ("Your turn" for the
player in turn only), their own controls docked while they have something to press, the
answers lettered as in the single-player game, another player's reveal at their seat (and
never the right answer before it), and the page told when its live stream ends for good."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from game.tables import presentation, scenes, services
from game.tables.models import Seat, SharedTable
from tests.game.html_tree import parse
from tests.game.tables.helpers import bet_and_ready, seat_version, table_version
from tests.game.tables.test_services import PLAIN
from tests.game.tables.test_views import client_of

pytestmark = pytest.mark.django_db


def view_of(table: SharedTable, viewer) -> presentation.SharedTableView:
    row = scenes.table_by_id(table.pk)
    assert row is not None
    return presentation.view_for(scenes.scene_of(row), viewer)


def page_of(table: SharedTable, viewer) -> str:
    return client_of(viewer).get(reverse("tables:table", args=[table.pk])).content.decode()


def stream_of(table: SharedTable, client: Client) -> str:
    url = reverse("tables:events", args=[table.pk])
    return b"".join(client.get(url).streaming_content).decode()


def test_the_player_in_turn_reads_your_turn_and_everyone_else_their_name(
    seated_pair, ana, ben, watcher
):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    assert view_of(table, ana).headline == "Your turn"
    assert view_of(table, ben).headline == "ana's turn"
    assert view_of(table, watcher).headline == "ana's turn"
    # The page says it on the felt and in the live region, for screen readers.
    tree = parse(page_of(table, ana))
    assert tree.one('[data-testid="headline"]').text() == "Your turn"
    assert tree.one("#turn-live")["role"] == "status"
    assert tree.one("#turn-live").text() == "Your turn"
    assert tree.one("#shared-table")["data-announce"] == "Your turn"
    assert "Your turn" not in parse(page_of(table, ben)).one("#turn-live").text()
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="stand")
    assert view_of(table, ana).headline == "ben's turn"
    assert view_of(table, ben).headline == "Your turn"


def test_a_player_with_something_to_press_gets_their_controls_docked(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    assert view_of(table, ana).docked and view_of(table, ben).docked  # both to bet
    bet_and_ready(table, ana)
    assert not view_of(table, ana).docked and view_of(table, ben).docked
    bet_and_ready(table, ben)
    ana_view, ben_view = view_of(table, ana), view_of(table, ben)
    assert ana_view.docked and [b.key for b in ana_view.play_buttons if b.allowed][:2] == ["h", "s"]
    assert not ben_view.docked  # waiting for his turn
    controls = parse(page_of(table, ana)).one("section.my-controls")
    assert "my-controls--docked" in controls.classes
    assert {b.text(): b["data-key"] for b in controls.select("button")}["Stand"] == "s"
    ben_controls = parse(page_of(table, ben)).one("section.my-controls")
    assert "my-controls--docked" not in ben_controls.classes


def test_the_answers_are_lettered_as_in_the_single_player_game(question_open, ana, questions):
    table = question_open(PLAIN, "easy")
    asked = Seat.objects.get(player=ana).pending_question
    answers = parse(page_of(table, ana)).one('[aria-label="Answers"]').select("button")
    letters = [button.one(".answer-letter").text() for button in answers]
    keys = [button["data-key"] for button in answers]
    if len(asked.answers_shown) > 2:
        assert letters == ["A", "B", "C", "D"] and keys == ["a", "b", "c", "d"]
    assert [button["value"] for button in answers] == asked.answers_shown
    assert view_of(table, ana).docked


def test_a_wrong_answer_is_shown_at_the_seat_to_everyone_after_the_reveal_only(
    question_open, ana, ben, watcher, questions
):
    table = question_open(PLAIN, "easy")
    asked = Seat.objects.get(player=ana).pending_question
    question = asked.question
    wrong = next(answer for answer in asked.answers_shown if answer != question.correct_answer)
    # Before the reveal: nobody's seat shows the question, and no page the right answer.
    assert all(seat.reveal is None for seat in view_of(table, ben).seats)
    for viewer in (ben, watcher):
        assert question.correct_answer not in page_of(table, viewer)
    services.answer_question(
        table_id=table.pk, user=ana, version=seat_version(table, ana), answer=wrong
    )
    reveal = view_of(table, ben).seats[0].reveal
    assert reveal == presentation.RevealView(
        question=question.text,
        answer_given=wrong,
        correct_answer=question.correct_answer,
        correct=False,
    )
    for viewer, given in ((ben, "ana's answer"), (watcher, "ana's answer"), (ana, "Your answer")):
        seat = parse(page_of(table, viewer)).one('.seat[data-seat="1"]')
        shown = seat.one('[data-testid="seat-reveal"]').text()
        assert f"{given}: {wrong}" in shown and f"Right answer: {question.correct_answer}" in shown
    # Ben's own seat has no reveal: he has not been asked.
    assert view_of(table, ben).seats[2].reveal is None


def test_the_reveal_stays_at_the_seat_until_the_next_deal(
    question_open, ana, ben, questions, clock
):
    table = question_open(PLAIN, "easy")
    asked = Seat.objects.get(player=ana).pending_question
    services.answer_question(
        table_id=table.pk,
        user=ana,
        version=seat_version(table, ana),
        answer=asked.question.correct_answer,
    )
    assert view_of(table, ben).seats[0].reveal.correct  # her 5H busts her 17: ben's turn
    services.play(table_id=table.pk, user=ben, version=seat_version(table, ben), action="stand")
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    assert view_of(table, ben).seats[0].reveal is not None  # the round's outcome stays
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    assert view_of(table, ben).seats[0].reveal is None  # a new round


def test_a_logged_out_page_is_told_its_stream_ended(make_table, ana):
    table = make_table()
    response = Client().get(reverse("tables:events", args=[table.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert response.content == b"event: end\ndata: gone\n\n"


def test_a_closed_tables_stream_sends_the_table_then_ends(make_table, ana, ben, settings):
    settings.TABLE_STREAM_SECONDS = 5  # it ends long before
    table = make_table()
    services.close_table(table_id=table.pk, user=ana, version=table_version(table))
    text = stream_of(table, client_of(ben))
    assert text.index("event: table") < text.index("event: end\ndata: closed\n\n")
    assert text.endswith("event: end\ndata: closed\n\n")
    # The page carries both notices, shown by table_live.js by the end's reason.
    notice = parse(page_of(table, ben)).one("#live-ended")
    assert notice.has("hidden") and notice["role"] == "alert"
    assert {line["data-ended"] for line in notice.select("[data-ended]")} == {"closed", "gone"}
    assert "Reload" in notice.text()


def test_invite_link_opens_a_dialog_and_without_javascript_a_page(make_table, ana, ben):
    table = make_table(public=False)
    link = f"http://testserver{reverse('tables:invitation', args=[table.invite_token])}"
    tree = parse(page_of(table, ana))
    opener = next(a for a in tree.select(".table-tools a") if a.text() == "Invite Link")
    assert opener["href"] == reverse("tables:invite", args=[table.pk])
    assert opener["data-dialog"] == "invite-dialog" and opener["aria-haspopup"] == "dialog"
    dialog = tree.one("dialog#invite-dialog")
    assert dialog.one("input")["value"] == link and dialog.one("input").has("readonly")
    assert dialog.one("button[data-copy]").text() == "Copy"
    # The page it links to: the same panel, its new link posted back to it.
    page = client_of(ana).get(opener["href"])
    assert page.status_code == 200
    panel = parse(page.content.decode()).one(".invite-panel")
    assert panel.one("input")["value"] == link
    renewed = client_of(ana).post(
        reverse("tables:action", args=[table.pk, "renew-invite"]),
        {"version": table_version(table)},
    )
    assert renewed.status_code == 302 and renewed["Location"] == opener["href"]
    table.refresh_from_db()
    assert table.invite_token in client_of(ana).get(opener["href"]).content.decode()
    # Only the host has one.
    assert client_of(ben).get(opener["href"]).status_code == 404


def test_the_table_carries_the_viewers_seat_version_which_their_own_chip_moves_on(
    seated_pair, ana, ben
):
    """A live table rendered before the viewer's own chip is told apart by its seat version
    (static/js/table_live.js reads the table again instead of showing the old bet)."""
    table = seated_pair(PLAIN)
    before = parse(page_of(table, ana)).one("#shared-table")
    table_before = before["data-version"]
    services.add_chip(table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500)
    after = parse(page_of(table, ana)).one("#shared-table")
    assert after["data-version"] == table_before
    assert int(after["data-seat-version"]) > int(before["data-seat-version"])
    assert int(after["data-seat-version"]) == seat_version(table, ana)
