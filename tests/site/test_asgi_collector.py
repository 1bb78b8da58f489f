"""The ASGI process freezes what it loaded to start out of the cyclic collector's walks
(blackjack_site/asgi.py), and leaves the collector's thresholds as Python sets them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_asgi_application_freezes_what_it_loaded_to_start():
    probe = (
        "import gc, json; import blackjack_site.asgi; "
        "print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "blackjack_site.settings", "DEBUG": "1"}
    found = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    threshold, frozen = json.loads(found.stdout.strip().splitlines()[-1])
    assert threshold == [700, 10, 10]  # Python's own: larger ones paused longer
    assert frozen > 10_000  # Django and the apps, loaded to start
