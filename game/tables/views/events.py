"""A table's live event stream (T-10): the changes since the viewer's last event, then each
new one as it happens, as server-sent events."""

from __future__ import annotations

from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from game.core.http import AuthenticatedHttpRequest
from game.core.streaming import streams_on_the_event_loop
from game.tables import clock_runner, live, stream_limits
from game.tables.models import TableEvent
from game.tables.presentation import (
    TableScene,
    event_text,
    in_log,
)
from game.tables.scenes import current_scene, scene_covering
from game.tables.sse import (
    END_EVENT,
    ENDED_CLOSED,
    SseMessage,
    StreamEnded,
    busy_stream_response,
    ended_stream_response,
    event_stream_response,
    last_event_id,
    release_connections,
)
from game.tables.views.rendering import (
    may_see,
    table_partial,
    visible_table_id,
)

LOG_BATCH = 200  # log lines a stream sends at once when catching up


@streams_on_the_event_loop
@require_GET
def table_events(
    request: AuthenticatedHttpRequest, table_id: int
) -> HttpResponse | StreamingHttpResponse:
    """Server-Sent Events: each new event as a ``log`` line, then the table as this viewer
    may see it (T-11). The id is the table's version: a reconnecting browser catches up
    from where it got to (T-14). A stream that ends for good says so with an ``end``
    event: the table closed, the viewer no longer let in, or logged out (an EventSource
    cannot follow a redirect to the login page: told, the page says so and offers Reload)."""
    if not request.user.is_authenticated:
        return ended_stream_response()
    places = stream_limits.admit(request.user.pk, asgi=isinstance(request, ASGIRequest))
    if places is None:
        return busy_stream_response()
    try:
        return _event_stream(request, table_id, places)
    except BaseException:
        places.give_back()
        raise


def _event_stream(
    request: AuthenticatedHttpRequest, table_id: int, places: stream_limits.StreamPlaces
) -> StreamingHttpResponse:
    clock_runner.ensure_in_process_clock()
    # Only the id is kept: the row holds the engine's state, tens of KB, which a stream
    # open for minutes must not hold (each read takes the process's shared scene).
    table_id = visible_table_id(request, table_id)
    # The viewer's CSRF token, masked once for the whole stream (one response): every
    # table it sends carries it in its forms.
    csrf_token = get_token(request)

    def messages_after(seq: int | None) -> tuple[list[SseMessage], int]:
        # A stream woken by news takes the scene another stream of this process built for
        # it, when there is one; the first snapshot always reads the table's head.
        known = live.known_seq(table_id) if seq is not None else None
        scene = scene_covering(table_id, known) or current_scene(table_id, known)
        if scene is None:
            raise Http404("No such table")
        current = scene.table
        # On every wake: a renewed invitation link ends the access the old one gave now,
        # not when the stream would have ended anyway (the scene has the token and seats).
        if not may_see(request, current, scene.seats):
            raise StreamEnded
        # A closed table changes no more: once the page has it all, the stream ends for good.
        ended = [SseMessage(END_EVENT, ENDED_CLOSED)] if current.is_closed else []
        if seq is not None and seq >= current.version:
            return ended, current.version
        found: list[SseMessage] = []
        last = current.version
        if seq is not None:
            # Only up to the scene's version (an action committed since comes next time),
            # at most LOG_BATCH at once: the id sent is the last event sent, never beyond it.
            events = _events_between(scene, seq, LOG_BATCH)
            found = [
                SseMessage("log", _log_item(scene, event), str(event.seq))
                for event in events
                if in_log(event)
            ]
            if len(events) == LOG_BATCH:
                last = events[-1].seq
        html = table_partial(request, current, scene=scene, csrf_token=csrf_token)
        found.append(SseMessage("table", html, str(last)))
        if last == current.version:
            found += ended
        return found, last

    # The stream lives minutes: the connection the checks above used goes back now (to the
    # pool, or closed), not when the response ends; each of the stream's reads takes one.
    release_connections()
    return event_stream_response(
        request,
        table_id=table_id,
        after_seq=last_event_id(request),
        messages_after=messages_after,
        on_end=places.give_back,
    )


def _events_between(scene: TableScene, after: int, count: int) -> list[TableEvent]:
    """The events after seq ``after`` up to the scene's version, oldest first, at most
    ``count``: from the scene when it holds them all (a stream that keeps up), else read."""
    last = scene.table.version
    held = scene.events  # newest first
    if held and held[-1].seq <= after + 1 and last - after <= count:
        return [event for event in reversed(held) if after < event.seq <= last]
    return list(
        TableEvent.objects.filter(table_id=scene.table.pk, seq__gt=after, seq__lte=last).order_by(
            "seq"
        )[:count]
    )


def _log_item(scene: TableScene, event: TableEvent) -> str:
    key = ("log", event.seq)
    html = scene.fragments.get(key)
    if html is None:
        html = render_to_string(
            "tables/_log_item.html", {"event": event, "text": event_text(event)}
        )
        scene.fragments[key] = html
    return html
