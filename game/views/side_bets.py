"""The extra-bet chips without JavaScript (R-SB-20).

With JavaScript, ``static/js/side_bets.js`` adds a chip to the amount field in the page.
Without it, a chip is a submit button posting here: the table comes back with the new
amount in the field and its fee. Nothing is saved (the offer is the same offer), so
this answers the post directly instead of redirecting.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from game.core.errors import REFUSED
from game.core.http import AuthenticatedHttpRequest
from game.forms import parse_chip_dollars
from game.models import Game
from game.presentation.side_bet_panels import extra_chip_refusal
from game.presentation.table import table_view
from game.rules.money import CHIP_DOLLARS, parse_typed_amount
from game.selectors import table_reads
from game.views.rendering import render_table


@login_required
@require_POST
def extra_bet_chip(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, owner=request.user)
    view = table_view(game, reads=table_reads(game))
    offer = view.side_panels.extra_bet
    if offer is None or view.panel != "extra_bet":
        return render_table(
            request, game, status=REFUSED, notice="The extra bet is not on offer now."
        )
    try:
        chip_dollars = parse_chip_dollars(request.POST.get("chip"))
        if chip_dollars not in CHIP_DOLLARS:
            raise ValueError("There is no such chip.")
        typed = request.POST.get("amount", "").strip()
        amount = parse_typed_amount(typed) if typed else 0
    except ValueError as error:
        return render_table(request, game, status=REFUSED, notice=str(error), view=view)
    new_amount = amount + chip_dollars * 100
    refusal = extra_chip_refusal(new_amount, offer.base_bet, offer.bank)
    if refusal:
        offer.set_amount(amount)
        return render_table(request, game, status=REFUSED, notice=f"{refusal}.", view=view)
    offer.set_amount(new_amount)
    return render_table(request, game, view=view)
