from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from blackjack_site import rules_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/", views.my_games, name="my_games"),
    path("rules/", include(rules_views.urlpatterns)),
    path("", include("game.urls")),
    path("trivia/", include("trivia.urls")),
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page says; send them to the SVG icon.
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("img/favicon.svg"), permanent=True),
        name="favicon",
    ),
]
