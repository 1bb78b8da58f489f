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

# What was loaded to start (Django, the apps, the URL patterns) lives as long as the
# process: frozen out of the cyclic collector's reach, its full collections, which pause
# every request and stream of the process, need not walk it. Python's collector
# thresholds stay: larger ones (5,000 / 10 / 10; 700 / 10 / 100) were measured under load
# and made the slowest actions slower and the servers busier (bench/RESULTS.md "Shared
# tables under load").
gc.freeze()
