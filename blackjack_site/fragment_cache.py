"""A cache backend for rendered template fragments, kept in this process's memory as they are.

``{% cache %}`` keeps pieces of the tables (a row of chips, the turn's buttons, a seat)
keyed by everything they show, so an entry never goes stale and never needs to expire.
Django's LocMemCache would serve them too, but it pickles every value on the way in and
unpickles it on the way out, behind a lock: for a fragment of a few hundred bytes that
cost as much as rendering it. A rendered fragment is an immutable string, so this backend
keeps it in a dict as it is (a lookup under the GIL needs no lock of its own), as a plain
``str``: a ``SafeString``, like any instance of a ``str`` subclass, is tracked by the
cyclic garbage collector and a ``str`` is not, and the thousands of fragments a process
keeps for good would otherwise be walked by every full collection, which stalls every
request and stream of the process. ``{% cache %}`` puts what it gets back into its
template's output as it is (the output of a template node is never escaped again).

Timeouts are ignored: nothing here expires. When ``MAX_ENTRIES`` is reached the oldest
``1/CULL_FREQUENCY`` of the entries are dropped (insertion order), as LocMemCache culls.
Built on Django's documented ``BaseCache`` interface (a custom backend by its dotted path).
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache


def _untracked(value: Any) -> Any:
    """``value`` as a plain ``str`` when it is a string (joining one string of a subclass
    makes a new plain one, of an exact ``str`` gives it back), anything else as it is."""
    return "".join((value,)) if isinstance(value, str) else value


class RenderedFragmentCache(BaseCache):
    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        self._entries: dict[str, Any] = {}

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._entries.get(self.make_key(key, version=version), default)

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        if len(self._entries) >= self._max_entries:
            self._cull()
        self._entries[self.make_key(key, version=version)] = _untracked(value)

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        if self.has_key(key, version=version):
            return False
        self.set(key, value, timeout, version=version)
        return True

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self.has_key(key, version=version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._entries.pop(self.make_key(key, version=version), None) is not None

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self.make_key(key, version=version) in self._entries

    def clear(self) -> None:
        self._entries.clear()

    def _cull(self) -> None:
        if self._cull_frequency == 0:
            self._entries.clear()
            return
        oldest = list(self._entries)[: max(1, len(self._entries) // self._cull_frequency)]
        for key in oldest:
            self._entries.pop(key, None)
