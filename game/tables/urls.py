from django.urls import path

from game.tables import views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create_table, name="create"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/events/", views.table_events, name="events"),
    path("<int:table_id>/options/", views.table_options, name="options"),
    path("<int:table_id>/<slug:action>/", views.table_action, name="action"),
]
