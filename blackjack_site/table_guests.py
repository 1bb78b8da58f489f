"""Play as guest from a shared table's invitation link (UI.md "Shared tables").

A visitor who opens an invitation link sees the table, who invited them and **Play as
guest**: pressed, it makes them a guest (as the front door's Play now does, within the same
hourly limit per address) and takes them to the table, where they pick a free seat with
Sit Here, their guest name on it as any player's. The invitation is the browser session's
(game/tables/invitations.py): it stays through this login and any later sign-up or login.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from blackjack_site import guests
from blackjack_site.views import form_expired
from game.core import once_keys
from game.core.errors import FormExpired
from game.tables import invitations
from game.tables.models import SharedTable


@never_cache
@require_POST
def play_as_guest(request: HttpRequest, token: str) -> HttpResponse:
    """Play as guest, from the invitation ``token``: a visitor becomes a guest; a player
    (guest or not) is already someone and goes straight to the table."""
    table = SharedTable.objects.filter(invite_token=token).first()
    if table is None or table.is_closed:
        raise Http404("This invitation link is no longer valid")
    if not request.user.is_authenticated:
        # Made once per form (its one-time key), as Play now's guest: a double click on
        # Play as guest makes one guest.
        try:
            guests.enter_as_guest(request, request.POST.get(once_keys.FIELD))
        except guests.TooManyGuests:
            context = {"limit": settings.GUESTS_PER_ADDRESS_PER_HOUR}
            return render(request, "registration/too_many_guests.html", context, status=429)
        except FormExpired:
            return form_expired(request, once_keys.Kind.GUEST)
    invitations.remember(request.session, token)
    return redirect("tables:table", table_id=table.pk)
