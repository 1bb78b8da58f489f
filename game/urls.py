from django.urls import path, re_path

# Registers the <id:…> converter the paths below use.
import game.core.converters  # noqa: F401
from game.views import actions, daily, fairness, reports, side_bets, statistics, table

app_name = "game"

urlpatterns = [
    path("games/new/", table.new_game, name="new_game"),
    path("games/statistics/", statistics.statistics, name="statistics"),
    path("games/<id:game_id>/", table.table, name="table"),
    path("games/<id:game_id>/end/", actions.end_game, name="end_game"),
    path("games/<id:game_id>/options/", table.options, name="options"),
    path("games/<id:game_id>/fairness/", fairness.game_fairness, name="fairness"),
    path("games/<id:game_id>/client-seed/", fairness.game_client_seed, name="client_seed"),
    path("daily/", daily.daily_page, name="daily"),
    # A day's address is its ISO date; anything else under /daily/ is not a day (404).
    re_path(r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/$", daily.past_day, name="daily_day"),
    re_path(
        r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/fairness/$",
        daily.past_day_fairness,
        name="daily_fairness",
    ),
    re_path(
        r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/attempts/(?P<attempt_id>[0-9]{1,18})/$",
        daily.attempt_replay,
        name="daily_attempt",
    ),
    path(
        "daily/<str:day>/leaderboard/",
        daily.daily_leaderboard_page,
        name="daily_leaderboard",
    ),
    path("fairness/verify_shoe.py", fairness.verifier_script, name="verify_shoe_script"),
    path(
        "games/<id:game_id>/options/house-edge/",
        table.options_house_edge,
        name="options_house_edge",
    ),
    path(
        "games/<id:game_id>/report-question/",
        reports.report_question,
        name="report_question",
    ),
    path(
        "games/<id:game_id>/extra-bet/chip/",
        side_bets.extra_bet_chip,
        name="extra_bet_chip",
    ),
    # Each action at its own address, a view each; any other name there is a 404.
    *(path(f"games/<id:game_id>/{name}/", view) for name, view in actions.ACTIONS.items()),
    path("games/<id:game_id>/<slug:action>/", actions.no_such_action, name="action"),
]
