from django.apps import AppConfig


class BenchSiteConfig(AppConfig):
    """The bench-only site: installs the query counter (query_counter.py) at start."""

    name = "bench_site"
    label = "bench_site"

    def ready(self) -> None:
        from bench_site import query_counter

        query_counter.install()
