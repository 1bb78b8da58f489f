"""blackjack_site/fragment_cache.py: rendered fragments kept as they are, in the process's
memory, as Django's cache API says (get, set, add, delete, has_key, touch, clear), the
oldest dropped when it is full."""

from __future__ import annotations

import gc

from django.core.cache import caches
from django.template import engines
from django.utils.safestring import mark_safe

from blackjack_site.fragment_cache import RenderedFragmentCache


def _cache(max_entries: int = 300, cull_frequency: int = 3) -> RenderedFragmentCache:
    return RenderedFragmentCache(
        "test", {"OPTIONS": {"MAX_ENTRIES": max_entries, "CULL_FREQUENCY": cull_frequency}}
    )


def test_a_fragment_is_kept_as_a_plain_string_the_collector_does_not_walk() -> None:
    cache = _cache()
    fragment = mark_safe("<p>Ace of Spades</p>")  # noqa: S308 - a literal
    assert gc.is_tracked(fragment)
    cache.set("card", fragment)
    kept = cache.get("card")
    assert kept == "<p>Ace of Spades</p>" and type(kept) is str and not gc.is_tracked(kept)
    assert cache.get("card") is kept  # not copied on the way out


def test_a_plain_string_is_kept_as_the_same_object() -> None:
    cache = _cache()
    text = "".join(["<p>", "Two of Hearts", "</p>"])
    cache.set("card", text)
    assert cache.get("card") is text


def test_the_cache_api_answers_as_django_documents() -> None:
    cache = _cache()
    assert cache.get("missing", "default") == "default"
    assert cache.add("key", "first") and not cache.add("key", "second")
    assert cache.get("key") == "first" and cache.has_key("key") and cache.touch("key")
    assert cache.delete("key") and not cache.delete("key") and not cache.touch("key")
    cache.set("a", 1, version=2)
    assert cache.get("a") is None and cache.get("a", version=2) == 1
    cache.clear()
    assert cache.get("a", version=2) is None


def test_a_full_cache_drops_its_oldest_entries() -> None:
    cache = _cache(max_entries=6, cull_frequency=3)
    for number in range(6):
        cache.set(f"k{number}", number)
    cache.set("newest", "n")
    assert cache.get("k0") is None and cache.get("k1") is None
    assert [cache.get(f"k{n}") for n in range(2, 6)] == [2, 3, 4, 5]
    assert cache.get("newest") == "n"


def test_cache_tags_render_through_it() -> None:
    fragments = caches["template_fragments"]
    assert isinstance(fragments, RenderedFragmentCache)
    fragments.clear()
    template = engines["django"].from_string(
        "{% load cache %}{% cache None probe value %}<b>{{ value }}</b>{% endcache %}"
    )
    assert template.render({"value": "x"}) == "<b>x</b>"
    assert template.render({"value": "y"}) == "<b>y</b>"  # keyed by what it shows
    # Served from the cache, as a plain string, and still not escaped.
    assert template.render({"value": "x"}) == "<b>x</b>"
