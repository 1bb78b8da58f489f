"""The Daily Shoe's page (FAIRNESS.md D-4…D-7): today's status, the commitments of today
and tomorrow, and how long until the next day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from game.clock import now_ms
from game.presentation.daily import commitments_of, daily_status, long_date, time_left_text
from game.selectors import daily_attempt_of
from game.services.daily import daily_shoe_for, utc_today


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
    }
    return render(request, "daily/today.html", context)
