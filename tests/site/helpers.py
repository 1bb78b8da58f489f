"""Shared values for the site (accounts, sessions) tests."""

PASSWORD = "felt-table-42-Aces"


def create_table_form() -> dict[str, str]:
    """Create Table's form as the lobby sends it with the usual rules (no one-time key)."""
    from tests.game.tables.test_views import _default_form

    return {
        **_default_form(),
        "name": "Friday night",
        "public": "1",
        "seat_count": "5",
        "intermission_seconds": "30",
    }
