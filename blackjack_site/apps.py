from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project package as an app (no models): the accounts' start-up wiring, the
    guests' template filter and their clean-up command."""

    name = "blackjack_site"
    label = "site"

    def ready(self) -> None:
        # The cached user (auth.py) is dropped whenever an account is saved or deleted, in
        # every process: connected here, at start-up (the game app must not import us).
        from blackjack_site.auth import connect_signals

        connect_signals()
