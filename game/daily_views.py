"""The Daily Shoe's page (FAIRNESS.md D-4…D-7): today's status, the commitments of today
and tomorrow, and how long until the next day."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from game.clock import now_ms
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
from game.selectors import (
    daily_attempt_of,
    daily_attempt_standings,
    daily_day_on_or_before,
    daily_leaderboard,
    daily_streak,
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
    status = daily_status(
        signed_in=user.is_authenticated, attempt=daily_attempt_of(user, day), day=today
    )
    now = datetime.fromtimestamp(now_ms() / 1000, tz=UTC)
    context = {
        "days": [commitments_of(day), commitments_of(tomorrow)],
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
    # Only an empty board asks whether any Daily Shoe came on or before the day (a day
    # nobody made after the first shows an empty board, one before the first is a 404).
    if not rows.page.paginator.count and daily_day_on_or_before(wanted) is None:
        return _no_leaderboard(request, "before")
    board = leaderboard_of(
        wanted,
        rows.page,
        own_rank=rows.own_rank,
        own_page=rows.own_page,
        today=today,
        user_id=request.user.pk,
    )
    return render(request, "daily/leaderboard.html", {"board": board})


def _no_leaderboard(request: HttpRequest, why: str) -> HttpResponse:
    return render(request, "daily/no_leaderboard.html", {"text": BAD_DATE_TEXT[why]}, status=404)
