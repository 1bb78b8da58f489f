from django.urls import path

from game import report_views, side_bet_views, statistics_views, views

app_name = "game"

urlpatterns = [
    path("games/new/", views.new_game, name="new_game"),
    path("games/statistics/", statistics_views.statistics, name="statistics"),
    path("games/<int:game_id>/", views.table, name="table"),
    path("games/<int:game_id>/end/", views.end_game, name="end_game"),
    path("games/<int:game_id>/options/", views.options, name="options"),
    path(
        "games/<int:game_id>/options/house-edge/",
        views.options_house_edge,
        name="options_house_edge",
    ),
    path(
        "games/<int:game_id>/report-question/",
        report_views.report_question,
        name="report_question",
    ),
    path(
        "games/<int:game_id>/extra-bet/chip/",
        side_bet_views.extra_bet_chip,
        name="extra_bet_chip",
    ),
    path("games/<int:game_id>/<slug:action>/", views.game_action, name="action"),
]
