from django.contrib import admin
from django.urls import include, path

# Registers the <invite_token:…> converter the table's Play as guest path uses.
import game.core.converters  # noqa: F401
from blackjack_site import table_guests, views
from blackjack_site.forms import AdminLoginForm

# The admin's login refuses impossible credentials as the site's does (forms.py).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("play/", views.play_now, name="play_now"),
    path("daily/play/", views.play_daily, name="play_daily"),
    path("accounts/signup/", views.signup, name="signup"),
    # Before Django's account URLs, so that /accounts/login/ uses the bounded form.
    path("accounts/login/", views.SiteLoginView.as_view(), name="login"),
    path("accounts/move-guest-game/", views.move_guest_games, name="move_guest_games"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/", views.my_games, name="my_games"),
    path("rules/", include("game.rules_pages.urls")),
    # Play as guest from an invitation link: here, as guests are the site's, not the app's.
    path(
        "tables/invite/<invite_token:token>/guest/",
        table_guests.play_as_guest,
        name="table_guest",
    ),
    path("tables/", include("game.tables.urls")),
    path("", include("game.urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", views.favicon, name="favicon"),
]

# A request refused before any view (a body too big, unreadable data): a page of the site.
handler400 = "blackjack_site.views.bad_request"
