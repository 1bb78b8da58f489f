"""The site's URLs plus ``/bench/bare/``: the baseline every game action is compared with.

The bare view does what any logged-in post of this site must do and nothing of the game:
the same middleware (session, CSRF, authentication, CSP, htmx, axes…), one UPDATE, and a
tiny template.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_POST

from blackjack_site.urls import urlpatterns as site_urlpatterns

BARE_TEMPLATE = engines["django"].from_string(
    '<div id="bare"><p>{{ user.get_username }} at {{ now|time:"H:i:s" }}</p>'
    '<form method="post">{% csrf_token %}<button>Again</button></form></div>'
)


@login_required
@require_POST
def bare(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    get_user_model().objects.filter(pk=request.user.pk).update(last_login=now)
    return HttpResponse(BARE_TEMPLATE.render({"now": now}, request))


urlpatterns = [path("bench/bare/", bare, name="bench_bare"), *site_urlpatterns]
