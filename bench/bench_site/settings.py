"""The project's settings (read from the environment as usual) with the bench's URLs and
production's rendering: DEBUG off at run time (no django-htmx debug script), static files
found in the app folders (unhashed names, so no collectstatic is needed), plain HTTP."""

import warnings

from blackjack_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench_site.urls"
# Counts each process's queries by thread (bench_site/query_counter.py, /bench/queries/).
INSTALLED_APPS = [*INSTALLED_APPS, "bench_site.apps.BenchSiteConfig"]  # noqa: F405
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = False
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0

# No collectstatic in a bench run: the files are found in the app folders (above).
warnings.filterwarnings("ignore", message="No directory at")

# Both sides of an A/B comparison run with the same database options on PostgreSQL:
# psycopg's automatic server-side prepared statements (Django's documented
# server_side_binding and prepare_threshold OPTIONS), as the site ships them. A checkout
# that prepared only its own statements would otherwise be measured against a bare view
# whose UPDATE runs unprepared, a slower baseline than the site's own configuration gives.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(  # noqa: F405
    "GAME_PREPARED_STATEMENTS", True
):
    DATABASES["default"].setdefault("OPTIONS", {}).update(  # noqa: F405
        {"server_side_binding": True, "prepare_threshold": 5}
    )
