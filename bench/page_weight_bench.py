"""Weigh the table page as a player downloads it: HTML and linked assets, gzipped (-6).

Run from the repository root:  .venv/bin/python bench/page_weight_bench.py
A throw-away SQLite file gets a player and a game; the table page is rendered by Django's
test client (DEBUG off, as in production) at the bet and at the player's turn, and each
asset it links is weighed. The baseline measured in the same run is htmx alone, the one
file every page needs; the budget is 60 KB.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from throwaway_db import setup_django

BUDGET = 60 * 1024


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        from django.conf import settings

        # As the tests do: static files found in the app folders (unhashed names, the same
        # bytes as the collected ones), DEBUG off at render time so the page is production's
        # (django-htmx adds its debug script only with DEBUG on).
        settings.DEBUG = False
        from django.contrib.auth import get_user_model
        from django.test import Client

        from game import services
        from tests.game.page_weight import page_weight

        user = get_user_model().objects.create_user(username="weigh", password="bench-pw-123")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        game = services.new_game(user=user)
        pages = {"bet": client.get(f"/games/{game.pk}/").content.decode()}
        game = services.place_bet_and_deal(
            game_id=game.pk, user=user, version=game.version, bet_cents=1000
        ).game
        pages["player turn"] = client.get(f"/games/{game.pk}/").content.decode()
        worst = 0
        for phase, html in pages.items():
            weight = page_weight(html)
            htmx = next(size for url, size in weight.assets.items() if "htmx" in url)[1]
            print(f"== table page, {phase}")
            print(f"{'file':48} {'bytes':>8} {'gzip':>8}")
            print(f"{'(HTML)':48} {weight.html_bytes:8,} {weight.html_gzip:8,}")
            for url, (raw, gzipped) in weight.assets.items():
                print(f"{url:48} {raw:8,} {gzipped:8,}")
            total = weight.total_gzip
            worst = max(worst, total)
            print(
                f"total {total:,} B gzip = {total / 1024:.1f} KB; {total / htmx:.2f}x htmx alone; "
                f"{total / BUDGET:.0%} of the 60 KB budget"
            )
    return 0 if worst <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
