"""Settings for Blackjack Trivia, driven entirely by environment variables.

DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, CSRF_TRUSTED_ORIGINS and the
SECURE_* switches are read here and nowhere else.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-dev-only-key-never-used-in-production"  # noqa: S105
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        # A production server with a guessable key would let anyone forge sessions.
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "axes",
    "blackjack_site.apps.SiteConfig",  # accounts: the cached user's signals
    "game",
    "game.tables",
    "trivia",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # no-store on game pages and htmx answers; a lost lock race answers 409, not 500.
    "game.middleware.GameResponseMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "blackjack_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "blackjack_site.wsgi.application"

# Connections are kept between requests (CONN_MAX_AGE seconds, checked before reuse so a
# connection the server dropped is replaced, not failed on): opening a PostgreSQL
# connection per request cost a quarter of a worker's time under load.
# DATABASE_POOL_SIZE > 0 uses psycopg's pool on PostgreSQL instead (Django 5.1+), shared by
# a worker's threads; Django refuses a pool together with persistent connections.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "0"))
# PostgreSQL: psycopg prepares a statement on the server once a connection has run it
# PREPARE_THRESHOLD times, and PostgreSQL then plans it once per connection instead of at
# every run (the game's lock, four joins and two subqueries, is mostly planning). It
# needs server-side binding: the client-side binding cursor, Django's default, never
# prepares. Both are Django's documented OPTIONS, off by default; off here too behind a
# pooler that does not keep prepared statements (PgBouncer before 1.21, or without
# max_prepared_statements, in transaction mode): GAME_PREPARED_STATEMENTS=0.
GAME_PREPARED_STATEMENTS = env_bool("GAME_PREPARED_STATEMENTS", True)
PREPARE_THRESHOLD = 5  # psycopg's own default: a statement run once or twice is not kept
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0 if DATABASE_POOL_SIZE else int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
if GAME_PREPARED_STATEMENTS and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD}
    )
if DATABASE_POOL_SIZE and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        # A request waits this long for a free connection before failing.
        "timeout": 10,
    }
# SQLite as a web database (Django 5.1+): every transaction takes the write lock at BEGIN
# (IMMEDIATE), so two tabs or a double click queue behind the busy timeout instead of
# failing with "database is locked" half-way through; WAL lets the page reads go on
# meanwhile. A wait longer than the timeout is answered 409 (game/middleware.py).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": int(os.environ.get("SQLITE_BUSY_TIMEOUT", "20")),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file, not pytest-django's shared in-memory database: the live-server tests race
    # real connections against it, which shared-cache memory databases cannot queue.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(BASE_DIR / "test-db.sqlite3")
    )
# The test database's name, when set: CI derives one per run so that two runs sharing one
# PostgreSQL server cannot drop each other's database.
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"].setdefault("TEST", {})["NAME"] = os.environ["TEST_DATABASE_NAME"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache: Redis when REDIS_URL is set (shared by every worker process), else memory local
# to the process. It holds sessions and the logged-in user (below), both also kept in the
# database: while Redis is out of reach the cache answers as an empty one and both are read
# from the database (blackjack_site/cache.py), the outage logged once. The timeouts bound
# what a Redis that does not answer at all costs the one request a while that tries it.
REDIS_URL = os.environ.get("REDIS_URL", "")


def redis_cache(url: str, retry_seconds: float = 5) -> dict[str, Any]:
    """The cache on the Redis at ``url`` (the outage tests build theirs with this)."""
    return {
        "BACKEND": "blackjack_site.cache.ResilientRedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "socket_connect_timeout": 1,
            "socket_timeout": 1,
            # One pool per process, not one per request (blackjack_site/cache.py).
            "pool_class": "blackjack_site.cache.SharedConnectionPool",
            "OUTAGE_RETRY_SECONDS": retry_seconds,
        },
    }


CACHES = {
    "default": (
        redis_cache(REDIS_URL)
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # Rendered template fragments ({% cache %}, which uses this alias by name): a row of
    # chips, the turn's buttons, a shared table's seat. Each is keyed by everything it
    # shows, so it never goes stale and is kept for good in each process's own memory
    # (nothing to share between processes, no round trip to Redis, no pickling:
    # blackjack_site/fragment_cache.py); the oldest go when it is full (a few KB each at
    # most: some 20 MB per process).
    "template_fragments": {
        "BACKEND": "blackjack_site.fragment_cache.RenderedFragmentCache",
        "LOCATION": "template-fragments",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}
# Sessions are read from the cache and written through to the database (cached_db): a
# request then reads its session without a query, and logging out deletes it from both,
# so a copied cookie dies with it (signed-cookie sessions cannot be revoked that way).
# A process-local cache would let another worker keep serving a session logged out
# elsewhere, so without Redis a production server (DEBUG off) stores sessions in the
# database only; development (one process) caches them in memory.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if REDIS_URL or DEBUG
    else "django.contrib.sessions.backends.db"
)

# Shared tables (game/tables): the clock that applies deadlines runs "in-process" (a
# thread of the web process: `make run`, no Redis) or "external" (`manage.py table_clock`
# beside the app servers, the default when REDIS_URL is set); it ticks every
# TABLE_CLOCK_INTERVAL seconds. A table's live stream (SSE) ends after
# TABLE_STREAM_SECONDS and the browser reconnects from its last event.
TABLE_CLOCK = os.environ.get("TABLE_CLOCK") or ("external" if REDIS_URL else "in-process")
TABLE_CLOCK_INTERVAL = float(os.environ.get("TABLE_CLOCK_INTERVAL", "0.2"))
TABLE_STREAM_SECONDS = float(os.environ.get("TABLE_STREAM_SECONDS", "300"))
# Threads a process reads its streams' news in (game/tables/sse.py: stream_reads).
TABLE_STREAM_READ_THREADS = int(os.environ.get("TABLE_STREAM_READ_THREADS", "2"))
# Threads an ASGI (uvicorn) process serves every other request in (blackjack_site/asgi.py),
# each holding a database connection while it runs: with DATABASE_POOL_SIZE, keep the pool
# at least PAGE_THREADS + TABLE_STREAM_READ_THREADS + 2 (the threads the live streams open
# in, blackjack_site/asgi.py) so no request waits for a connection.
PAGE_THREADS = int(os.environ.get("PAGE_THREADS", "8"))
# Live streams a player may hold open at once, across every process (counted in the cache,
# each one expiring with its stream, so a crashed process cannot hold them for ever), and
# streams one process serves at once: under WSGI each holds a request thread, so keep
# TABLE_STREAMS_PER_WSGI_PROCESS below the server's threads per process; under ASGI a
# stream holds no thread. A stream refused by either cap is told to come back later
# (game/tables/sse.py): the page reconnects and catches up, nothing is lost.
TABLE_STREAMS_PER_PLAYER = int(os.environ.get("TABLE_STREAMS_PER_PLAYER", "4"))
TABLE_STREAMS_PER_PROCESS = int(os.environ.get("TABLE_STREAMS_PER_PROCESS", "1000"))
TABLE_STREAMS_PER_WSGI_PROCESS = int(os.environ.get("TABLE_STREAMS_PER_WSGI_PROCESS", "8"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "blackjack_site.passwords.MaximumLengthValidator"},
]

# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one account,
# or from one address, that account or address is refused for LOGIN_COOLOFF_MINUTES, with
# a page that says so (429). A right password resets the count. The admin's login is the
# same login. `manage.py axes_reset` lifts every lockout.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend with each request's user read from the cache
    # (blackjack_site/auth.py): kept USER_CACHE_SECONDS, dropped when the account is saved.
    # Only with a cache every worker shares (Redis) or in development (one process).
    "blackjack_site.auth.CachedModelBackend",
]
USER_CACHE_SECONDS = int(os.environ.get("USER_CACHE_SECONDS", "300")) if REDIS_URL or DEBUG else 0
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each counted on its own
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "blackjack_site.views.locked_out"
# Play now makes a guest account (blackjack_site/guests.py): at most this many per client
# address and hour, counted in the cache; past it the page says so (429).
GUESTS_PER_ADDRESS_PER_HOUR = int(os.environ.get("GUESTS_PER_ADDRESS_PER_HOUR", "20"))
# Accounts Sign up makes (a guest's own included) per client address and hour, counted the
# same way; past it the form says so (429).
SIGNUPS_PER_ADDRESS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_ADDRESS_PER_HOUR", "10"))

# Per-player limits, each refusal a page or a form error that says so (429): games in
# progress (ended ones do not count; New Game past it is refused) and open shared tables
# hosted (Create Table past it is refused).
GAMES_IN_PROGRESS_PER_PLAYER = int(os.environ.get("GAMES_IN_PROGRESS_PER_PLAYER", "20"))
TABLES_HOSTED_PER_PLAYER = int(os.environ.get("TABLES_HOSTED_PER_PLAYER", "3"))

# Content-Security-Policy (django-csp 4; Django 5.2 has none built in): this site's own
# files only. No inline script or style, no eval (htmx runs with allowEval off, see
# templates/base.html), no frames, no plugins, forms post only here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my_games"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In development (and tests) WhiteNoise serves straight from the app folders; production
# serves the collected, hashed and compressed copies in STATIC_ROOT.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security switches: on by default when DEBUG is off, each can be turned off for a
# server behind a TLS-terminating proxy that is tested over plain HTTP.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", False) else None
)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# One console handler, on root. Django's own "django" logger would otherwise keep its
# default console handler and propagate to root as well, printing every line twice.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django": {"handlers": [], "level": LOG_LEVEL, "propagate": True}},
}
