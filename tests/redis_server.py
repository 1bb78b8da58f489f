"""A redis-server of a test's own, on a free port, that the test may stop and start again.

Never the machine's shared Redis (6379): other runs use it, and an outage test stops its
server. ``stop()`` drops what the server held, as a cache restarted without persistence
does; ``stop(keep_data=True)`` saves it to the server's directory first, so the next
``start()`` has it back, as after a network cut or a restart with persistence.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

START_SECONDS = 5.0

# How long the cache goes without trying a Redis it found down (production: 5 s).
OUTAGE_RETRY_SECONDS = 0.1


def redis_server_binary() -> str:
    """The redis-server to run; a failure under CI=true (its tools are installed there),
    else a skip, when there is none."""
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        message = "no redis-server binary"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    return found


_ports_used: set[int] = set()


def free_port() -> int:
    """A free port no earlier server of this test run had: what the process remembers of
    a Redis (the cache's and the live channel's outage state) is kept by its address."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port not in _ports_used:
            _ports_used.add(port)
            return port


class PrivateRedis:
    """One redis-server process at a time on one port, in ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.binary = redis_server_binary()
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=2)

    def start(self) -> None:
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_SECONDS
        while not self.answers():
            assert self.process.poll() is None, "redis-server exited at start"
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.01)

    def stop(self, *, keep_data: bool = False) -> None:
        if self.process is None:
            return
        if keep_data:
            client = self.client()
            try:
                client.save()
            finally:
                client.close()
        else:
            (self.directory / "dump.rdb").unlink(missing_ok=True)
        self.process.terminate()  # without --save, nothing is written on the way out
        self.process.wait(START_SECONDS)
        self.process = None

    def answers(self) -> bool:
        import redis

        client = self.client()
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()
