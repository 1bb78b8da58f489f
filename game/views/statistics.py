"""The player's statistics page (UI.md "A player's statistics page")."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from game.core.http import AuthenticatedHttpRequest
from game.presentation.daily import streak_text
from game.presentation.statistics import player_statistics
from game.selectors import coach_deviation_count, daily_streak
from game.services.daily import utc_today


@login_required
@require_GET
def statistics(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Only the signed-in player's own figures, over all their games."""
    return render(
        request,
        "game/statistics.html",
        {
            "stats": player_statistics(request.user),
            "coach_deviations": coach_deviation_count(request.user),
            "daily_streak": streak_text(daily_streak(request.user, utc_today())),
        },
    )
