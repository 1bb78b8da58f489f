"""What every layer of the game stands on, below the services: the domain errors and the
HTTP status each maps to (errors.py), the injected clock (clock.py), the hand-written SQL
of a game's read and save (sql.py), one-time form keys (once_keys.py), the typed requests
of the views (http.py), the URL converters and the URL cache (converters.py,
url_cache.py), and how a lost Redis is noticed (outage.py). None imports a layer above it.
"""
