"""The whole table page — HTML, CSS, JS, SVG, htmx included — is at most 60 KB gzipped."""

from __future__ import annotations

import pytest

from tests.game import scenarios
from tests.game.page_weight import page_weight

BUDGET = 60 * 1024

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("scenario", ["betting", "dealt"])
def test_the_table_page_fits_the_budget(alice, player, scenario: str) -> None:
    game = getattr(scenarios, scenario)(player)
    html = alice.get(f"/games/{game.pk}/").text
    weight = page_weight(html)
    assert any(url.endswith("htmx-2.min.js") for url in weight.assets), weight.assets
    assert any(url.endswith("table.css") for url in weight.assets), weight.assets
    assert weight.total_gzip <= BUDGET, weight
