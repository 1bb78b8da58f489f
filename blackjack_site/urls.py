from django.contrib import admin
from django.urls import include, path

from blackjack_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/", views.my_games, name="my_games"),
    path("rules/", include("game.rules_pages.urls")),
    path("tables/", include("game.tables.urls")),
    path("", include("game.urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", views.favicon, name="favicon"),
]
