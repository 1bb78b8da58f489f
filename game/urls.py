from django.urls import path, re_path

# Registers the <id:…> converter the paths below use.
import game.converters  # noqa: F401
from game import daily_views, fairness_views, report_views, side_bet_views, statistics_views, views

app_name = "game"

urlpatterns = [
    path("games/new/", views.new_game, name="new_game"),
    path("games/statistics/", statistics_views.statistics, name="statistics"),
    path("games/<id:game_id>/", views.table, name="table"),
    path("games/<id:game_id>/end/", views.end_game, name="end_game"),
    path("games/<id:game_id>/options/", views.options, name="options"),
    path("games/<id:game_id>/fairness/", fairness_views.game_fairness, name="fairness"),
    path("games/<id:game_id>/client-seed/", fairness_views.game_client_seed, name="client_seed"),
    path("daily/", daily_views.daily_page, name="daily"),
    # A day's address is its ISO date; anything else under /daily/ is not a day (404).
    re_path(r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/$", daily_views.past_day, name="daily_day"),
    re_path(
        r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/fairness/$",
        daily_views.past_day_fairness,
        name="daily_fairness",
    ),
    re_path(
        r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/attempts/(?P<attempt_id>[0-9]{1,18})/$",
        daily_views.attempt_replay,
        name="daily_attempt",
    ),
    path(
        "daily/<str:day>/leaderboard/",
        daily_views.daily_leaderboard_page,
        name="daily_leaderboard",
    ),
    path("fairness/verify_shoe.py", fairness_views.verifier_script, name="verify_shoe_script"),
    path(
        "games/<id:game_id>/options/house-edge/",
        views.options_house_edge,
        name="options_house_edge",
    ),
    path(
        "games/<id:game_id>/report-question/",
        report_views.report_question,
        name="report_question",
    ),
    path(
        "games/<id:game_id>/extra-bet/chip/",
        side_bet_views.extra_bet_chip,
        name="extra_bet_chip",
    ),
    path("games/<id:game_id>/<slug:action>/", views.game_action, name="action"),
]
