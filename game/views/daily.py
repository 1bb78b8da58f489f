"""The Daily Shoe's pages (FAIRNESS.md D-4…D-8): today's status, the commitments of today
and tomorrow, and how long until the next day; a day that is over revealed, its Fairness
page, and its finished attempts replayed."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from functools import partial

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from game.core.clock import now_ms
from game.models import DailyShoe
from game.presentation.daily import (
    BAD_DATE_TEXT,
    commitments_of,
    daily_status,
    leaderboard_of,
    long_date,
    round_standing_lines,
    streak_text,
    time_left_text,
)
from game.presentation.daily_reveal import (
    NO_SUCH_DAY,
    NOT_OVER,
    daily_fairness_view,
    revealed_day,
)
from game.presentation.daily_reveal import attempt_replay as replay_view
from game.presentation.fairness import fairness_json
from game.selectors import (
    daily_attempt_of,
    daily_attempt_standings,
    daily_day_on_or_before,
    daily_leaderboard,
    daily_rank,
    daily_shoe_on,
    daily_streak,
    empty_leaderboard,
    finished_daily_attempt,
    finished_daily_attempts,
    finished_rounds,
    first_daily_date,
    questions_by_id,
    ranked_attempts,
)
from game.services.daily import daily_shoe_for, utc_today

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@require_GET
def daily_page(request: HttpRequest) -> HttpResponse:
    """Today's Daily Shoe: play, resume or the result; today's and tomorrow's commitments
    (both days made here if nothing made them yet, D-4)."""
    today = utc_today()
    day, tomorrow = daily_shoe_for(today), daily_shoe_for(today + timedelta(days=1))
    user = request.user
    # A guest's account is told apart in the template (the project's guests filter).
    attempt = daily_attempt_of(user, day)
    rank = daily_rank(today, user) if attempt is not None and attempt.finished else None
    status = daily_status(signed_in=user.is_authenticated, attempt=attempt, day=today, rank=rank)
    now = datetime.fromtimestamp(now_ms() / 1000, tz=UTC)
    yesterday = daily_shoe_on(today - timedelta(days=1))
    context = {
        "days": [commitments_of(day), commitments_of(tomorrow)],
        "yesterday_url": (
            reverse("game:daily_day", kwargs={"day": yesterday.date.isoformat()})
            if yesterday is not None
            else ""
        ),
        "date_label": long_date(today),
        "status": status,
        "time_left": time_left_text(now, today),
        "streak": streak_text(daily_streak(user, today)) if user.is_authenticated else "",
        "leaderboard_date": today.isoformat(),
    }
    if status.kind == "finished" and status.attempt is not None:
        standings = daily_attempt_standings(status.attempt)
        context["round_lines"] = round_standing_lines(status.attempt, standings)
    return render(request, "daily/today.html", context)


def _day_over(day_text: str) -> DailyShoe:
    """The Daily Shoe of a day that is over (D-8); Http404 for a malformed date or a day
    with no Daily Shoe, DayNotOver for today or a day to come (its seed is still secret)."""
    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise Http404(NO_SUCH_DAY) from None
    first = first_daily_date()
    if first is None or day < first:
        raise Http404(NO_SUCH_DAY)
    if day >= utc_today():
        raise DayNotOver
    shoe = daily_shoe_on(day)
    if shoe is None:
        raise Http404(NO_SUCH_DAY)
    return shoe


class DayNotOver(Exception):
    """The day asked for is today or later: nothing of it is revealed yet (F-6, D-8)."""


def _not_over(request: HttpRequest, *, json: bool = False) -> HttpResponse:
    if json:
        return JsonResponse({"error": NOT_OVER}, status=403)
    return render(request, "daily/not_over.html", {"message": NOT_OVER}, status=403)


@require_GET
def past_day(request: HttpRequest, day: str) -> HttpResponse:
    """A day that is over: its seed beside its commitment, its question lists with theirs,
    and its finished attempts to replay (D-8); refused for today and the days to come."""
    try:
        shoe = _day_over(day)
    except DayNotOver:
        return _not_over(request)
    ids = [qid for ids in shoe.questions.values() for qid in ids]
    view = revealed_day(shoe, questions_by_id(ids), finished_daily_attempts(shoe))
    return render(request, "daily/past_day.html", {"day": view})


@require_GET
def past_day_fairness(request: HttpRequest, day: str) -> HttpResponse:
    """The Fairness page of a day that is over, its 20 shoes checked in the browser;
    ``?format=json`` for F-7's JSON (D-8). Refused for today and the days to come."""
    as_json = request.GET.get("format") == "json"
    try:
        shoe = _day_over(day)
    except DayNotOver:
        return _not_over(request, json=as_json)
    view = daily_fairness_view(shoe)
    if as_json:
        return JsonResponse(fairness_json(view.shoes), json_dumps_params={"ensure_ascii": False})
    context = {
        "view": view,
        "seed_form": None,
        "json_url": reverse("game:daily_fairness", kwargs={"day": day}) + "?format=json",
        "notice": "",
    }
    return render(request, "fairness/page.html", context)


@require_GET
def attempt_replay(request: HttpRequest, day: str, attempt_id: str) -> HttpResponse:
    """A finished attempt of a day that is over, round by round, for anyone (D-8); refused
    for today (D-5: nobody sees another's rounds before the day is over), 404 when
    unfinished."""
    try:
        shoe = _day_over(day)
    except DayNotOver:
        return _not_over(request)
    attempt = finished_daily_attempt(shoe, int(attempt_id))
    if attempt is None:
        raise Http404("No such finished attempt")
    view = replay_view(attempt, finished_rounds(attempt.game))
    return render(request, "daily/attempt.html", {"replay": view})


@require_GET
def daily_leaderboard_page(request: HttpRequest, day: str) -> HttpResponse:
    """A day's leaderboard (D-6), today's included while it lasts: finished attempts only,
    never a card or a question; 404 for a malformed date, a day before the first Daily
    Shoe or one not started yet."""
    try:
        # Only YYYY-MM-DD: fromisoformat also reads forms like 20261128 the address never uses.
        wanted = date.fromisoformat(day) if ISO_DATE.fullmatch(day) else None
    except ValueError:
        wanted = None
    today = utc_today()
    if wanted is None:
        return _no_leaderboard(request, "malformed")
    if wanted > today:
        return _no_leaderboard(request, "future")
    rows = daily_leaderboard(wanted, request.user, request.GET.get("page"))
    if rows is None:
        # A day nobody made after the first shows an empty board; one before the first
        # is a 404.
        if daily_day_on_or_before(wanted) is None:
            return _no_leaderboard(request, "before")
        rows = empty_leaderboard()
    board = leaderboard_of(wanted, rows, partial(ranked_attempts, rows), today=today)
    return render(request, "daily/leaderboard.html", {"board": board})


def _no_leaderboard(request: HttpRequest, why: str) -> HttpResponse:
    return render(request, "daily/no_leaderboard.html", {"text": BAD_DATE_TEXT[why]}, status=404)
