from django.urls import path

# Registers the <id:…> and <invite_token:…> converters the paths below use.
import game.core.converters  # noqa: F401
from game.tables.views import actions, events, lobby, table

app_name = "tables"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("new/", lobby.create_table, name="create"),
    path("invite/<invite_token:token>/", lobby.invitation, name="invitation"),
    path("<id:table_id>/", table.table_page, name="table"),
    path("<id:table_id>/events/", events.table_events, name="events"),
    path("<id:table_id>/options/", table.table_options, name="options"),
    path("<id:table_id>/invite/", table.invite_page, name="invite"),
    # Before the actions' pattern, which would take "fairness" for an action's name.
    path("<id:table_id>/fairness/", table.table_fairness, name="fairness"),
    # Each seat action at its own address, a view each; any other name there is a 404.
    *(path(f"<id:table_id>/{name}/", view) for name, view in actions.ACTIONS.items()),
    path("<id:table_id>/<slug:action>/", actions.no_such_action, name="action"),
]
