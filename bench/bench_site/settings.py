"""The project's settings (read from the environment as usual) with the bench's URLs and
production's rendering: DEBUG off at run time (no django-htmx debug script), static files
found in the app folders (unhashed names, so no collectstatic is needed), plain HTTP."""

import warnings

from blackjack_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench_site.urls"
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
