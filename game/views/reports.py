"""The "Report question" form on the trivia reveal panel: htmx swap or post/redirect/get."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from game.core.errors import REFUSED, ActionRefused, GameNotFound
from game.core.http import AuthenticatedHttpRequest
from game.models import Game
from game.presentation.notices import refusal_text
from game.services.question_reports import THANKS, ReportQuestionForm, report_attempt_question
from game.views.rendering import render_table


@login_required
@require_POST
def report_question(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    # Ownership first: another player's game is a 404 whatever else is wrong with the post.
    game = get_object_or_404(Game, pk=game_id, owner=request.user)
    form = ReportQuestionForm(request.POST)
    if not form.is_valid():
        return render_table(request, game, status=REFUSED, notice=form.first_error())
    try:
        report_attempt_question(
            game_id=game.pk,
            user=request.user,
            attempt_id=form.cleaned_data["attempt"],
            reason=form.cleaned_data["reason"],
            note=form.cleaned_data["note"],
        )
    except GameNotFound:
        raise Http404("No such trivia question in this game") from None
    except ActionRefused as error:
        return render_table(request, game, status=REFUSED, notice=refusal_text(error))
    # The game row is untouched, so the page's version (and its Continue button) still holds.
    messages.success(request, THANKS)
    if request.htmx:
        return render_table(request, game)
    return redirect("game:table", game_id=game.pk)
