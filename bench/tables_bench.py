"""Shared tables under load: simulated players at several tables on two app servers.

Run from the repository root:  .venv/bin/python bench/tables_bench.py [options]

What runs (all on 127.0.0.1, everything stopped by the script):

- a throwaway PostgreSQL database (``postgres://postgres@127.0.0.1:5432``, created and
  dropped) and Redis database 9 on 127.0.0.1:6379 (flushed first: cache, sessions, the
  live channel); without either the script says so and exits 0;
- **two** app servers, ``uvicorn blackjack_site.asgi:application --workers N`` each
  (``--workers``, default 1), with
  ``bench_site.settings`` (the project's settings plus the bench-only ``/bench/bare/``,
  DEBUG off), ``TABLE_CLOCK=external``, ``DATABASE_POOL_SIZE`` (README: psycopg's pool
  under ASGI), and ``manage.py table_clock`` beside them;
- ``--players`` players (default 50) at ``--tables`` tables (default 10): each table is
  public, ``players / tables`` seats, 10-second intermission, ``turn_seconds`` 10,
  **trivia mode off** (Hit deals a card at once: no question is asked). Users and their
  sessions are written to the database directly (as web_bench does); the players of one
  table alternate between the two servers.

Every player is one asyncio task speaking plain HTTP/1.1 (a new connection per request,
as bench/web_bench.py does; no HTTP client library is needed) plus one task reading its
table's Server-Sent Events stream ``/tables/<id>/events/`` on its own server. It sits
down (``sit``, seat=N, version=0: it never sat there), then plays from the newest copy of
its table it has received — the htmx answer to its last post or the stream's ``table``
event, whichever is newer by (the table's ``data-version``, the seat's hidden ``version``
in its controls): during betting ``chip`` (chip=10, version=<seat version>) then
``ready``; in its turn ``play`` = stand, or hit once a round at random (30 %); an
insurance / even-money offer declined. Every post carries the CSRF cookie and
``X-CSRFToken`` and ``HX-Request``.

Measured over ``--seconds`` (default 30) of play, after every stream has its first
snapshot:

- **actions/s**: posts answered 200 a second; p50/p95/p99 of the post's round trip;
- **refusals** (409 stale, 422 refused: expected when a stream's copy of the table lags
  the post's) apart from **errors** (any other status, a failed connection);
- **fan-out**: for each 200 answer to ready/play/offer (the actions that write table
  events), the table's version in the answer's ``data-version`` is the highest event id
  the action's events can have; the fan-out latency runs from the answer's arrival to the
  moment the last of the *other* seated players' streams at that table has delivered a
  ``log`` event with an id at least that (0 when every stream had it already);
- **baseline**: ``/bench/bare/`` (bench/bench_site/urls.py: the same middleware, one
  UPDATE, a tiny template), posted by the same players, same concurrency, same two
  servers, in a window of ``--bare-seconds / 2`` before and one after the play (no
  stream open then); its requests/s and latency, and the ratio actions/s ÷ bare
  requests/s.

Goals: p99 action < 150 ms, fan-out p99 < 300 ms, 0 errors, for players at a
pace (``--think 0.25``, still faster than people play; ``make bench`` runs it). Flat out
(the default) is the stress figure: the machine saturated, the bare view's own p99 there
is about twice the goal (bench/RESULTS.md). The script exits
0 when it measured (goals met or not: ``make bench`` goes on); ``--check`` makes missed
goals exit 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import resource
import socket
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from web_bench import postgres_answers, throwaway_postgres

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PYTHON = sys.executable
REDIS_URL = "redis://127.0.0.1:6379/9"
HOST = "127.0.0.1"
GOALS = {"action_p99_ms": 150.0, "fanout_p99_ms": 300.0, "errors": 0}
INTERMISSION_SECONDS = 10
TURN_SECONDS = 10
CHIP = "10"
MAX_BET = 50  # dollars: a bet grown to this is cleared at the next intermission
HIT_CHANCE = 0.3
# Actions whose 200 answer wrote table events (a chip changes only the player's seat).
EVENTFUL = {"ready", "play", "offer"}


# --------------------------------------------------------------------- environment


def site_env(database_url: str, pool_size: int = 0) -> dict[str, str]:
    dropped = {"DATABASE_URL", "DEBUG", "TEST_DATABASE_NAME", "DJANGO_SETTINGS_MODULE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env.update(
        # DEBUG is on while the project's settings are read (no SECRET_KEY needed);
        # bench_site.settings turns it off for the run.
        DEBUG="1",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="bench_site.settings",
        REDIS_URL=REDIS_URL,
        TABLE_CLOCK="external",
        DATABASE_POOL_SIZE=str(pool_size),
        PYTHONPATH=os.pathsep.join([str(BENCH), str(REPO)]),
        LOG_LEVEL="ERROR",
    )
    return env


def redis_answers() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return True
    except Exception:
        return False


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited ({process.returncode})")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answered on port {port} within {timeout:.0f} s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def with_workers(pid: int) -> list[int]:
    """A server's process and its worker processes (uvicorn --workers > 1 forks them)."""
    found = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid:
            found.append(int(stat.parent.name))
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU time spent busy by every core so far (/proc/stat: all but idle and iowait);
    PostgreSQL's backends come and go, so they are counted in this total."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(value) for value in fields[:8]]
    busy = sum(ticks) - ticks[3] - ticks[4]
    return busy / os.sysconf("SC_CLK_TCK")


def pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


# --------------------------------------------------------------------- child: the site


def child_prepare(players: int, tables: int) -> dict[str, Any]:
    """Migrate; the players (users with a session each) and the tables they will sit at."""
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.core.management import call_command
    from django.utils.crypto import get_random_string

    from game.tables import services

    call_command("migrate", verbosity=0)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    backend = next(p for p in settings.AUTHENTICATION_BACKENDS if p.endswith("ModelBackend"))
    per_table = math.ceil(players / tables)
    prepared, table_ids = [], []
    for number in range(players):
        user = get_user_model().objects.create_user(username=f"p{number}", password="x-pw-1234")
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = backend
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        if number % per_table == 0:
            table = services.create_table(
                host=user,
                name=f"Bench {number // per_table + 1}",
                public=True,
                seat_count=max(2, per_table),
                intermission_seconds=INTERMISSION_SECONDS,
                options={"trivia_mode": False, "turn_seconds": TURN_SECONDS},
            )
            table_ids.append(table.pk)
        prepared.append(
            {
                "name": user.username,
                "session": session.session_key,
                "csrf": get_random_string(32),
                "table": table_ids[-1],
                "seat": number % per_table + 1,
            }
        )
    return {"players": prepared, "tables": table_ids}


def run_prepare(database_url: str, players: int, tables: int) -> dict[str, Any]:
    result = subprocess.run(  # noqa: S603 - our own script
        [
            PYTHON,
            str(Path(__file__).resolve()),
            "--child",
            "--players",
            str(players),
            "--tables",
            str(tables),
        ],
        cwd=REPO,
        env=site_env(database_url),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        raise RuntimeError(f"prepare failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------- plain HTTP/1.1


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            key, value = line.split(":", 1)
            headers[key.strip().lower()] = value.strip()
    return status, headers


async def _chunks(reader: asyncio.StreamReader, headers: dict[str, str]):
    """The body's pieces as they arrive (chunked, sized or until the connection ends)."""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return
            data = await reader.readexactly(size + 2)
            yield data[:-2]
    elif "content-length" in headers:
        yield await reader.readexactly(int(headers["content-length"]))
    else:
        while data := await reader.read(65536):
            yield data


async def request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
        lines += [f"{key}: {value}" for key, value in headers.items()]
        if method == "POST":
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        status, response_headers = await _read_head(reader)
        parts = [part async for part in _chunks(reader, response_headers)]
        return status, b"".join(parts).decode("utf-8", "replace")
    finally:
        writer.close()


# --------------------------------------------------------------------- players

TABLE_VERSION = re.compile(r'data-version="(\d+)"')
SEAT_VERSION = re.compile(r'name="version" value="(\d+)"')
# The seat's controls: the host's own forms before them post the table's version.
CONTROLS = 'aria-label="Your controls"'
PLAY_VALUES = re.compile(r'name="play" value="([a-z_]+)"')
OFFER_VALUES = re.compile(r'name="answer" value="([a-z_]+:decline)"')
NOTICE = re.compile(r'class="table-notice" role="alert">([^<]*)<')
MY_BET = re.compile(r'data-testid="my-bet">([^<]*)<')


def seat_version(html: str) -> re.Match[str] | None:
    """The seat's version as its controls post it (None: no controls shown)."""
    start = html.find(CONTROLS)
    return None if start < 0 else SEAT_VERSION.search(html, start)


def html_key(html: str) -> tuple[int, int]:
    table = TABLE_VERSION.search(html)
    seat = seat_version(html)
    return (int(table.group(1)) if table else -1, int(seat.group(1)) if seat else -1)


@dataclass
class Fanout:
    version: int
    answered: float
    waiting: set[int]
    last: float = 0.0


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    fanouts: list[float] = field(default_factory=list)
    fanout_zero: int = 0
    unexpected: Counter = field(default_factory=Counter)
    reconnects: int = 0
    stream_messages: Counter = field(default_factory=Counter)


class Player:
    def __init__(
        self, index: int, prepared: dict[str, Any], port: int, run: Run, think: float = 0.0
    ) -> None:
        self.index = index
        # Seconds a player takes to decide (0: flat out): each new look at the table
        # (a new version of it or of the seat) waits 0.5-1.5 times this before deciding.
        self.think = think
        self.pondered: tuple[int, int] | None = None
        self.name = prepared["name"]
        self.table = prepared["table"]
        self.seat = prepared["seat"]
        self.csrf = prepared["csrf"]
        self.port = port
        self.run = run
        self.headers = {
            "Cookie": f"sessionid={prepared['session']}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
        }
        self.html = ""
        self.key = (-1, -1)
        self.changed = asyncio.Event()
        self.level = -1  # the highest event id this player's stream has delivered
        self.snapshot = asyncio.Event()
        self.last_event_id: str | None = None
        self.rng = random.Random(index)
        self.hit_this_round = False
        self.chipped = False  # this intermission's chip posted

    # the newest copy of the table wins
    def offer_html(self, html: str) -> None:
        key = html_key(html)
        if key >= self.key:
            self.key, self.html = key, html
            self.changed.set()

    async def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        return await request(self.port, "POST", path, self.headers, urlencode(data).encode())

    # the stream
    async def read_stream(self) -> None:
        while True:
            headers = {**self.headers, "Accept": "text/event-stream"}
            headers.pop("HX-Request")
            if self.last_event_id is not None:
                headers["Last-Event-ID"] = self.last_event_id
            try:
                await self._read_stream_once(headers)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.run.stats.errors[f"stream: {type(error).__name__}"] += 1
                await asyncio.sleep(0.5)
            self.run.stats.reconnects += 1

    async def _read_stream_once(self, headers: dict[str, str]) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            lines = [f"GET /tables/{self.table}/events/ HTTP/1.1", f"Host: {HOST}:{self.port}"]
            lines += [f"{key}: {value}" for key, value in headers.items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            status, response_headers = await _read_head(reader)
            if status != 200:
                self.run.stats.errors[f"stream: HTTP {status}"] += 1
                await asyncio.sleep(0.5)
                return
            buffer = ""
            async for data in _chunks(reader, response_headers):
                buffer += data.decode("utf-8")
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    self._on_block(block)
        finally:
            writer.close()

    def _on_block(self, block: str) -> None:
        kind, data, event_id = "message", [], None
        for line in block.split("\n"):
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[6:] if line.startswith("data: ") else line[5:])
            elif line.startswith("id:"):
                event_id = line[3:].strip()
        if event_id is not None:
            self.last_event_id = event_id
        if self.run.measuring:
            self.run.stats.stream_messages[kind] += 1
        if kind == "log" and event_id is not None:
            self.run.delivered(self, int(event_id))
        elif kind == "table":
            if not self.snapshot.is_set() and event_id is not None:
                # The first snapshot shows every event up to its id.
                self.run.delivered(self, int(event_id))
                self.snapshot.set()
            self.offer_html("\n".join(data))

    # playing
    def decide(self) -> tuple[str, dict[str, str]] | None:
        html = self.html
        if not html:
            return None
        version = seat_version(html)
        if 'data-phase="round"' in html:
            self.chipped = False
        plays = PLAY_VALUES.findall(html)
        if plays and version:
            choice = "stand"
            if "hit" in plays and not self.hit_this_round and self.rng.random() < HIT_CHANCE:
                choice = "hit"
                self.hit_this_round = True
            return "play", {"play": choice, "version": version.group(1)}
        offers = OFFER_VALUES.findall(html)
        if offers and version and "/offer/" in html:
            return "offer", {"answer": offers[0], "version": version.group(1)}
        bet = MY_BET.search(html)
        if bet and version and "/ready/" in html:
            self.hit_this_round = False
            dollars = float(re.sub(r"[^0-9.]", "", bet.group(1)) or 0)
            if not self.chipped:
                # One chip each intermission; a bet that grew to MAX_BET is cleared first.
                if dollars >= MAX_BET:
                    return "clear", {"version": version.group(1)}
                self.chipped = True
                return "chip", {"chip": CHIP, "version": version.group(1)}
            return "ready", {"version": version.group(1)}
        if "/difficulty/" in html or "/answer/" in html:
            self.run.stats.unexpected["a trivia form (trivia is off)"] += 1
        return None

    async def play(self, until: float) -> None:
        last_posted = None
        stats = self.run.stats
        while time.monotonic() < until:
            if self.think and self.html and self.key != self.pondered:
                # A new look at the table: the player takes a moment, then decides on the
                # table as it is by then.
                self.pondered = self.key
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                continue
            decision = self.decide()
            posted = None if decision is None else (decision[0], self.key)
            if decision is None or posted == last_posted:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), min(1.0, until - time.monotonic()))
                continue
            last_posted = posted
            action, data = decision
            path = f"/tables/{self.table}/{action}/"
            started = time.perf_counter()
            try:
                status, body = await self.post(path, data)
            except Exception as error:
                stats.errors[f"{action}: {type(error).__name__}"] += 1
                await asyncio.sleep(0.2)
                continue
            answered = time.perf_counter()
            label = f"{action} {data['play']}" if action == "play" else action
            if action == "ready" and status == 200 and 'data-phase="intermission"' not in body:
                label = "ready, dealt"  # the last Ready: the round was dealt in its post
            notice = NOTICE.search(body) if status != 200 else None
            reason = f" ({notice.group(1)})" if notice else ""
            stats.statuses[(label + reason, status)] += 1
            if status == 200:
                stats.latencies[label].append(answered - started)
                self.offer_html(body)
                if action in EVENTFUL:
                    self.run.watch_fanout(self, html_key(body)[0], answered)
            elif status in (409, 422):
                stats.latencies["refused"].append(answered - started)
                self.offer_html(body)
            else:
                stats.errors[f"{action}: HTTP {status}"] += 1
                await asyncio.sleep(0.2)

    async def bare(self, until: float, latencies: list[float], errors: Counter) -> None:
        while time.monotonic() < until:
            started = time.perf_counter()
            try:
                status, _ = await self.post("/bench/bare/", {})
            except Exception as error:
                errors[type(error).__name__] += 1
                await asyncio.sleep(0.2)
                continue
            if status == 200:
                latencies.append(time.perf_counter() - started)
            else:
                errors[f"HTTP {status}"] += 1


class Run:
    def __init__(self) -> None:
        self.stats = Stats()
        self.by_table: dict[int, list[Player]] = defaultdict(list)
        self.pending: dict[int, list[Fanout]] = defaultdict(list)
        self.measuring = False

    def delivered(self, player: Player, event_id: int) -> None:
        if event_id <= player.level:
            return
        player.level = event_id
        now = time.perf_counter()
        pending = self.pending.get(player.table)
        if not pending:
            return
        for fanout in list(pending):
            if fanout.version <= event_id and player.index in fanout.waiting:
                fanout.waiting.discard(player.index)
                fanout.last = now
                if not fanout.waiting:
                    self.stats.fanouts.append(max(0.0, fanout.last - fanout.answered))
                    pending.remove(fanout)

    def watch_fanout(self, actor: Player, version: int, answered: float) -> None:
        if not self.measuring or version < 0:
            return
        waiting = {
            p.index for p in self.by_table[actor.table] if p is not actor and p.level < version
        }
        if not waiting:
            self.stats.fanouts.append(0.0)
            self.stats.fanout_zero += 1
            return
        self.pending[actor.table].append(Fanout(version, answered, waiting))

    def unfinished_fanouts(self) -> int:
        return sum(len(pending) for pending in self.pending.values())


async def bare_window(players: list[Player], seconds: float) -> tuple[list[float], Counter, float]:
    latencies: list[float] = []
    errors: Counter = Counter()
    started = time.monotonic()
    until = started + seconds
    await asyncio.gather(*(player.bare(until, latencies, errors) for player in players))
    return latencies, errors, time.monotonic() - started


async def load(
    prepared: dict[str, Any], ports: list[int], args: argparse.Namespace, cpu: CpuWatch
) -> dict[str, Any]:
    run = Run()
    players = [
        Player(index, entry, ports[index % len(ports)], run, args.think)
        for index, entry in enumerate(prepared["players"])
    ]
    for player in players:
        run.by_table[player.table].append(player)
    half = args.bare_seconds / 2
    cpu.mark("bare 1")
    bare_latencies, bare_errors, bare_elapsed = await bare_window(players, half)
    cpu.mark("bare 1 end")

    # Sit down (not measured), then open every stream and wait for its first snapshot.
    for player in players:
        status, body = await player.post(
            f"/tables/{player.table}/sit/", {"seat": player.seat, "version": "0"}
        )
        if status != 200:
            raise RuntimeError(f"{player.name} could not sit: HTTP {status}\n{body[:500]}")
        player.offer_html(body)
    streams = [asyncio.create_task(player.read_stream()) for player in players]
    try:
        return await _play(
            run, players, streams, args, cpu, bare_latencies, bare_errors, bare_elapsed
        )
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)


async def _play(run, players, streams, args, cpu, bare_latencies, bare_errors, bare_elapsed):
    waited = time.monotonic()
    while not all(p.snapshot.is_set() for p in players) and time.monotonic() < waited + 30:
        await asyncio.sleep(0.1)
    missing = sum(not p.snapshot.is_set() for p in players)
    startup_errors = run.stats.errors
    run.stats = Stats()
    if missing:
        run.stats.errors[f"stream: no first snapshot within 30 s ({missing} players)"] = missing
    run.stats.errors.update({f"before play: {k}": v for k, v in startup_errors.items()})

    run.measuring = True
    cpu.mark("play")
    started = time.monotonic()
    until = started + args.seconds
    await asyncio.gather(*(player.play(until) for player in players))
    play_elapsed = time.monotonic() - started
    cpu.mark("play end")
    run.measuring = False
    drain_until = time.monotonic() + 3
    while run.unfinished_fanouts() and time.monotonic() < drain_until:
        await asyncio.sleep(0.05)
    unfinished = run.unfinished_fanouts()
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)

    half = args.bare_seconds / 2
    cpu.mark("bare 2")
    more_latencies, more_errors, more_elapsed = await bare_window(players, half)
    cpu.mark("bare 2 end")
    bare_latencies += more_latencies
    bare_errors += more_errors
    return {
        "run": run,
        "play_elapsed": play_elapsed,
        "unfinished_fanouts": unfinished,
        "bare_latencies": bare_latencies,
        "bare_errors": bare_errors,
        "bare_elapsed": bare_elapsed + more_elapsed,
    }


class CpuWatch:
    """CPU seconds of the processes that matter, at named marks."""

    def __init__(self, processes: dict[str, list[int] | Callable[[], list[int]]]) -> None:
        self.processes = processes
        self.marks: dict[str, dict[str, float]] = {}

    def mark(self, name: str) -> None:
        reading = {
            # A callable names the processes anew at each mark (uvicorn's workers).
            label: sum(cpu_seconds(pid) for pid in (pids() if callable(pids) else pids))
            for label, pids in self.processes.items()
        }
        usage = resource.getrusage(resource.RUSAGE_SELF)
        reading["load client (this process)"] = usage.ru_utime + usage.ru_stime
        reading["whole machine"] = machine_busy_seconds()
        self.marks[name] = reading

    def between(self, first: str, second: str) -> dict[str, float]:
        return {key: self.marks[second][key] - self.marks[first][key] for key in self.marks[first]}


# --------------------------------------------------------------------- report


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def ms(values: list[float]) -> str:
    return "p50 {:.1f} / p95 {:.1f} / p99 {:.1f} ms".format(
        *(1000 * percentile(values, share) for share in (0.5, 0.95, 0.99))
    )


def event_counts(database_url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(database_url) as connection:
        rows = connection.execute(
            "SELECT kind, count(*) FROM game_tableevent GROUP BY kind ORDER BY kind"
        ).fetchall()
        rounds = connection.execute("SELECT sum(round_number) FROM game_sharedtable").fetchone()
    counts = dict(rows)
    counts["(rounds dealt)"] = int(rounds[0] or 0)
    return counts


def report(args: argparse.Namespace, result: dict[str, Any], watch: CpuWatch) -> bool:
    run: Run = result["run"]
    stats = run.stats
    seconds = result["play_elapsed"]
    done = [
        value for label, values in stats.latencies.items() if label != "refused" for value in values
    ]
    refused = sum(count for (_, status), count in stats.statuses.items() if status in (409, 422))
    errors = sum(stats.errors.values())
    bare = result["bare_latencies"]
    bare_rate = len(bare) / result["bare_elapsed"]
    rate = len(done) / seconds
    print(
        f"play: {args.players} players at {args.tables} tables on 2 uvicorn servers "
        f"({args.workers} worker(s) each, DATABASE_POOL_SIZE={args.pool_size}) + table_clock, "
        "PostgreSQL, "
        f"Redis; {seconds:.1f} s; trivia off, think "
        f"{f'{args.think:g} s (0.5-1.5x)' if args.think else '0 (flat out)'}, "
        f"intermission {INTERMISSION_SECONDS} s, turn {TURN_SECONDS} s"
    )
    print(f"  actions: {len(done)} answered 200 = {rate:.1f} actions/s; {ms(done)}")
    for label, values in sorted(stats.latencies.items()):
        print(f"    {label:13} n={len(values):5}  {ms(values)}")
    by_status = ", ".join(
        f"{label} {status}: {count}"
        for (label, status), count in sorted(stats.statuses.items())
        if status != 200
    )
    print(f"  refused (409/422, expected): {refused}{' (' + by_status + ')' if by_status else ''}")
    print(
        f"  errors: {errors}"
        + (f" ({', '.join(f'{k}: {v}' for k, v in stats.errors.items())})" if errors else "")
    )
    if stats.unexpected:
        print(f"  unexpected: {dict(stats.unexpected)}")
    print(
        f"  fan-out to every other seat's stream: n={len(stats.fanouts)} "
        f"({stats.fanout_zero} already delivered when the answer came), {ms(stats.fanouts)}; "
        f"unfinished after 3 s: {result['unfinished_fanouts']}; stream reconnects: "
        f"{stats.reconnects}"
    )
    print(
        f"baseline /bench/bare/: {len(bare)} in {result['bare_elapsed']:.1f} s = "
        f"{bare_rate:.1f} requests/s; {ms(bare)}; errors {sum(result['bare_errors'].values())}"
    )
    ratio = rate / bare_rate if bare_rate else 0.0
    print(f"ratio actions/s / bare requests/s: {ratio:.2f}")
    cpu = watch.between("play", "play end")
    print(
        "CPU seconds during play: "
        + ", ".join(f"{label} {value:.1f}" for label, value in cpu.items())
        + f" (of {2 * seconds:.0f} core-seconds)"
    )
    bare_cpu = sum(
        watch.between(start, f"{start} end")[server]
        for start in ("bare 1", "bare 2")
        for server in ("server 1", "server 2")
    )
    play_cpu = cpu["server 1"] + cpu["server 2"]
    messages = dict(stats.stream_messages)
    print(
        f"app servers' CPU: {1000 * play_cpu / max(1, len(done)):.1f} ms an action (its post "
        f"and the streams' re-reads and renders it causes: {messages} stream messages), "
        f"{1000 * bare_cpu / max(1, len(bare)):.1f} ms a bare request"
    )
    action_p99 = 1000 * percentile(done, 0.99)
    fanout_p99 = 1000 * percentile(stats.fanouts, 0.99)
    met = (
        action_p99 < GOALS["action_p99_ms"]
        and fanout_p99 < GOALS["fanout_p99_ms"]
        and errors == 0
        and result["unfinished_fanouts"] == 0
    )
    print(
        f"goals: p99 action {action_p99:.0f} ms (< {GOALS['action_p99_ms']:.0f}), fan-out p99 "
        f"{fanout_p99:.0f} ms (< {GOALS['fanout_p99_ms']:.0f}), errors {errors} (0): "
        f"{'met' if met else 'NOT met'}"
    )
    return met


# --------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the play")
    parser.add_argument(
        "--bare-seconds", type=float, default=10.0, help="baseline, half before and half after"
    )
    parser.add_argument(
        "--pool-size",
        type=int,
        default=20,
        help="DATABASE_POOL_SIZE of each server (the README's 20; a stream holds one only "
        "while it reads)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="uvicorn worker processes of each app server"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player takes to decide, on average (0: act at once, flat out)",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child_prepare(args.players, args.tables)))
        return 0
    if not 2 <= math.ceil(args.players / args.tables) <= 7:
        parser.error("players / tables must come to 2-7 seats a table")
    if not postgres_answers():
        print("PostgreSQL does not answer on 127.0.0.1:5432: skipped.")
        return 0
    if not redis_answers():
        print(f"Redis does not answer at {REDIS_URL}: skipped.")
        return 0
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"cores: {os.cpu_count()}; load average before: {load_average}")
    flush_redis()
    with throwaway_postgres(f"tables_bench_{os.getpid()}") as url:
        prepared = run_prepare(url, args.players, args.tables)
        env = site_env(url, args.pool_size)
        ports = [free_port(), free_port()]
        processes: list[subprocess.Popen] = []
        try:
            clock = subprocess.Popen(  # noqa: S603 - fixed argv
                [PYTHON, "manage.py", "table_clock", "--verbosity", "0"], cwd=REPO, env=env
            )
            processes.append(clock)
            for port in ports:
                server = subprocess.Popen(  # noqa: S603 - fixed argv
                    [
                        *(PYTHON, "-m", "uvicorn", "blackjack_site.asgi:application"),
                        *("--host", HOST, "--port", str(port), "--workers", str(args.workers)),
                        *("--log-level", "warning", "--no-access-log"),
                    ],
                    cwd=REPO,
                    env=env,
                )
                processes.append(server)
            for port, server in zip(ports, processes[1:], strict=True):
                wait_for_port(port, server)
            cpu = CpuWatch(
                {
                    "server 1": lambda: with_workers(processes[1].pid),
                    "server 2": lambda: with_workers(processes[2].pid),
                    "clock": [clock.pid],
                    "redis": pids_named("redis-server"),
                }
            )
            try:
                import uvloop

                loop = uvloop.new_event_loop()
            except ImportError:
                loop = asyncio.new_event_loop()
            try:
                result = loop.run_until_complete(load(prepared, ports, args, cpu))
            finally:
                loop.close()
            counts = event_counts(url)
        finally:
            for process in reversed(processes):
                stop(process)
    met = report(args, result, cpu)
    print(f"table events written: {counts}")
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average after: {load_average}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
