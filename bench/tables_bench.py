"""Shared tables under load: players and watchers at many tables on two app servers.

Run from the repository root:  .venv/bin/python bench/tables_bench.py [options]
(the defaults: ``--players 500 --tables 100 --watchers 100 --seconds 180``, two workers a
server, routed by table, tables filling over 60 s; the 2x mode is ``--players 1000
--tables 200 --watchers 200``; a smoke run ``--players 50 --tables 10 --watchers 10
--seconds 40 --idle-seconds 5 --arrive-seconds 5``).

What runs (all on 127.0.0.1, everything stopped by the script):

- a throwaway PostgreSQL database (``postgres://postgres@127.0.0.1:5432``, created and
  dropped) and Redis database 9 on 127.0.0.1:6379 (flushed first: cache, sessions, the
  live channel); without either the script says so and exits 0;
- **two** app servers, ``uvicorn blackjack_site.asgi:application --workers N`` each
  (``--workers``, default 2; ``--pool-size`` 10 each), with ``bench_site.settings``
  (the project's settings plus the bench-only ``/bench/bare/`` and ``/bench/queries/``,
  DEBUG off), ``TABLE_CLOCK=external``, ``DATABASE_POOL_SIZE`` (README: psycopg's pool
  under ASGI), and ``manage.py table_clock`` beside them; the soft open-files limit is
  raised to the hard one first (the servers inherit it);
- ``--players`` players (default 500) at ``--tables`` tables (default 100): each table is
  public, ``players / tables`` seats, 15-second intermission, ``turn_seconds`` 30,
  **trivia mode on** (Hit and Double Down ask a question: the default question bank is
  loaded, ``manage.py load_default_questions``); ``--watchers`` (default one a table)
  logged-in users who never sit: each loads its table's page once and keeps its stream
  open. Users and sessions are written to the database directly (as web_bench does);
  each table's viewers all talk to one server, the tables alternating (``--route table``,
  the default: what a balancer routing ``/tables/<id>/`` by the id gives, docs/deploy.md
  "Growing past one machine"), or players and watchers alternate between the two servers
  (``--route viewer``: every table has viewers on both, and each action's scene is built
  in both).

Every player and watcher is an asyncio task of this one process speaking plain HTTP/1.1
(a new connection per request, as bench/web_bench.py does; no HTTP client library) plus
one task reading its table's Server-Sent Events stream ``/tables/<id>/events/`` on its own
server (reconnecting at once when it ends, from its Last-Event-ID; after a ``busy``
refusal, after its ``retry:``, as a browser does). A player sits down (``sit``, seat=N,
version=0), then plays from the newest copy of its table it has received -- the htmx answer
to its last post or the stream's ``table`` event, whichever is newer by (the table's
``data-version``, the seat's hidden ``version`` in its controls): during betting ``chip``
(chip=10) then ``ready``; in its turn ``play`` = stand, or, in half the rounds, hit once:
then ``difficulty`` (one of the offered, at random) and ``answer`` (one of the offered
answers, at random); an insurance / even-money offer declined. Every post carries the CSRF
cookie, ``X-CSRFToken`` and ``HX-Request``.

Pace: a player decides ``--think-min``..``--think-max`` seconds (uniform, default 3-10 s)
after its screen first shows a choice (a seat version and an action: a question's answer
is a choice of its own), then acts on the table as it is by then; Ready after its own
chip (or a chip after Clear) is a second click on the same screen: 0.3-1 s.
``--think T`` is the former mean pace (0.5-1.5 x T); ``--think 0`` is flat out, the
stress figure.

The run, in order:

1. a warm-up (a few bare posts and table pages a server, not measured), then the
   **baseline** ``/bench/bare/`` (bench/bench_site/urls.py: the same middleware and
   login, one UPDATE, a tiny template), posted by the players at their pace (each first
   post anywhere in a first think; or flat out), for ``--bare-seconds / 2`` (no stream
   open); the watchers load their page (its latency is reported);
2. **RSS (a)**: the sum of each server's process tree's VmRSS, warm, no stream open;
   every stream is opened (spread over ``--open-seconds``, default 3: a stream ends
   TABLE_STREAM_SECONDS after it opened, a tenth less at random) and has its first
   snapshot; **RSS (b)**; memory per open stream = (b - a) / streams;
3. **idle window** (``--idle-seconds``, default 10): nobody acts. Stream queries are the
   queries run in the servers' ``table-stream-read…`` threads (game/tables/sse.py),
   counted by bench_site/query_counter.py in each worker process of both servers (each
   writes its counts to a file of its own, read before and after; the clock process's are
   not counted); every other query is a *request*
   query. The players have not sat yet, so no table has a clock running (a seated player
   who does not bet would reopen the betting at each intermission's end, an event).
   Reported: stream queries, per stream per second, and alongside, the table events
   written meanwhile (expected: none) and the streams' reconnects (their reads count).
   The goal, 0: a stream costs no query when nothing changed at its table; then the
   players sit;
4. **arrival** (``--arrive-seconds``, default 60): the tables fill one after another, each
   at a random moment of the window (its players within 3 s), and every player plays from
   the moment it sits; the play is measured from 5 s after the window (its errors are
   counted from the start). A hundred tables opening their betting in the same second is
   no evening anyone sees, and it keeps the tables' rounds in step for minutes: with
   ``--arrive-seconds 0`` every player sits at once and the play is measured from there
   (the burst figure);
5. **play** (``--seconds``, default 180, at most 300). Reported:
   - per action (chip, clear, ready, ``ready, dealt`` -- the last Ready, which deals --,
     play hit / stand, difficulty, answer, offer) p50/p95/p99 of the post's round trip,
     and all of them together: **actions**;
   - **refusals** (409 stale, 422 refused: a player's copy of the table can lag, a human
     pace outlasts the betting) apart from **errors** (any other status, a failed
     connection or stream, a stream's missing first snapshot);
   - **fan-out**: for each 200 answer to ready/play/offer/difficulty/answer (the actions
     that write table events) the answer's ``data-version`` is the highest event id its
     events can have; the fan-out latency runs from the answer's arrival to the moment
     the last of the *other* viewers' streams at that table (players and watchers) has
     delivered a ``log`` event with an id at least that (0 when all had it already);
   - **streams**: reconnects, ``busy`` refusals, outages (from a stream's end to the
     first message of the next), and streams **lost for good**: down for more than 10 s
     at the end (each down stream is given until 10 s after its drop);
   - **queries per event per viewer**: stream queries in the play window / the sum over
     tables of (table events written there in the window, from the database) x (streams
     open at that table); chips write no event but wake the streams too, so their re-reads
     are in the numerator;
   - **CPU**: seconds of each server (its process tree), the clock, Redis, this process
     (the load generator's share of the 2 cores) and the whole machine; servers + clock +
     Redis per round dealt (``round_dealt`` events written in the window);
   - **the collector**: each worker's garbage collections (count, seconds, the longest,
     by generation), and the slowest 1 % of the actions lined up with their server's
     collector pauses of 20 ms or more (each with its wall-clock start): how many
     overlapped one, and the share of their time the overlaps make (a lower bound of
     what the pauses cost them: a request queued behind a pause finishes late after it);
6. the streams closed, 5 s for the servers to finish what they had queued, the
   baseline's second half (each half is reported too); **ratios** action p50 / bare p50
   and action p99 / bare p99 over both halves.

Goals, checked and printed: p99 action < 150 ms, fan-out p99 < 300 ms, 0 errors (and no
fan-out unfinished 3 s after the play), < 100 KB per open stream, 0 stream queries in the
idle window. The script exits 0 when it measured (goals met or not: ``make bench`` goes
on); ``--check`` makes a missed goal exit 1. ``--json FILE`` writes every figure there.

Diagnosis, through the servers' environment: ``BENCH_CENSUS_DIR=<dir>`` makes each worker
write what its collector tracks (objects by generation, frozen, the commonest types of the
oldest) to ``<dir>/<pid>.census.json`` every 30 s (it stalls the worker while counting);
``BENCH_GC_THRESHOLD=700,10,10`` and ``BENCH_SWITCH_INTERVAL=0.005`` set the workers'
collector thresholds and the interpreter's thread switch interval
(bench/bench_site/apps.py), to measure other settings than the site's.
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
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from web_bench import postgres_answers, throwaway_postgres

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PYTHON = sys.executable
REDIS_URL = "redis://127.0.0.1:6379/9"
# Where the servers' processes write their query counts (bench_site/query_counter.py).
QUERY_DIR = Path(tempfile.gettempdir()) / f"tables-bench-queries-{os.getpid()}"
FILE_SECONDS = 0.2  # query_counter.FILE_SECONDS
PAUSES_EVERY = 10  # query_counter.PAUSES_EVERY
LONG_PAUSE_MS = 20  # query_counter.LONG_PAUSE_SECONDS
HOST = "127.0.0.1"
# Each goal's limit; 0: the figure must be 0.
GOALS = {
    "action p99 ms": 150.0,
    "fan-out p99 ms": 300.0,
    "errors + unfinished fan-outs": 0.0,
    "KB per open stream": 100.0,
    "stream queries while idle": 0.0,
}
# Intermission and turn long enough for a player at human pace (3-10 s a decision; a Hit
# asks for a difficulty and an answer in the same turn).
INTERMISSION_SECONDS = 15
TURN_SECONDS = 30
CHIP = "10"
MAX_BET = 50  # dollars: a bet grown to this is cleared at the next intermission
HIT_CHANCE = 0.5  # a round's chance that the player hits once (and answers a question)
# Actions whose 200 answer wrote table events (a chip changes only the player's seat).
EVENTFUL = {"ready", "play", "offer", "difficulty", "answer"}
SETTLE_SECONDS = 5.0  # between the streams' end and the second baseline, and after arrival
ARRIVAL_SPREAD = 3.0  # seconds between the first and the last player of a table sitting
LOST_AFTER = 10.0  # seconds: a stream down this long by the end is lost for good
MAX_PLAY = 300.0  # seconds of play at the most
SHARES = (0.5, 0.95, 0.99)
LOAD_CLIENT = "load client (this process)"
SITE_PROCESSES = ("server 1", "server 2", "clock", "redis")


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
        BENCH_QUERY_DIR=str(QUERY_DIR),
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


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of these processes (VmRSS of /proc/<pid>/status; 0 for one gone)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                    break
        except (OSError, ValueError):
            continue
    return total


def raise_open_files_limit() -> tuple[int, int]:
    """Soft RLIMIT_NOFILE up to the hard limit, before the servers are started: they
    inherit it (2x mode: 1,200 streams and the players' posts on sockets at once)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


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


def child_prepare(players: int, tables: int, watchers: int) -> dict[str, Any]:
    """Migrate and load the trivia bank; the players and watchers (users with a session
    each) and the tables the players will sit at (trivia mode on)."""
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
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.utils.crypto import get_random_string

    from game.tables import services

    call_command("migrate", verbosity=0)
    # Hit and Double Down ask a question at these tables: the bank must have some.
    call_command("load_default_questions", verbosity=0)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    backend = next(p for p in settings.AUTHENTICATION_BACKENDS if p.endswith("ModelBackend"))
    user_model = get_user_model()
    # One hash for everyone: hashing a password per user would take minutes at 1,000 users.
    password = make_password("x-pw-1234")
    names = [f"p{n}" for n in range(players)] + [f"w{n}" for n in range(watchers)]
    user_model.objects.bulk_create(user_model(username=name, password=password) for name in names)
    users = {user.username: user for user in user_model.objects.filter(username__in=names)}

    def logged_in(name: str) -> dict[str, Any]:
        user = users[name]
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = backend
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        return {"name": name, "session": session.session_key, "csrf": get_random_string(32)}

    per_table = math.ceil(players / tables)
    prepared, table_ids = [], []
    for number in range(players):
        if number % per_table == 0:
            table = services.create_table(
                host=users[f"p{number}"],
                name=f"Bench {number // per_table + 1}",
                public=True,
                seat_count=max(2, per_table),
                intermission_seconds=INTERMISSION_SECONDS,
                options={"trivia_mode": True, "turn_seconds": TURN_SECONDS},
            )
            table_ids.append(table.pk)
        entry = logged_in(f"p{number}")
        prepared.append({**entry, "table": table_ids[-1], "seat": number % per_table + 1})
    # Watchers spread over the tables in turn: one a table when there are as many.
    watching = [
        {**logged_in(f"w{n}"), "table": table_ids[n % len(table_ids)], "seat": None}
        for n in range(watchers)
    ]
    return {"players": prepared, "watchers": watching, "tables": table_ids}


def run_prepare(database_url: str, players: int, tables: int, watchers: int) -> dict[str, Any]:
    result = subprocess.run(  # noqa: S603 - our own script
        [
            PYTHON,
            str(Path(__file__).resolve()),
            "--child",
            *("--players", str(players), "--tables", str(tables)),
            *("--watchers", str(watchers)),
        ],
        cwd=REPO,
        env=site_env(database_url),
        capture_output=True,
        text=True,
        timeout=900,
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
PLAY_BUTTON = re.compile(r'name="play" value="([a-z_]+)"([^>]*)>')
OFFER_VALUES = re.compile(r'name="answer" value="([a-z_]+:decline)"')
# A question's answers are the buttons of class "answer" (an offer's have none).
ANSWER_VALUES = re.compile(r'name="answer" value="([^"]*)" class="answer"')
DIFFICULTY_VALUES = re.compile(r'name="difficulty" value="([a-z]+)"')
NOTICE = re.compile(r'class="table-notice" role="alert">([^<]*)<')
MY_BET = re.compile(r'data-testid="my-bet">([^<]*)<')


def controls_of(html: str) -> str:
    """The seat's own controls (its <section>), "" when none are shown."""
    start = html.find(CONTROLS)
    if start < 0:
        return ""
    end = html.find("</section>", start)
    return html[start:] if end < 0 else html[start:end]


def seat_version(html: str) -> re.Match[str] | None:
    """The seat's version as its controls post it (None: no controls shown)."""
    return SEAT_VERSION.search(controls_of(html))


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
    # Each action answered 200: (wall-clock start, seconds, the port it was posted to).
    timeline: list[tuple[float, float, int]] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    fanouts: list[float] = field(default_factory=list)
    fanout_zero: int = 0
    reconnects: int = 0
    busy: int = 0  # streams refused for now (sse.busy_stream_response)
    outages: list[float] = field(default_factory=list)  # seconds a stream was down
    stream_messages: Counter = field(default_factory=Counter)
    # How late this process's event loop woke for a timer (the load client's own delay,
    # part of every latency it measures).
    loop_lags: list[float] = field(default_factory=list)


@dataclass
class Pace:
    """How long a player takes to decide, from the moment its screen first shows the
    choice: uniform in [low, high] seconds (0, 0: flat out). A second click on the same
    screen (Ready after its chip, a chip after Clear) takes ``click`` instead."""

    low: float
    high: float
    click: tuple[float, float] = (0.3, 1.0)

    @property
    def flat_out(self) -> bool:
        return self.high <= 0


class Player:
    """A logged-in viewer of one table with its stream open: a seated player (``seat``)
    who plays, or a watcher (``seat`` None) who only keeps the page and stream open."""

    def __init__(
        self, index: int, prepared: dict[str, Any], port: int, run: Run, pace: Pace
    ) -> None:
        self.index = index
        self.pace = pace
        self.pondered: tuple[str, str] | None = None  # the choice being thought about
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
        self.down_since: float | None = None  # the stream's last drop, None while it is up
        self.busy = False  # the last stream was refused for now: wait its retry first
        self.retry_ms = 1000
        self.rng = random.Random(index)
        self.will_hit = False  # this round's coin: hit once, or only stand
        self.hit_this_round = False
        self.chipped = False  # this intermission's chip posted
        self.last_action = ""

    @property
    def seated(self) -> bool:
        return self.seat is not None

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
            if self.down_since is None:
                self.down_since = time.monotonic()
            self.run.stats.reconnects += 1
            if self.busy:
                # As a browser's EventSource does: back after the refusal's retry.
                self.busy = False
                await asyncio.sleep(self.retry_ms / 1000)

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
        if block.startswith("retry:"):
            self.retry_ms = int(block[6:].strip() or 1000)
            return
        if block.startswith(": busy"):
            self.busy = True
            self.run.stats.busy += 1
            return
        if self.down_since is not None:
            # Anything else (the news status, an event, a heartbeat): the stream is back.
            self.run.stats.outages.append(time.monotonic() - self.down_since)
            self.down_since = None
        lines = block.split("\n")
        # A block of comment lines only is the stream's keep-alive.
        kind = "heartbeat" if all(line.startswith(":") for line in lines) else "message"
        data, event_id = [], None
        for line in lines:
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
        """What this player does on the newest copy of its table (None: nothing to do)."""
        html = self.html
        controls = controls_of(html)
        version = SEAT_VERSION.search(controls)
        if version is None:
            return None
        seat = version.group(1)
        if 'data-phase="round"' in html:
            self.chipped = False
        answers = ANSWER_VALUES.findall(controls)
        if answers and "/answer/" in controls:
            # Any of the offered answers: right or wrong, both are played.
            return "answer", {"answer": unescape(self.rng.choice(answers)), "version": seat}
        difficulties = DIFFICULTY_VALUES.findall(controls)
        if difficulties and "/difficulty/" in controls:
            return "difficulty", {"difficulty": self.rng.choice(difficulties), "version": seat}
        allowed = [name for name, rest in PLAY_BUTTON.findall(controls) if "disabled" not in rest]
        if allowed:
            hit = self.will_hit and not self.hit_this_round and "hit" in allowed
            return "play", {"play": "hit" if hit else "stand", "version": seat}
        offers = OFFER_VALUES.findall(controls)
        if offers and "/offer/" in controls:
            return "offer", {"answer": offers[0], "version": seat}
        bet = MY_BET.search(controls)
        if bet and "/ready/" in controls:
            if not self.chipped:
                self.hit_this_round = False
                self.will_hit = self.rng.random() < HIT_CHANCE
            dollars = float(re.sub(r"[^0-9.]", "", bet.group(1)) or 0)
            if not self.chipped:
                # One chip each intermission; a bet that grew to MAX_BET is cleared first.
                if dollars >= MAX_BET:
                    return "clear", {"version": seat}
                return "chip", {"chip": CHIP, "version": seat}
            return "ready", {"version": seat}
        return None

    def pause(self, action: str) -> float:
        """Seconds to think before acting on a choice just shown."""
        if self.pace.flat_out:
            return 0.0
        second_click = (action, self.last_action) in {("ready", "chip"), ("chip", "clear")}
        low, high = self.pace.click if second_click else (self.pace.low, self.pace.high)
        return self.rng.uniform(low, high)

    async def play(self, until: float) -> None:
        last_posted = None
        while time.monotonic() < until:
            decision = self.decide()
            posted = None if decision is None else (decision[0], self.key)
            if decision is None or posted == last_posted:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), min(1.0, until - time.monotonic()))
                continue
            action, data = decision
            choice = (action, data["version"])
            if choice != self.pondered and not self.pace.flat_out:
                # The screen shows this choice for the first time: the player takes its
                # time, then decides on the table as it is by then.
                self.pondered = choice
                await asyncio.sleep(min(self.pause(action), max(0.0, until - time.monotonic())))
                continue
            last_posted = posted
            await self.act(action, data)

    async def act(self, action: str, data: dict[str, str]) -> None:
        stats = self.run.stats
        if action == "play" and data["play"] == "hit":
            self.hit_this_round = True
        path = f"/tables/{self.table}/{action}/"
        started = time.perf_counter()
        try:
            status, body = await self.post(path, data)
        except Exception as error:
            stats.errors[f"{action}: {type(error).__name__}"] += 1
            await asyncio.sleep(0.2)
            return
        answered = time.perf_counter()
        label = f"{action} {data['play']}" if action == "play" else action
        if action == "ready" and status == 200 and 'data-phase="intermission"' not in body:
            label = "ready, dealt"  # the last Ready: the round was dealt in its post
        notice = NOTICE.search(body) if status != 200 else None
        reason = f" ({notice.group(1)})" if notice else ""
        stats.statuses[(label + reason, status)] += 1
        if status == 200:
            self.last_action = action
            # Chipped once answered: a chip refused leaves the bet as it was.
            self.chipped = self.chipped or action == "chip"
            took = answered - started
            stats.latencies[label].append(took)
            stats.timeline.append((time.time() - took, took, self.port))
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
        if not self.pace.flat_out:
            # At the players' pace, each starting anywhere in its first think.
            await asyncio.sleep(self.rng.uniform(0, (self.pace.low + self.pace.high) / 2))
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
            if not self.pace.flat_out:
                await asyncio.sleep(self.rng.uniform(self.pace.low, self.pace.high))


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
        """Waits for every other viewer's stream at the actor's table (players and
        watchers) to deliver the action's events."""
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


# --------------------------------------------------------------------- what the servers did


@dataclass
class Servers:
    """The processes measured and where to read their counters."""

    ports: list[int]
    pids: Callable[[], list[list[int]]]  # each server's process tree, named anew each time
    database_url: str

    def rss(self) -> list[int]:
        return [rss_bytes(tree) for tree in self.pids()]

    def _written(self, suffix: str) -> list[tuple[int, Any]]:
        """What each worker process of both servers wrote to QUERY_DIR/<pid><suffix>
        (query_counter.py), as (the server's port, the file's JSON); a process that has
        not written yet is left out."""
        found = []
        for port, tree in zip(self.ports, self.pids(), strict=True):
            for pid in tree:
                path = QUERY_DIR / f"{pid}{suffix}"
                if path.exists():
                    found.append((port, json.loads(path.read_text())))
        return found

    async def queries(self) -> dict[str, int] | None:
        """Both servers' query counts so far, summed over their worker processes: each
        writes its counts every FILE_SECONDS; read once the last writes are in. None when
        no server process has written."""
        await asyncio.sleep(3 * FILE_SECONDS)
        written = self._written(".json")
        total: Counter[str] = Counter()
        for _, counts in written:
            total.update({"stream": counts["stream"], "requests": counts["requests"]})
        return dict(total) if written else None

    def long_pauses(self) -> dict[int, list[list[float]]]:
        """Each server's (by port) collector pauses of LONG_PAUSE_MS or more in any of its
        worker processes: [wall-clock start, generation, seconds]."""
        found: dict[int, list[list[float]]] = {port: [] for port in self.ports}
        for port, pauses in self._written(".pauses.json"):
            found[port] += pauses
        return found

    def collections(self) -> dict[str, list[float]]:
        """The collector's pauses so far in every worker process of both servers, by
        generation: [count, seconds in all, the longest]."""
        found: dict[str, list[float]] = {}
        for _, counts in self._written(".json"):
            for gen, (count, total, longest) in counts.get("collections", {}).items():
                mine = found.setdefault(gen, [0, 0.0, 0.0])
                found[gen] = [mine[0] + count, mine[1] + total, max(mine[2], longest)]
        return found

    async def memory(self, mark: bool = False) -> list[dict[str, Any]]:
        """Each server's memory growth by source line since the last mark (servers traced
        with --trace-memory; [] otherwise), or a new mark."""
        found = []
        for port in self.ports:
            path = "/bench/memory/?mark=1" if mark else "/bench/memory/"
            status, body = await request(port, "GET", path, {})
            if status == 200:
                found.append(json.loads(body))
        return found

    async def last_event(self) -> int:
        sql = "SELECT coalesce(max(id), 0) FROM game_tableevent"
        rows = await asyncio.to_thread(self._sql, sql)
        return int(rows[0][0])

    async def events_between(self, first: int, last: int) -> list[tuple[int, str, int]]:
        """(table, kind, count) of the events written with ids in (first, last]."""
        return await asyncio.to_thread(
            self._sql,
            "SELECT table_id, kind, count(*) FROM game_tableevent WHERE id > %s AND id <= %s "
            "GROUP BY table_id, kind",
            (first, last),
        )

    def _sql(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.database_url) as connection:
            return connection.execute(sql, params).fetchall()


@dataclass
class Window:
    """What the servers did between two readings: queries and table events."""

    seconds: float
    queries: dict[str, int] | None
    events: list[tuple[int, str, int]]

    def kinds(self) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for _, kind, count in self.events:
            counts[kind] += count
        return dict(sorted(counts.items()))

    def total_events(self) -> int:
        return sum(count for _, _, count in self.events)

    def deliveries(self, viewers: dict[int, int]) -> int:
        """Events x viewers: each event written at a table, once for each stream open
        there (what the streams owe their viewers)."""
        return sum(count * viewers.get(table, 0) for table, _, count in self.events)


class Measure:
    """Brackets a window: the servers' query counts and the last table event at its start."""

    def __init__(self, servers: Servers) -> None:
        self.servers = servers

    async def __aenter__(self) -> Measure:
        self.queries = await self.servers.queries()
        self.first_event = await self.servers.last_event()
        self.started = time.monotonic()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.seconds = time.monotonic() - self.started
        after = await self.servers.queries()
        last_event = await self.servers.last_event()
        queries = None
        if self.queries is not None and after is not None:
            queries = {key: after[key] - self.queries.get(key, 0) for key in after}
        events = await self.servers.events_between(self.first_event, last_event)
        self.window = Window(self.seconds, queries, events)


# --------------------------------------------------------------------- the run


def say(text: str) -> None:
    """A progress line (the run lasts minutes)."""
    print(f"  [{time.strftime('%H:%M:%S')}] {text}", flush=True)


async def load(
    prepared: dict[str, Any], servers: Servers, args: argparse.Namespace, cpu: CpuWatch
) -> dict[str, Any]:
    run = Run()
    pace = Pace(args.think_min, args.think_max)
    ports = servers.ports
    entries = prepared["players"] + prepared["watchers"]
    tables = sorted({entry["table"] for entry in entries})
    place = {table: number for number, table in enumerate(tables)}

    def port_of(index: int, entry: dict[str, Any]) -> int:
        # By table: every viewer of a table on one server, the tables alternating (a
        # balancer that routes /tables/<id>/ by the id); by viewer: players and watchers
        # alike alternate, so each table has viewers on both servers.
        number = place[entry["table"]] if args.route == "table" else index
        return ports[number % len(ports)]

    viewers = [
        Player(index, entry, port_of(index, entry), run, pace)
        for index, entry in enumerate(entries)
    ]
    players = [viewer for viewer in viewers if viewer.seated]
    watchers = [viewer for viewer in viewers if not viewer.seated]
    for viewer in viewers:
        run.by_table[viewer.table].append(viewer)
    await warm_up(players[: 2 * len(ports)])
    half = args.bare_seconds / 2
    say(f"baseline /bench/bare/, {half:g} s")
    cpu.mark("bare 1")
    bare_latencies, bare_errors, bare_elapsed = await bare_window(players, half)
    cpu.mark("bare 1 end")
    bare_before = list(bare_latencies)

    # The watchers' pages (not measured), then every stream; the players sit only after
    # the idle window, so that no table has a clock running then (a seated player who
    # does not bet reopens the betting at each intermission's end: an event).
    pages = await arrive([], watchers)
    await asyncio.sleep(1)
    rss_idle = servers.rss()
    if args.trace_memory:
        await servers.memory(mark=True)
    say(f"{len(watchers)} watchers' pages loaded; opening streams")
    streams = []
    for viewer in viewers:
        streams.append(asyncio.create_task(viewer.read_stream()))
        # Spread the connects: 1,200 first snapshots at once would only measure the rush.
        # A stream ends TABLE_STREAM_SECONDS after it opened, so streams opened together
        # also reconnect together (--open-seconds 60 spreads them as arrivals would).
        await asyncio.sleep(args.open_seconds / len(viewers))
    try:
        return await _play(
            run,
            viewers,
            streams,
            args,
            cpu,
            servers,
            {
                "bare_latencies": bare_latencies,
                "bare_errors": bare_errors,
                "bare_elapsed": bare_elapsed,
                "bare_before": bare_before,
                "rss_idle": rss_idle,
                "pages": pages,
                "players": len(players),
                "watchers": len(watchers),
            },
        )
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)


async def warm_up(players: list[Player]) -> None:
    """A few bare posts and table pages on each server, not measured: a server's first
    requests import and compile what every later one reuses."""
    for player in players:
        await player.post("/bench/bare/", {})
        headers = {"Cookie": player.headers["Cookie"]}
        await request(player.port, "GET", f"/tables/{player.table}/", headers)


async def arrive(players: list[Player], watchers: list[Player]) -> list[float]:
    """The players sit (a few at once); each watcher loads its table's page once."""
    gate = asyncio.Semaphore(20)
    pages: list[float] = []

    async def sit(player: Player) -> None:
        async with gate:
            status, body = await player.post(
                f"/tables/{player.table}/sit/", {"seat": str(player.seat), "version": "0"}
            )
        if status != 200:
            raise RuntimeError(f"{player.name} could not sit: HTTP {status}\n{body[:500]}")
        player.offer_html(body)

    async def watch(watcher: Player) -> None:
        headers = {key: value for key, value in watcher.headers.items() if key == "Cookie"}
        async with gate:
            started = time.perf_counter()
            status, body = await request(watcher.port, "GET", f"/tables/{watcher.table}/", headers)
        if status != 200:
            raise RuntimeError(f"{watcher.name} could not watch: HTTP {status}\n{body[:500]}")
        pages.append(time.perf_counter() - started)

    await asyncio.gather(*(sit(player) for player in players))
    await asyncio.gather(*(watch(watcher) for watcher in watchers))
    return pages


async def _arrive_then_play(
    run: Run,
    players: list[Player],
    args: argparse.Namespace,
    cpu: CpuWatch,
    servers: Servers,
    result: dict[str, Any],
) -> None:
    """Tables fill one after another over ``--arrive-seconds`` (each table at a moment
    drawn at random in the window, its players within ARRIVAL_SPREAD seconds of it), and
    each player plays from the moment it sits; the play is measured once every table has
    filled and played a few seconds more (SETTLE_SECONDS): a steady evening, not a
    hundred tables opening their betting in the same second."""
    rng = random.Random(len(players))
    starts = {table: rng.uniform(0, args.arrive_seconds) for table in {p.table for p in players}}
    begun = time.monotonic()
    until = begun + args.arrive_seconds + SETTLE_SECONDS + args.seconds

    async def arrive_and_play(player: Player) -> None:
        await asyncio.sleep(starts[player.table] + rng.uniform(0, ARRIVAL_SPREAD))
        status, body = await player.post(
            f"/tables/{player.table}/sit/", {"seat": str(player.seat), "version": "0"}
        )
        if status != 200:
            raise RuntimeError(f"{player.name} could not sit: HTTP {status}\n{body[:500]}")
        player.offer_html(body)
        await player.play(until)

    say(f"{len(players)} players arrive over {args.arrive_seconds:g} s, table by table")
    playing = asyncio.gather(*(arrive_and_play(player) for player in players))
    await asyncio.sleep(args.arrive_seconds + SETTLE_SECONDS)
    arrival, run.stats = run.stats, Stats()  # the arrival's times are not measured...
    run.stats.errors.update({f"arriving: {k}": v for k, v in arrival.errors.items()})
    run.measuring = True  # ...its errors are
    say(f"every table filled; play measured {args.seconds:g} s")
    cpu.mark("play")
    async with Measure(servers) as play:
        await playing
    cpu.mark("play end")
    result["play"] = play.window


async def watch_loop_lag(run: Run, period: float = 0.02) -> None:
    """Records how late each timer of this process fires (until cancelled): a response or
    a stream's message read late by a busy load client looks like a slow server."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + period
        await asyncio.sleep(period)
        run.stats.loop_lags.append(max(0.0, loop.time() - due))


async def wait_for(check: Callable[[], bool], seconds: float) -> None:
    until = time.monotonic() + seconds
    while not check() and time.monotonic() < until:
        await asyncio.sleep(0.1)


async def _play(
    run: Run,
    viewers: list[Player],
    streams: list[asyncio.Task],
    args: argparse.Namespace,
    cpu: CpuWatch,
    servers: Servers,
    result: dict[str, Any],
) -> dict[str, Any]:
    snapshot_wait = max(60.0, 0.1 * len(viewers))
    await wait_for(lambda: all(v.snapshot.is_set() for v in viewers), snapshot_wait)
    missing = sum(not v.snapshot.is_set() for v in viewers)
    result["rss_streams"] = servers.rss()
    if args.trace_memory:
        for number, growth in enumerate(await servers.memory(), 1):
            say(f"server {number}: {growth.get('total_bytes', 0) / 1024:.0f} KB traced since")
            for line in growth.get("top", [])[:25]:
                say(f"  {line['bytes'] / 1024:9.1f} KB {line['blocks']:7d} blocks {line['where']}")
    startup = run.stats
    run.stats = Stats()
    if missing:
        run.stats.errors[f"stream: no first snapshot within {snapshot_wait:.0f} s"] = missing
    run.stats.errors.update({f"before play: {k}": v for k, v in startup.errors.items()})

    say(f"streams open ({missing} without a first snapshot); idle {args.idle_seconds:g} s")
    # Nobody acts: what do open streams cost when nothing happens at their tables?
    reconnects = run.stats.reconnects
    cpu.mark("idle")
    async with Measure(servers) as idle:
        await asyncio.sleep(args.idle_seconds)
    cpu.mark("idle end")
    result["idle"] = idle.window
    result["idle_reconnects"] = run.stats.reconnects - reconnects

    players = [viewer for viewer in viewers if viewer.seated]
    lag = asyncio.create_task(watch_loop_lag(run))
    if args.arrive_seconds > 0:
        await _arrive_then_play(run, players, args, cpu, servers, result)
    else:
        await arrive(players, [])
        say(f"{len(players)} players sat")
        await asyncio.sleep(2)  # the seats' events reach every stream before the play
        run.measuring = True
        say(f"play {args.seconds:g} s")
        cpu.mark("play")
        async with Measure(servers) as play:
            until = time.monotonic() + args.seconds
            await asyncio.gather(*(player.play(until) for player in players))
        cpu.mark("play end")
        result["play"] = play.window
    run.measuring = False
    lag.cancel()
    result["collections"] = servers.collections()
    await asyncio.sleep(PAUSES_EVERY * FILE_SECONDS)  # the pauses' files written last
    result["long_pauses"] = servers.long_pauses()
    result["play_elapsed"] = result["play"].seconds
    await wait_for(lambda: not run.unfinished_fanouts(), 3)
    result["unfinished_fanouts"] = run.unfinished_fanouts()
    # A stream down now has until LOST_AFTER seconds from its drop to come back.
    await wait_for(
        lambda: all(
            v.down_since is None or time.monotonic() - v.down_since > LOST_AFTER for v in viewers
        ),
        LOST_AFTER + 1,
    )
    result["lost_streams"] = sum(v.down_since is not None for v in viewers)
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)

    half = args.bare_seconds / 2
    say(f"streams closed ({result['lost_streams']} lost); baseline again, {half:g} s")
    # The servers finish what the closed streams had queued before the baseline's posts.
    await asyncio.sleep(SETTLE_SECONDS)
    cpu.mark("bare 2")
    more_latencies, more_errors, more_elapsed = await bare_window(players, half)
    cpu.mark("bare 2 end")
    result["bare_latencies"] += more_latencies
    result["bare_after"] = more_latencies
    result["bare_errors"] += more_errors
    result["bare_elapsed"] += more_elapsed
    result["run"] = run
    result["viewers_by_table"] = {table: len(seen) for table, seen in run.by_table.items()}
    return result


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
        reading[LOAD_CLIENT] = usage.ru_utime + usage.ru_stime
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


def spread(values: list[float]) -> dict[str, float]:
    """n and p50/p95/p99 in ms."""
    return {
        "n": len(values),
        **{f"p{round(100 * share)}_ms": 1000 * percentile(values, share) for share in SHARES},
    }


def ms(values: list[float]) -> str:
    return "p50 {:.1f} / p95 {:.1f} / p99 {:.1f} ms".format(
        *(1000 * percentile(values, share) for share in SHARES)
    )


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else float("nan")


def stream_figures(run: Run, result: dict[str, Any]) -> dict[str, Any]:
    stats = run.stats
    outages = stats.outages
    streams = result["players"] + result["watchers"]
    rss_idle, rss_streams = sum(result["rss_idle"]), sum(result["rss_streams"])
    return {
        "open": streams,
        "reconnects": stats.reconnects,
        "refused_busy": stats.busy,
        "outages": spread(outages),
        "outages_longer_than_lost_after": sum(o > LOST_AFTER for o in outages),
        "lost_for_good": result["lost_streams"],
        "rss_servers_no_stream_bytes": result["rss_idle"],
        "rss_servers_all_streams_bytes": result["rss_streams"],
        "memory_per_stream_bytes": ratio(rss_streams - rss_idle, streams),
        "load_client_loop_lag": spread(stats.loop_lags),
    }


def idle_figures(result: dict[str, Any], streams: int) -> dict[str, Any]:
    idle: Window = result["idle"]
    queries = idle.queries
    return {
        "seconds": idle.seconds,
        "stream_queries": None if queries is None else queries["stream"],
        "request_queries": None if queries is None else queries["requests"],
        "stream_queries_per_stream_per_second": (
            None if queries is None else ratio(queries["stream"], streams * idle.seconds)
        ),
        "table_events": idle.total_events(),
        "table_events_by_kind": idle.kinds(),
        "tables_with_events": len({table for table, _, _ in idle.events}),
        "stream_reconnects": result["idle_reconnects"],
    }


def play_figures(result: dict[str, Any], cpu: dict[str, float]) -> dict[str, Any]:
    play: Window = result["play"]
    queries = play.queries
    deliveries = play.deliveries(result["viewers_by_table"])
    rounds = play.kinds().get("round_dealt", 0)
    site_cpu = sum(cpu[label] for label in SITE_PROCESSES)
    return {
        "table_events": play.total_events(),
        "table_events_by_kind": play.kinds(),
        "rounds_dealt": rounds,
        "event_deliveries_owed": deliveries,
        "stream_queries": None if queries is None else queries["stream"],
        "request_queries": None if queries is None else queries["requests"],
        "stream_queries_per_event_per_viewer": (
            None if queries is None else ratio(queries["stream"], deliveries)
        ),
        "cpu_seconds": cpu,
        "site_cpu_seconds_per_round": ratio(site_cpu, rounds),
    }


def slowest_and_pauses(
    timeline: list[tuple[float, float, int]], pauses: dict[int, list[list[float]]]
) -> dict[str, Any]:
    """The slowest 1 % of the actions (at or above the p99) lined up with their server's
    long collector pauses: how many of them overlapped one, and how much of their time
    the overlaps make. A pause stalls every request of its process, and those that queue
    behind it finish late after it, so the overlap is the least a pause cost them."""
    if not timeline:
        return {"n": 0}
    cut = sorted(seconds for _, seconds, _ in timeline)[int(0.99 * (len(timeline) - 1))]
    slowest = [(start, seconds, port) for start, seconds, port in timeline if seconds >= cut]
    overlapped, overlap_seconds = 0, 0.0
    for start, seconds, port in slowest:
        end = start + seconds
        overlaps = [
            min(end, begun + paused) - max(start, begun)
            for begun, _, paused in pauses.get(port, [])
        ]
        during = sum(o for o in overlaps if o > 0)
        overlapped += during > 0
        overlap_seconds += during
    return {
        "n": len(slowest),
        "from_ms": cut * 1000,
        "overlapping_a_pause": overlapped,
        "overlap_share": overlap_seconds / sum(seconds for _, seconds, _ in slowest),
        "long_pauses": sum(len(found) for found in pauses.values()),
    }


def figures(args: argparse.Namespace, result: dict[str, Any], watch: CpuWatch) -> dict[str, Any]:
    """Every figure of the run, as --json writes them."""
    run: Run = result["run"]
    stats = run.stats
    seconds = result["play_elapsed"]
    done = [v for label, values in stats.latencies.items() if label != "refused" for v in values]
    bare = result["bare_latencies"]
    action, bare_spread = spread(done), spread(bare)
    streams = stream_figures(run, result)
    cpu = watch.between("play", "play end")
    return {
        "collections": result.get("collections", {}),
        "slowest_and_pauses": slowest_and_pauses(stats.timeline, result.get("long_pauses", {})),
        "setup": {
            "players": result["players"],
            "watchers": result["watchers"],
            "tables": args.tables,
            "workers": args.workers,
            "pool_size": args.pool_size,
            "think_seconds": [args.think_min, args.think_max],
            "hit_chance": HIT_CHANCE,
            "trivia": True,
            "intermission_seconds": INTERMISSION_SECONDS,
            "turn_seconds": TURN_SECONDS,
            "play_seconds": seconds,
            "idle_seconds": args.idle_seconds,
            "arrive_seconds": args.arrive_seconds,
            "route": args.route,
        },
        "actions": {
            "all": {**action, "per_second": len(done) / seconds},
            **{label: spread(values) for label, values in sorted(stats.latencies.items())},
        },
        "watcher_pages": spread(result["pages"]),
        "refused": {
            f"{label} {status}": count
            for (label, status), count in sorted(stats.statuses.items())
            if status in (409, 422)
        },
        "errors": dict(stats.errors),
        "other_statuses": {
            f"{label} {status}": count
            for (label, status), count in sorted(stats.statuses.items())
            if status not in (200, 409, 422)
        },
        "fanout": {
            **spread(stats.fanouts),
            "already_delivered": stats.fanout_zero,
            "unfinished_after_3s": result["unfinished_fanouts"],
        },
        "stream_messages": dict(stats.stream_messages),
        "streams": streams,
        "idle": {
            **idle_figures(result, streams["open"]),
            "cpu_seconds": watch.between("idle", "idle end"),
        },
        "play": play_figures(result, cpu),
        "bare": {
            **bare_spread,
            "per_second": len(bare) / result["bare_elapsed"],
            "errors": dict(result["bare_errors"]),
            "before_play": spread(result["bare_before"]),
            "after_play": spread(result["bare_after"]),
            "cpu_seconds_before": watch.between("bare 1", "bare 1 end"),
            "cpu_seconds_after": watch.between("bare 2", "bare 2 end"),
            "action_p50_ratio": ratio(action["p50_ms"], bare_spread["p50_ms"]),
            "action_p99_ratio": ratio(action["p99_ms"], bare_spread["p99_ms"]),
        },
        "load_client_cpu_seconds": cpu[LOAD_CLIENT],
    }


def goals(found: dict[str, Any]) -> dict[str, tuple[float, float, bool]]:
    """Each goal: (measured, limit, met)."""
    idle_queries = found["idle"]["stream_queries"]
    measured = {
        "action p99 ms": found["actions"]["all"]["p99_ms"],
        "fan-out p99 ms": found["fanout"]["p99_ms"],
        "errors + unfinished fan-outs": (
            sum(found["errors"].values()) + found["fanout"]["unfinished_after_3s"]
        ),
        "KB per open stream": found["streams"]["memory_per_stream_bytes"] / 1024,
        "stream queries while idle": float("nan") if idle_queries is None else idle_queries,
    }
    checked = {}
    for name, limit in GOALS.items():
        value = measured[name]
        # NaN (nothing measured) never meets a goal; errors and idle queries must be 0.
        met = value < limit if limit else value == 0
        checked[name] = (value, limit, met)
    return checked


def report(found: dict[str, Any]) -> bool:
    setup, actions = found["setup"], found["actions"]
    low, high = setup["think_seconds"]
    pace = "flat out" if high <= 0 else f"think {low:g}-{high:g} s"
    print(
        f"play: {setup['players']} players + {setup['watchers']} watchers at {setup['tables']} "
        f"tables on 2 uvicorn servers ({setup['workers']} worker(s) each, DATABASE_POOL_SIZE="
        f"{setup['pool_size']}) + table_clock, PostgreSQL, Redis; {setup['play_seconds']:.1f} s; "
        f"trivia on, {pace}, hit "
        f"{setup['hit_chance']:.0%} of rounds, intermission {setup['intermission_seconds']} s, "
        f"turn {setup['turn_seconds']} s; tables filled over {setup['arrive_seconds']:g} s "
        f"before it; viewers routed by {setup['route']}"
    )
    every = actions["all"]
    print(f"  actions: {every['n']} answered 200 = {every['per_second']:.1f} actions/s; ", end="")
    print(_ms(every))
    for label, values in actions.items():
        if label != "all":
            print(f"    {label:13} n={values['n']:5}  {_ms(values)}")
    print(f"  watchers' page loads: n={found['watcher_pages']['n']}  {_ms(found['watcher_pages'])}")
    refused = found["refused"]
    print(f"  refused (409/422): {sum(refused.values())} {refused or ''}")
    errors = found["errors"]
    print(f"  errors: {sum(errors.values())} {errors or ''}")
    if found["other_statuses"]:
        print(f"  other statuses: {found['other_statuses']}")
    fanout = found["fanout"]
    print(
        f"  fan-out to every other viewer's stream (players and watchers): n={fanout['n']} "
        f"({fanout['already_delivered']} already delivered when the answer came), {_ms(fanout)}; "
        f"unfinished after 3 s: {fanout['unfinished_after_3s']}"
    )
    streams = found["streams"]
    mb = 1024 * 1024
    print(
        f"streams: {streams['open']} open; reconnects {streams['reconnects']}, refused busy "
        f"{streams['refused_busy']}; outages (n={streams['outages']['n']}) "
        f"{_ms(streams['outages'])}, {streams['outages_longer_than_lost_after']} longer than "
        f"{LOST_AFTER:.0f} s; lost for good: {streams['lost_for_good']}"
    )
    print(
        "  servers' RSS: "
        + " + ".join(f"{b / mb:.0f}" for b in streams["rss_servers_no_stream_bytes"])
        + " MB with no stream open, "
        + " + ".join(f"{b / mb:.0f}" for b in streams["rss_servers_all_streams_bytes"])
        + f" MB with all open: {streams['memory_per_stream_bytes'] / 1024:.1f} KB per stream"
    )
    lag = streams["load_client_loop_lag"]
    print(f"  the load client's own lag (a 20 ms timer fired late by): {_ms(lag)}")
    pauses = ", ".join(
        f"generation {gen}: {int(count)} pauses, {total:.2f} s in all, longest "
        f"{longest * 1000:.1f} ms"
        for gen, (count, total, longest) in sorted(found["collections"].items())
    )
    print(f"  the servers' garbage collector (whole run): {pauses or 'not measured'}")
    slowest = found["slowest_and_pauses"]
    if slowest["n"]:
        print(
            f"  the slowest 1 % of actions ({slowest['n']}, from {slowest['from_ms']:.1f} ms): "
            f"{slowest['overlapping_a_pause']} overlapped one of their server's "
            f"{slowest['long_pauses']} collector pauses of {LONG_PAUSE_MS} ms or more, "
            f"which make {100 * slowest['overlap_share']:.0f} % of their time"
        )
    idle = found["idle"]
    if idle["stream_queries"] is None:
        print("idle window: queries not counted (no server process wrote its counts)")
    else:
        print(
            f"idle window ({idle['seconds']:.1f} s, nobody acts): stream queries "
            f"{idle['stream_queries']} = {idle['stream_queries_per_stream_per_second']:.3f} a "
            f"stream a second; request queries {idle['request_queries']}; table events written "
            f"{idle['table_events']} at {idle['tables_with_events']} tables "
            f"{idle['table_events_by_kind']}; stream reconnects {idle['stream_reconnects']}"
        )
    print(
        "  CPU seconds while idle: "
        + ", ".join(f"{label} {value:.1f}" for label, value in idle["cpu_seconds"].items())
    )
    play = found["play"]
    print(
        f"play window: table events {play['table_events']} {play['table_events_by_kind']}; "
        f"rounds dealt {play['rounds_dealt']}"
    )
    if play["stream_queries"] is not None:
        print(
            f"  stream queries {play['stream_queries']} / (events x viewers at their table "
            f"{play['event_deliveries_owed']}) = {play['stream_queries_per_event_per_viewer']:.3f}"
            f" queries per event per viewer; request queries {play['request_queries']}"
        )
    cpu = play["cpu_seconds"]
    print(
        "  CPU seconds: "
        + ", ".join(f"{label} {value:.1f}" for label, value in cpu.items())
        + f" (of {2 * setup['play_seconds']:.0f} core-seconds); servers + clock + redis "
        f"{play['site_cpu_seconds_per_round']:.2f} s per round dealt"
    )
    print(f"  stream messages: {found['stream_messages']}")
    bare = found["bare"]
    print(
        f"baseline /bench/bare/ (players' pace: {pace}; no stream open): n={bare['n']} = "
        f"{bare['per_second']:.1f} requests/s; {_ms(bare)}; errors {sum(bare['errors'].values())};"
        f" action / bare: p50 x{bare['action_p50_ratio']:.2f}, p99 x{bare['action_p99_ratio']:.2f}"
    )
    print(f"  before the play: {_ms(bare['before_play'])}; after: {_ms(bare['after_play'])}")
    checked = goals(found)
    found["goals"] = {
        name: {"measured": value, "limit": limit, "met": met}
        for name, (value, limit, met) in checked.items()
    }
    met = all(ok for _, _, ok in checked.values())
    print(
        "goals: "
        + "; ".join(
            f"{name} {value:.1f} ({'<' if limit else '='} {limit:g}) {'met' if ok else 'MISSED'}"
            for name, (value, limit, ok) in checked.items()
        )
        + f": {'all met' if met else 'NOT met'}"
    )
    return met


def strict(value: Any) -> Any:
    """``value`` with NaN (a figure with nothing measured) as null: strict JSON."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: strict(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [strict(item) for item in value]
    return value


def _ms(spread_: dict[str, float]) -> str:
    return "p50 {:.1f} / p95 {:.1f} / p99 {:.1f} ms".format(
        spread_["p50_ms"], spread_["p95_ms"], spread_["p99_ms"]
    )


# --------------------------------------------------------------------- main


def parse_args() -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument(
        "--watchers",
        type=int,
        default=None,
        help="logged-in viewers who do not sit, spread over the tables (default: one a table)",
    )
    parser.add_argument(
        "--seconds", type=float, default=180.0, help=f"length of the play (at most {MAX_PLAY:g})"
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=10.0,
        help="the window with every stream open and nobody acting, before the play",
    )
    parser.add_argument(
        "--open-seconds",
        type=float,
        default=3.0,
        help="the streams' first connects spread over this many seconds",
    )
    parser.add_argument(
        "--bare-seconds", type=float, default=10.0, help="baseline, half before and half after"
    )
    parser.add_argument(
        "--pool-size",
        type=int,
        default=10,
        help="DATABASE_POOL_SIZE of each worker process (a stream holds one only while it "
        "reads; servers x workers x pool stay under PostgreSQL's 100 connections)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="uvicorn worker processes of each app server",
    )
    parser.add_argument(
        "--arrive-seconds",
        type=float,
        default=60.0,
        help="tables fill one by one over this many seconds before the measured play "
        "(0: every player sits at once and every table's betting opens together)",
    )
    parser.add_argument(
        "--route",
        choices=("viewer", "table"),
        default="table",
        help="which server each viewer talks to: alternating viewer by viewer (each table "
        "has viewers on both), or by table (a balancer routing /tables/<id>/ by the id; "
        "docs/deploy.md)",
    )
    parser.add_argument("--think-min", type=float, default=3.0, help="seconds, at the least")
    parser.add_argument(
        "--think-max",
        type=float,
        default=10.0,
        help="seconds a player takes to decide at most, from the moment its screen shows "
        "the choice (uniform in min-max; 0: flat out)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help="the former pace: this mean, 0.5-1.5x (sets --think-min/--think-max; 0: flat out)",
    )
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="diagnosis: the servers trace their memory (tracemalloc; slow), and the growth "
        "from no stream to every stream open is printed by source line",
    )
    parser.add_argument("--json", type=Path, default=None, help="write every figure there")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watchers is None:
        args.watchers = args.tables
    if args.think is not None:
        args.think_min, args.think_max = 0.5 * args.think, 1.5 * args.think
    if not 0 <= args.think_min <= args.think_max:
        parser.error("--think-min must be between 0 and --think-max")
    if not 0 < args.seconds <= MAX_PLAY:
        parser.error(f"--seconds must be more than 0 and at most {MAX_PLAY:g}")
    return parser, args


def start_site(url: str, args: argparse.Namespace) -> tuple[list[subprocess.Popen], list[int]]:
    """The table clock, then the two app servers (they inherit the raised file limit)."""
    env = site_env(url, args.pool_size)
    if args.trace_memory:
        # Diagnosis only: tracing slows the servers several times over.
        env["PYTHONTRACEMALLOC"] = "1"
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen(  # noqa: S603 - fixed argv
            [PYTHON, "manage.py", "table_clock", "--verbosity", "0"], cwd=REPO, env=env
        )
    ]
    for port in ports:
        processes.append(
            subprocess.Popen(  # noqa: S603 - fixed argv
                [
                    *(PYTHON, "-m", "uvicorn", "blackjack_site.asgi:application"),
                    *("--host", HOST, "--port", str(port), "--workers", str(args.workers)),
                    *("--log-level", "warning", "--no-access-log"),
                ],
                cwd=REPO,
                env=env,
            )
        )
    for port, server in zip(ports, processes[1:], strict=True):
        wait_for_port(port, server)
    return processes, ports


def run_load(
    prepared: dict[str, Any], servers: Servers, args: argparse.Namespace, cpu: CpuWatch
) -> dict[str, Any]:
    loop: asyncio.AbstractEventLoop
    try:
        import uvloop

        loop = uvloop.new_event_loop()
    except ImportError:
        loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(load(prepared, servers, args, cpu))
    finally:
        loop.close()


def main() -> int:
    parser, args = parse_args()
    if args.child:
        print(json.dumps(child_prepare(args.players, args.tables, args.watchers)))
        return 0
    if not 2 <= math.ceil(args.players / args.tables) <= 7:
        parser.error("players / tables must come to 2-7 seats a table")
    if not postgres_answers():
        print("PostgreSQL does not answer on 127.0.0.1:5432: skipped.")
        return 0
    if not redis_answers():
        print(f"Redis does not answer at {REDIS_URL}: skipped.")
        return 0
    soft, _ = raise_open_files_limit()
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"cores: {os.cpu_count()}; open files limit {soft}; load average before: {load_average}")
    flush_redis()
    QUERY_DIR.mkdir(exist_ok=True)
    with throwaway_postgres(f"tables_bench_{os.getpid()}") as url:
        started = time.monotonic()
        prepared = run_prepare(url, args.players, args.tables, args.watchers)
        say(f"prepared in {time.monotonic() - started:.0f} s")
        processes: list[subprocess.Popen] = []
        try:
            processes, ports = start_site(url, args)
            clock, *app_servers = processes
            servers = Servers(
                ports,
                lambda: [with_workers(server.pid) for server in app_servers],
                url,
            )
            cpu = CpuWatch(
                {
                    "server 1": lambda: with_workers(app_servers[0].pid),
                    "server 2": lambda: with_workers(app_servers[1].pid),
                    "clock": [clock.pid],
                    "redis": pids_named("redis-server"),
                }
            )
            result = run_load(prepared, servers, args, cpu)
        finally:
            for process in reversed(processes):
                stop(process)
            shutil.rmtree(QUERY_DIR, ignore_errors=True)
    found = figures(args, result, cpu)
    met = report(found)
    if args.json:
        args.json.write_text(json.dumps(strict(found), indent=2, default=str) + "\n")
        print(f"figures written to {args.json}")
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average after: {load_average}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
