from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"

    def ready(self) -> None:
        # The site's cached user (blackjack_site/auth.py) is dropped whenever an account
        # is saved or deleted, in every process: connected here, at start-up.
        from blackjack_site.auth import connect_signals

        connect_signals()
