import gc
import os
import sys

from django.apps import AppConfig


class BenchSiteConfig(AppConfig):
    """The bench-only site: installs the query counter (query_counter.py) at start, and
    applies the diagnosis settings the bench's environment asks for (tables_bench.py's
    docstring)."""

    name = "bench_site"
    label = "bench_site"

    def ready(self) -> None:
        from bench_site import query_counter

        query_counter.install()
        if os.environ.get("BENCH_QUERY_DIR"):
            query_counter.keep_writing(os.environ["BENCH_QUERY_DIR"])
        if os.environ.get("BENCH_GC_THRESHOLD"):
            gc.set_threshold(*map(int, os.environ["BENCH_GC_THRESHOLD"].split(",")))
        if os.environ.get("BENCH_SWITCH_INTERVAL"):
            sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))
        if os.environ.get("BENCH_CENSUS_DIR"):
            query_counter.keep_taking_census(os.environ["BENCH_CENSUS_DIR"])
