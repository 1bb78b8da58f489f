from django.urls import URLPattern, URLResolver

app_name = "trivia"

# Player-facing trivia pages are served by the game app; nothing public here yet.
urlpatterns: list[URLPattern | URLResolver] = []
