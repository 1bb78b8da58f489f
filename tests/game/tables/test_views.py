"""The shared-table pages over HTTP: names, access, status codes, what each viewer sees."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from game.presentation.notices import STALE_NOTICE
from game.rules.cards import card_name
from game.tables import services
from game.tables.forms import TableOptionsForm
from game.tables.models import Seat, SharedTable, TableEvent
from game.tables.presentation import in_log
from tests.game.html_tree import parse
from tests.game.tables.helpers import bet_and_ready, seat_version, table_version
from tests.game.tables.test_services import PLAIN
from tests.pages import once_key

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def action_url(table: SharedTable, action: str) -> str:
    return reverse("tables:action", args=[table.pk, action])


def test_the_lobby_lists_public_tables_only(make_table, ana, ben):
    public = make_table()
    private = make_table(public=False)
    page = client_of(ben).get(reverse("tables:lobby")).content.decode()
    assert "Create Table" in page and "Table name" in page
    assert f'href="/tables/{public.pk}/"' in page and ">Join<" in page
    assert f'href="/tables/{private.pk}/"' not in page
    assert "0 / 5" in page and "blackjack pays 3:2" in page


@pytest.mark.parametrize("seconds", ["5", "9", "61", "90", "ten"])
def test_the_betting_time_is_one_of_the_fields_choices(ana, seconds):
    """The field's own choices bound the betting time (T-5: 10 to 60 seconds)."""
    from game.tables.forms import CreateTableForm

    low, high = services.INTERMISSION_SECONDS
    field = CreateTableForm().fields["intermission_seconds"]
    assert all(low <= int(value) <= high for value, _label in field.choices)
    data = {**_default_form(), "name": "T", "public": "1", "seat_count": "4"}
    assert CreateTableForm(data={**data, "intermission_seconds": "10"}).is_valid()
    form = CreateTableForm(data={**data, "intermission_seconds": seconds})
    assert not form.is_valid() and list(form.errors) == ["intermission_seconds"]
    response = client_of(ana).post(
        reverse("tables:create"), {**data, "intermission_seconds": seconds, **once_key("table")}
    )
    assert response.status_code in (200, 422) and not SharedTable.objects.exists()


def test_the_site_navigation_links_the_lobby(ana):
    page = client_of(ana).get("/").content.decode()
    assert 'href="/tables/">Tables</a>' in page


def test_create_table_from_the_lobby(ana):
    response = client_of(ana).post(
        reverse("tables:create"),
        {
            **_default_form(),
            "name": "Ana's table",
            "public": "0",
            "seat_count": "4",
            "intermission_seconds": "20",
            **once_key("table"),
        },
    )
    table = SharedTable.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert (table.name, table.public, table.seat_count, table.intermission_seconds) == (
        "Ana's table",
        False,
        4,
        20,
    )
    assert table.options["turn_seconds"] == 20 and table.host == ana


def _default_form() -> dict[str, str]:
    from game.tables.forms import TableOptionsForm

    initial = TableOptionsForm.initial_for({})
    form = TableOptionsForm(initial=initial)
    data: dict[str, str] = {}
    for name, field in form.fields.items():
        value = initial.get(name)
        if field.widget.input_type == "checkbox" if hasattr(field.widget, "input_type") else False:
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    return data


def test_a_bad_create_form_is_refused_with_422(ana):
    response = client_of(ana).post(reverse("tables:create"), {"name": "", **once_key("table")})
    assert response.status_code == 422
    assert not SharedTable.objects.exists()


def test_a_private_table_is_reached_only_through_its_current_link(make_table, ana, ben):
    table = make_table(public=False)
    bob = client_of(ben)
    assert bob.get(reverse("tables:table", args=[table.pk])).status_code == 404
    old_link = reverse("tables:invitation", args=[table.invite_token])
    assert bob.get(old_link).status_code == 302
    assert bob.get(reverse("tables:table", args=[table.pk])).status_code == 200
    services.renew_invite(table_id=table.pk, user=ana, version=table_version(table))
    stranger = client_of(SharedTable.objects.get().host)  # the host still sees it
    assert stranger.get(reverse("tables:table", args=[table.pk])).status_code == 200
    # The old link opens nothing any more, to a player or to a visitor not logged in.
    assert Client().get(old_link).status_code == 404
    assert client_of(ben).get(old_link).status_code == 404


def control_names(html: str) -> set[str]:
    """The names the page's buttons and links are read by (their whole text: on a phone
    the toolbar shows a short word of each, the rest visually hidden, never dropped)."""
    tree = parse(html)
    return {node.text() for node in tree.select("button") + tree.select("a")}


def test_the_host_sees_the_host_controls_and_others_do_not(make_table, ana, ben):
    table = make_table()
    host_page = client_of(ana).get(reverse("tables:table", args=[table.pk])).content.decode()
    assert {"Table Options", "Invite Link", "Close Table"} <= control_names(host_page)
    assert table.invite_token in host_page
    guest_page = client_of(ben).get(reverse("tables:table", args=[table.pk])).content.decode()
    assert "Close Table" not in control_names(guest_page)
    assert table.invite_token not in guest_page
    assert guest_page.count(">Sit Here<") == 5


def test_actions_are_post_only(make_table, ana):
    table = make_table()
    response = client_of(ana).get(action_url(table, "sit"))
    assert response.status_code == 405


def test_sitting_by_plain_post_redirects_and_by_htmx_returns_the_table(make_table, ana, ben):
    table = make_table()
    response = client_of(ana).post(action_url(table, "sit"), {"version": "0", "seat": "2"})
    assert response.status_code == 302
    response = client_of(ben).post(
        action_url(table, "sit"), {"version": "0", "seat": "4"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="shared-table"' in html
    assert {"Leave Table", "Ready", "Sit Out"} <= control_names(html)
    assert "<html" not in html


def test_a_refused_action_is_422_and_a_stale_one_409(seated_pair, ana, ben):
    table = seated_pair()
    ana_client = client_of(ana)
    response = ana_client.post(
        action_url(table, "ready"), {"version": seat_version(table, ana)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422 and "The minimum bet is $1.00" in response.content.decode()
    response = ana_client.post(
        action_url(table, "chip"),
        {"version": seat_version(table, ana) + 5, "chip": "5"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    assert Seat.objects.get(player=ana).bet_cents == 0
    for junk in ({"version": "x", "chip": "5"}, {"version": "0", "chip": "7"}, {"chip": "abc"}):
        response = ana_client.post(action_url(table, "chip"), junk, HTTP_HX_REQUEST="true")
        assert response.status_code == 422
    assert client_of(ana).post(action_url(table, "no-such")).status_code == 404


def test_nobody_acts_for_another_seat(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    # It is ana's turn; ben's post is about his own seat, so it is not his turn.
    response = client_of(ben).post(
        action_url(table, "play"),
        {"version": seat_version(table, ben), "play": "stand"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422 and "It is not your turn." in response.content.decode()


def test_a_closed_table_refuses_actions_with_404(make_table, ana, ben):
    table = make_table()
    services.close_table(table_id=table.pk, user=ana, version=table_version(table))
    response = client_of(ben).post(action_url(table, "sit"), {"version": "0", "seat": "1"})
    assert response.status_code == 404


def test_the_others_see_who_is_answering_but_not_the_question(
    question_open, ana, ben, watcher, questions
):
    table = question_open(PLAIN, "hard")
    question = Seat.objects.get(player=ana).pending_question.question
    url = reverse("tables:table", args=[table.pk])
    own = client_of(ana).get(url).content.decode()
    assert question.text in own or question.text.replace("'", "&#x27;") in own
    for other in (ben, watcher):
        page = client_of(other).get(url).content.decode()
        assert "ana is answering a Hard question" in page
        assert question.correct_answer not in page
        assert question.text not in page


def test_no_page_shows_the_hole_card_or_the_next_card(seated_pair, ana, ben, watcher):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    url = reverse("tables:table", args=[table.pk])
    for viewer in (ana, ben, watcher):
        page = client_of(viewer).get(url).content.decode()
        assert "Face-down card" in page
        assert card_name("0H") not in page  # the hole card
        assert card_name("5H") not in page  # the next card in the shoe
        assert '"shoe"' not in page


def test_the_event_stream_sends_the_table_then_catches_up_from_an_id(
    seated_pair, ana, ben, settings
):
    settings.TABLE_STREAM_SECONDS = 0.2
    table = seated_pair(PLAIN)
    url = reverse("tables:events", args=[table.pk])
    response = client_of(ben).get(url)
    assert response["Content-Type"].startswith("text/event-stream")
    first = b"".join(response.streaming_content).decode()
    assert "event: table" in first and 'id="shared-table"' in first
    table.refresh_from_db()
    seen = table.version
    bet_and_ready(table, ana)
    response = client_of(ben).get(url, HTTP_LAST_EVENT_ID=str(seen))
    caught_up = b"".join(response.streaming_content).decode()
    assert "event: log" in caught_up and "ana (seat 1) bets $10.00 and is ready." in caught_up
    assert f"id: {seen + 1}" in caught_up


def test_a_stream_that_dropped_gets_the_tables_current_state_on_reconnect(
    seated_pair, ana, ben, settings
):
    """Ben's stream drops; while he is away both bet and a round is dealt. Reconnecting
    with the last id he got, he is sent every line he missed, in order, then the table as
    it stands now (the deal, his turn's state, the current version), not as he left it."""
    settings.TABLE_STREAM_SECONDS = 0.2
    table = seated_pair(PLAIN)
    url = reverse("tables:events", args=[table.pk])
    before = b"".join(client_of(ben).get(url).streaming_content).decode()
    assert 'data-phase="intermission"' in before
    left_at = int(re.findall(r"^id: (\d+)$", before, re.M)[-1])

    bet_and_ready(table, ana)
    bet_and_ready(table, ben)  # the last Ready deals the round
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND and table.version > left_at + 2

    back = b"".join(
        client_of(ben).get(url, HTTP_LAST_EVENT_ID=str(left_at)).streaming_content
    ).decode()
    ids = [int(found) for found in re.findall(r"^id: (\d+)$", back, re.M)]
    missed = list(range(left_at + 1, table.version + 1))
    logged = ids[:-1]
    assert logged == [
        e.seq
        for e in TableEvent.objects.filter(table=table, seq__in=missed).order_by("seq")
        if in_log(e)
    ]
    table_event = back.rsplit("event: table", 1)[1]
    assert ids[-1] == table.version
    assert 'data-phase="round"' in table_event
    assert f'data-version="{table.version}"' in table_event
    assert "ben (seat 3) bets $10.00 and is ready." in back
    assert "Round 1: the cards are dealt." in back


def test_the_stream_sends_only_what_table_live_js_listens_for(seated_pair, ana, ben, settings):
    """Two kinds of message: "log" lines and "table", always the whole #shared-table
    element (table_live.js swaps it outerHTML and has no other branch); table_live.js
    listens for those two, "live" (whether news through Redis is paused: without Redis,
    as here, never sent) and "end" (a closed table's, or a viewer let in no more) and
    nothing else."""
    import re
    from pathlib import Path

    from django.conf import settings as django_settings

    settings.TABLE_STREAM_SECONDS = 0.2
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="stand")
    url = reverse("tables:events", args=[table.pk])
    text = b"".join(client_of(ben).get(url, HTTP_LAST_EVENT_ID="0").streaming_content).decode()
    blocks = [block for block in text.split("\n\n") if "event: " in block]
    names = {re.search(r"^event: (.*)$", block, re.M).group(1) for block in blocks}
    assert names == {"log", "table"}
    for block in blocks:
        if "event: table" in block:
            data = "\n".join(re.findall(r"^data: ?(.*)$", block, re.M))
            assert data.lstrip().startswith('<div id="shared-table"')
    script = (Path(django_settings.BASE_DIR) / "static/js/table_live.js").read_text()
    listened = set(re.findall(r'source\.addEventListener\("([a-z]+)"', script))
    assert listened - {"open", "error"} == {"log", "table", "live", "end"}


def test_the_event_stream_of_a_private_table_is_404_to_strangers(make_table, ben):
    table = make_table(public=False)
    assert client_of(ben).get(reverse("tables:events", args=[table.pk])).status_code == 404


def test_a_stream_far_behind_catches_up_in_batches_without_gaps(
    seated_pair, ana, ben, settings, monkeypatch
):
    from game.tables.views import events as views

    settings.TABLE_STREAM_SECONDS = 0.5
    settings.TABLE_STREAM_POLL_SECONDS = 0.02  # the next batch at the next poll
    monkeypatch.setattr(views, "LOG_BATCH", 2)
    table = seated_pair(PLAIN)
    table.refresh_from_db()
    url = reverse("tables:events", args=[table.pk])
    text = b"".join(client_of(ben).get(url, HTTP_LAST_EVENT_ID="0").streaming_content).decode()
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    log_ids = [int(block.split("id: ")[1]) for block in text.split("\n\n") if "event: log" in block]
    # Every event once, in order, two at a time; no id ever goes backwards.
    assert log_ids == list(range(1, table.version + 1))
    assert ids == sorted(ids) and ids[-1] == table.version


def test_no_stream_message_carries_the_hole_card_the_shoe_or_an_open_answer(
    question_open, ana, ben, watcher, questions, settings
):
    settings.TABLE_STREAM_SECONDS = 0.2
    table = question_open(PLAIN, "easy")
    question = Seat.objects.get(player=ana).pending_question.question
    url = reverse("tables:events", args=[table.pk])
    for viewer in (ben, watcher):
        text = b"".join(
            client_of(viewer).get(url, HTTP_LAST_EVENT_ID="0").streaming_content
        ).decode()
        assert "event: log" in text and "ana (seat 1) is answering an Easy question" in text
        assert card_name("0H") not in text and card_name("5H") not in text
        assert question.correct_answer not in text and question.text not in text


def test_every_url_the_table_templates_use_is_reversed_once_per_table(make_table, ana):
    """The pages take their URLs from views.table_urls: a name missing there would render
    an empty action (Django's templates say nothing), so each one used must exist."""
    import re
    from pathlib import Path

    from django.conf import settings as django_settings

    from game.tables.views.rendering import TABLE_ACTIONS, table_urls

    table = make_table()
    urls = table_urls(table.pk)
    used: set[str] = set()
    for template in Path(django_settings.BASE_DIR, "templates", "tables").glob("*.html"):
        used |= set(re.findall(r"\burls\.(\w+)", template.read_text()))
    assert used and used <= set(urls)
    for name in TABLE_ACTIONS:
        assert urls[name.replace("-", "_")] == reverse("tables:action", args=[table.pk, name])
        # Each is an action the view answers (not 404 "No such action").
        response = client_of(ana).post(urls[name.replace("-", "_")], HTTP_HX_REQUEST="true")
        assert response.status_code != 404, name


def test_the_chip_rows_post_each_chip_to_its_action(seated_pair, ana):
    table = seated_pair(PLAIN)
    html = client_of(ana).get(f"/tables/{table.pk}/").content.decode()
    controls = parse(html).one(".my-controls")
    chips = next(g for g in controls.select('[role="group"]') if g["aria-label"] == "Chips")
    assert [(b.text(), b["name"], b["value"]) for b in chips.select("button")][:2] == [
        ("$1", "chip", "1"),
        ("$5", "chip", "5"),
    ]
    assert {b["formaction"] for b in chips.select("button")} == {action_url(table, "chip")}
    side = controls.one('fieldset[data-bet="21+3"]').select(".side-chips button")
    assert [(b.text(), b["name"], b["value"]) for b in side][:2] == [
        ("$1", "side_chip", "21+3:1"),
        ("$5", "side_chip", "21+3:5"),
    ]
    assert {b["formaction"] for b in side} == {action_url(table, "side-chip")}


@pytest.mark.parametrize(
    "rule, words",
    [
        ("S17", "dealer stands on soft 17"),
        ("H17", "dealer hits soft 17"),
        ("S16", "dealer stands on all 16s"),
        ("H16", "dealer hits soft 16"),
    ],
)
def test_the_rules_line_words_the_dealers_rule(rule, words):
    from game.tables.presentation import rules_text
    from game.tables.services import table_options

    line = rules_text(table_options({"dealer_stands_on": rule}))
    assert words in line and rule not in line


def test_the_felt_prints_the_tables_surprising_rules_each_a_link(make_table, ana):
    from game.rules_pages.content import rules_url

    table = make_table(charlie="off", double_after_split=True)
    page = parse(client_of(ana).get(f"/tables/{table.pk}/").content.decode())
    links = page.one("p.felt-rules").select("a")
    assert [(link.text(), link["href"]) for link in links] == [
        ("No splitting aces", rules_url("split_aces")),
        ("JACKPOT ace + king: Perfect 11s up to 720 to 1", rules_url("jackpot_ace")),
    ]


def test_the_felt_rules_kept_rendered_are_each_tables_own(make_table, ana):
    """The rules line is kept rendered per process for every viewer of tables with the
    same rules: a table with other rules never shows the first table's."""
    usual = make_table()
    surprising = make_table(charlie="off", double_after_split=True)
    client = client_of(ana)

    def felt_rules(table) -> str:
        return parse(client.get(f"/tables/{table.pk}/").content.decode()).one("p.felt-rules").text()

    first, second = felt_rules(usual), felt_rules(surprising)
    assert "No double after split" in first and "No double after split" not in second
    assert felt_rules(usual) == first and felt_rules(surprising) == second


# The table's own forms (not the site's, e.g. Log out).
POST_FORMS = re.compile(r'<form method="post" action="/tables/.*?</form>', re.S)


def test_every_form_of_a_table_page_posts_a_version(
    question_open, make_table, ana, ben, watcher, questions
):
    table = question_open(PLAIN, "easy")  # ana answering, ben waiting
    pages = [
        client_of(viewer).get(reverse("tables:table", args=[table.pk])).content.decode()
        for viewer in (ana, ben, watcher)
    ]
    pages.append(client_of(ana).get(reverse("tables:options", args=[table.pk])).content.decode())
    betting = make_table(host=ben, side_bets=True)  # ben hosts it, seated and betting
    services.sit(table_id=betting.pk, user=ben, version=seat_version(betting, ben), number=2)
    pages += [
        client_of(viewer).get(reverse("tables:table", args=[betting.pk])).content.decode()
        for viewer in (ben, watcher)
    ]
    forms = [form for page in pages for form in POST_FORMS.findall(page)]
    actions = {re.search(r'action="([^"]*)"', form).group(1).split("/")[-2] for form in forms}
    # Sit Here, Leave Table, the host's controls, Table Options and the seat's controls.
    assert {"sit", "leave", "renew-invite", "close", "options", "answer", "ready"} <= actions
    for form in forms:
        assert re.search(r'name="version" value="\d+"', form), form


def test_table_options_from_a_stale_page_are_409_and_shown_again_to_apply(make_table, ana, ben):
    table = make_table()
    url = reverse("tables:options", args=[table.pk])
    host = client_of(ana)
    shown = re.search(r'name="version" value="(\d+)"', host.get(url).content.decode()).group(1)
    services.sit(table_id=table.pk, user=ben, version=seat_version(table, ben), number=1)
    fields = {**TableOptionsForm.initial_for(table.options), "deck_count": "2", "version": shown}
    response = host.post(url, fields)
    assert response.status_code == 409
    html = response.content.decode()
    assert STALE_NOTICE in html and 'value="2" selected' in html  # the host's choice kept
    table.refresh_from_db()
    assert table.options.get("deck_count") != 2
    again = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert host.post(url, {**fields, "version": again}).status_code == 302
    table.refresh_from_db()
    assert table.options["deck_count"] == 2


@pytest.mark.parametrize(
    ("action", "refused"),
    [
        ("renew-invite", 409),
        ("sit", 409),
        ("leave", 422),  # "Take a seat first."
        ("close", 404),  # the table is gone
    ],
)
def test_a_repeated_post_of_a_seat_or_host_action_is_refused(make_table, ana, action, refused):
    table = make_table(public=False)
    if action in ("leave", "sit"):
        services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=1)
        if action == "sit":
            services.leave(table_id=table.pk, user=ana, version=seat_version(table, ana))
        version = seat_version(table, ana)
    else:
        version = table_version(table)
    fields = {"version": str(version), "seat": "2"}
    client = client_of(ana)
    assert client.post(action_url(table, action), fields, HTTP_HX_REQUEST="true").status_code == 200
    table.refresh_from_db()
    applied = (table.version, table.invite_token)
    response = client.post(action_url(table, action), fields, HTTP_HX_REQUEST="true")
    assert response.status_code == refused
    if refused == 409:
        assert STALE_NOTICE in response.content.decode()
    table.refresh_from_db()
    assert (table.version, table.invite_token) == applied


def test_a_settled_round_shows_each_seats_result_badge_with_its_amount(seated_pair, ana, ben):
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="stand")
    services.play(table_id=table.pk, user=ben, version=seat_version(table, ben), action="hit")
    # Ana stands on 17 and loses to the dealer's 18; ben draws to 21 and wins.
    html = client_of(ana).get(reverse("tables:table", args=[table.pk])).content.decode()
    badges = re.findall(
        r'class="badge badge--(\w+)" data-net="(-?\d+)">(\w+) <span class="badge__amount">([^<]+)<',
        html,
    )
    assert ("lose", "-1000", "LOSE", "−$10.00") in badges
    assert ("win", "1000", "WIN", "+$10.00") in badges


def test_the_seats_cards_are_drawn_from_the_pages_one_sprite_with_no_inline_style(
    seated_pair, ana, ben
):
    # Ana's queen and jack, Ben's king and ten; the dealer's hole card and upcard.
    table = seated_pair(["QH", "KC", "0H", "JS", "0D", "8C"])
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    root = parse(client_of(ana).get(f"/tables/{table.pk}/").content.decode())
    ids = {node["id"] for node in root.descendants() if node.has("id")}
    assert {use["href"].removeprefix("#") for use in root.select("use")} <= ids
    assert len(root.select("svg.card-art")) == 1
    seat_one = root.one('.seat[data-seat="1"]')
    figures = [use["href"] for use in seat_one.select("use.pc-figure")]
    assert figures == ["#half-Q", "#half-J"]
    # The CSP allows no inline style: no style attribute, no <style> element.
    assert [node.tag for node in root.descendants() if node.has("style")] == []
    assert root.select("style") == []


def test_every_seat_action_the_page_links_to_has_a_view_of_its_own() -> None:
    from game.tables.views.actions import ACTIONS
    from game.tables.views.rendering import TABLE_ACTIONS

    assert sorted(ACTIONS) == sorted(TABLE_ACTIONS)


def test_a_streams_tables_carry_one_csrf_token_that_posts(seated_pair, ana, ben, settings):
    """A stream masks its viewer's CSRF token once (masking is costly, and the stream is
    one response): the table it sends first and the table it sends after news carry the
    same token, and the forms post with it."""
    settings.TABLE_STREAM_SECONDS = 1.0
    settings.TABLE_STREAM_POLL_SECONDS = 0.05
    table = seated_pair(PLAIN)
    ben_client = Client(enforce_csrf_checks=True)
    ben_client.force_login(ben)
    chunks = iter(ben_client.get(reverse("tables:events", args=[table.pk])).streaming_content)
    first = b""
    while b"event: table" not in first:
        first += next(chunks)
    bet_and_ready(table, ana)  # news: the stream reads again and sends the table again
    later = b"".join(chunks)
    assert b"event: table" in later
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', (first + later).decode())
    assert len(tokens) > 2 and len(set(tokens)) == 1
    posted = ben_client.post(
        action_url(table, "chip"),
        {"version": seat_version(table, ben), "chip": "10", "csrfmiddlewaretoken": tokens[0]},
        HTTP_HX_REQUEST="true",
    )
    assert posted.status_code == 200
    assert Seat.objects.get(table=table, player=ben).bet_cents == 1000
