"""The ASGI application: the production server is uvicorn (README "Production server"),

    uvicorn blackjack_site.asgi:application --host 127.0.0.1 --port 8000 --workers 2

Under ASGI the shared tables' live streams (game/tables/sse.py) are async generators that
hold no thread while they wait; every other view and middleware runs as under WSGI (Django
adapts them), WhiteNoise included.
"""

import gc
import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blackjack_site.settings")

# WhiteNoise (6.x, sync only) answers a static file with a file response that Django reads
# through once under ASGI, warning each time; the files are small, the warning noise.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
    module="django.core.handlers.asgi",
)

application = get_asgi_application()

# The cyclic garbage collector pauses every request and stream of the process while it
# runs. Measured under load (bench/tables_bench.py reports its pauses): with Python's
# defaults (700, 10, 10) a server process paused for it thousands of times a minute, up to
# 0.4 s for a full collection, and those pauses were most of the slowest 1 % of actions.
# Nearly everything a request makes is freed by reference counting; the collector is for
# cycles, rare here. So: what was loaded to start (Django, the apps, the URL patterns) is
# moved out of its reach for good, and it runs after 50,000 new objects rather than 700,
# and a full collection only every 100 of the middle ones.
gc.freeze()
gc.set_threshold(50_000, 20, 100)
