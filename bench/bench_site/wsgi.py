"""gunicorn's entry point for the load run of bench/web_bench.py."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench_site.settings")
application = get_wsgi_application()
