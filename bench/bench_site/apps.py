from django.apps import AppConfig


class BenchSiteConfig(AppConfig):
    """The bench-only site: installs the query counter (query_counter.py) at start."""

    name = "bench_site"
    label = "bench_site"

    def ready(self) -> None:
        import os

        from bench_site import query_counter

        query_counter.install()
        if os.environ.get("BENCH_QUERY_DIR"):
            query_counter.keep_writing(os.environ["BENCH_QUERY_DIR"])
