"""What a page costs a player to download: its HTML and every asset it references, gzipped.

Used by tests/game/test_page_weight.py (the 60 KB budget) and by
bench/page_weight_bench.py (the figures in bench/RESULTS.md).
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.staticfiles import finders

# gzip -6, what nginx and WhiteNoise's compressor use by default.
GZIP_LEVEL = 6
ASSET_PATTERN = re.compile(r'(?:src|href)="(/static/[^"?#]+)')


@dataclass
class PageWeight:
    html_bytes: int
    html_gzip: int
    assets: dict[str, tuple[int, int]] = field(default_factory=dict)  # path: (raw, gzip)

    @property
    def total_gzip(self) -> int:
        return self.html_gzip + sum(gzipped for _raw, gzipped in self.assets.values())


def gzipped_size(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


def page_weight(html: str) -> PageWeight:
    """The page's HTML and the static files it links (stylesheets, scripts, icons)."""
    body = html.encode()
    weight = PageWeight(len(body), gzipped_size(body))
    for url in sorted(set(ASSET_PATTERN.findall(html))):
        path = finders.find(url.removeprefix(settings.STATIC_URL))
        if path is None:
            raise FileNotFoundError(f"{url} is linked but not found by the static finders")
        with open(path, "rb") as handle:
            data = handle.read()
        weight.assets[url] = (len(data), gzipped_size(data))
    return weight
