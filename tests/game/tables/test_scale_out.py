"""Scale-out (TABLES.md T-10, T-13, T-14): two uvicorn app servers and the table
clock as real processes, against one PostgreSQL (the test database, committed data) and one
Redis.

Two players sit at one table, each talking to a different app server (actions and the live
stream). The test plays three rounds and checks that:

- both players' streams carry the same ``log`` event ids in the same order, gapless, equal to
  the table's TableEvent rows, and the news crossed the servers through Redis (T-10, T-13);
- after app server 1 is killed mid-round (SIGKILL, during its player's turn), that player's
  client falls back to server 2, its stream resumes from its Last-Event-ID with nothing lost
  or repeated, the bet placed through server 1 is still there and the round goes on (T-14);
- after the clock process is killed mid-turn and the turn's deadline passes with no clock,
  restarting the clock (two clock processes at once) times the turn out exactly once and the
  next box plays (T-13).

PostgreSQL only (skipped on SQLite). Without Redis the test is skipped, except under
CI=true, where .ci/run starts Redis and its absence is a failure.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, transaction
from django.utils.crypto import get_random_string

from game.rules.engine import Engine
from game.rules.storage import game_from_json
from game.tables import live, services
from game.tables.models import Seat, SharedTable, TableEvent
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import with_cards_on_top

pytestmark = [pytest.mark.postgres_only, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
PYTHON = sys.executable
HOST = "127.0.0.1"
# A Redis database of its own (flushed first): the servers' cache, sessions and users.
REDIS_URL = os.environ.get("TEST_SCALE_OUT_REDIS_URL", "redis://127.0.0.1:6379/7")
STREAM_SECONDS = 5  # the servers end each stream after this; the readers reconnect
TURN_SECONDS = 10
BET_DOLLARS = 5
SESSION_BACKEND = "blackjack_site.auth.CachedModelBackend"

# Deal order (seat 1 = ana's box, seat 2 = ben's): ana, ben, dealer's hole, ana, ben,
# dealer's upcard, then the draws. No ace or ten up: no offer, no peek, no natural.
ROUND_1 = ["0S", "9S", "0H", "2D", "7C", "8C", "5H"]  # ana 12 hits 5 (17), ben 16, dealer 18
ROUND_2 = ["0D", "9H", "0C", "3S", "9C", "9D", "4H"]  # ana 13 hits 4 (17), ben 18, dealer 19
ROUND_3 = ["0H", "0S", "0D", "6C", "7S", "7D"]  # ana 16 (times out), ben 17, dealer 17


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def wait_for(condition: Callable[[], Any], timeout: float, what: str, step: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(step)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def now_ms() -> int:
    return int(time.time() * 1000)


# --------------------------------------------------------------------------- processes


@dataclass
class Proc:
    """A child process in its own process group, its output in a log file."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path
    popen: subprocess.Popen | None = None

    def start(self) -> Proc:
        log = self.log_path.open("ab")
        self.popen = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        return self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL to the whole group (no clean shutdown: what a crash looks like)."""
        if self.popen is None:
            return
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)


@dataclass
class Server:
    proc: Proc
    port: int


class Cluster:
    """Two app servers, the clock(s) and the environment they share."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.procs: list[Proc] = []
        self.servers: list[Server] = []
        self.clocks: list[Proc] = []

    def _proc(self, name: str, argv: list[str]) -> Proc:
        proc = Proc(name, argv, self.env, self.logs / f"{name}.log").start()
        self.procs.append(proc)
        return proc

    def start_server(self, name: str) -> Server:
        port = free_port()
        argv = [
            PYTHON,
            "-m",
            "uvicorn",
            "blackjack_site.asgi:application",
            "--host",
            HOST,
            "--port",
            str(port),
            "--lifespan",
            "off",
            "--no-access-log",
            "--log-level",
            "warning",
        ]
        server = Server(self._proc(name, argv), port)
        self.servers.append(server)
        return server

    def start_clock(self, name: str) -> Proc:
        clock = self._proc(name, [PYTHON, "manage.py", "table_clock", "--interval", "0.1"])
        self.clocks.append(clock)
        return clock

    def wait_until_serving(self, server: Server, timeout: float = 30) -> None:
        def answers() -> bool:
            if not server.proc.alive():
                pytest.fail(f"{server.proc.name} exited:\n{server.proc.output()}")
            try:
                conn = http.client.HTTPConnection(HOST, server.port, timeout=5)
                conn.request("GET", "/accounts/login/")
                status = conn.getresponse().status
                conn.close()
            except OSError:
                return False
            if status != 200:
                pytest.fail(f"{server.proc.name} answered {status}:\n{server.proc.output()}")
            return True

        wait_for(answers, timeout, f"{server.proc.name} to answer", step=0.1)

    def wait_until_ticking(self, clock: Proc, timeout: float = 30) -> None:
        def ticking() -> bool:
            if not clock.alive():
                pytest.fail(f"{clock.name} exited:\n{clock.output()}")
            return "table clock: ticking" in clock.output()

        wait_for(ticking, timeout, f"{clock.name} to tick", step=0.05)

    def kill_all(self) -> None:
        for proc in self.procs:
            proc.kill()


# --------------------------------------------------------------------------- clients


class Player:
    """A logged-in player's client: a list of app servers, the first preferred; when one
    does not answer it moves on to the next (actions and the live stream alike)."""

    def __init__(self, user: Any, ports: list[int]) -> None:
        self.user = user
        self.name = user.get_username()
        self.ports = ports
        self.index = 0
        self.lock = threading.Lock()
        self.csrf = get_random_string(32)
        self.session_key = self._session()
        self.served_by: list[tuple[str, int]] = []  # (action, port)
        self.versions_after: list[int] = []  # the table's version after each action

    def _session(self) -> str:
        """A database session, as a login would leave it (the servers' cached_db engine
        finds it in the database on a cache miss)."""
        session = SessionStore()
        session[SESSION_KEY] = str(self.user.pk)
        session[BACKEND_SESSION_KEY] = SESSION_BACKEND
        session[HASH_SESSION_KEY] = self.user.get_session_auth_hash()
        session.save(must_create=True)
        return session.session_key

    @property
    def port(self) -> int:
        with self.lock:
            return self.ports[self.index]

    def fail_over(self, port: int) -> None:
        with self.lock:
            if self.ports[self.index] == port and self.index + 1 < len(self.ports):
                self.index += 1

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"sessionid={self.session_key}; csrftoken={self.csrf}"}

    def post(self, table_id: int, action: str, **fields: Any) -> int:
        """POSTs an action as htmx does; the status (200 applied, 409 stale, 422 refused)."""
        body = urlencode(fields)
        headers = {
            **self.headers(),
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        for _ in range(len(self.ports)):
            port = self.port
            conn = http.client.HTTPConnection(HOST, port, timeout=15)
            try:
                conn.request("POST", f"/tables/{table_id}/{action}/", body=body, headers=headers)
                status = conn.getresponse().status
            except ConnectionRefusedError:
                self.fail_over(port)
                continue
            finally:
                conn.close()
            self.served_by.append((action, port))
            return status
        raise AssertionError(f"{self.name}: no app server answered {action}")

    def act(self, table_id: int, action: str, **fields: Any) -> None:
        seat = Seat.objects.get(table_id=table_id, player=self.user)
        status = self.post(table_id, action, version=seat.version, **fields)
        assert status == 200, f"{self.name}'s {action} {fields} answered {status}"
        self.versions_after.append(SharedTable.objects.get(pk=table_id).version)


@dataclass
class Connection:
    port: int
    last_event_id: int
    started: float
    log_ids: list[int] = field(default_factory=list)


class Reader(threading.Thread):
    """The player's live stream, read as EventSource does: on a dropped or ended stream it
    waits ``retry`` and reconnects with Last-Event-ID (to the next server when one does not
    answer). Records every ``log`` event's id in the order received."""

    def __init__(self, player: Player, table_id: int) -> None:
        super().__init__(name=f"sse-{player.name}", daemon=True)
        self.player = player
        self.table_id = table_id
        self.last_id = 0  # everything from the table's first event
        self.retry = 1.0
        self.log: list[int] = []
        self.arrived: dict[int, float] = {}
        self.table_messages = 0
        self.connections: list[Connection] = []
        self.errors: list[str] = []
        self.stopping = threading.Event()
        self._conn: http.client.HTTPConnection | None = None

    def stop(self) -> None:
        self.stopping.set()
        conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)
        self.join(timeout=10)

    def run(self) -> None:
        while not self.stopping.is_set():
            port = self.player.port
            try:
                self._read_stream(port)
            except ConnectionRefusedError:
                self.player.fail_over(port)
            except (OSError, http.client.HTTPException) as error:
                if not self.stopping.is_set():
                    self.errors.append(f"{port}: {error!r}")
            finally:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
            self.stopping.wait(self.retry)

    def _read_stream(self, port: int) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=STREAM_SECONDS + 5)
        self._conn = conn
        conn.request(
            "GET",
            f"/tables/{self.table_id}/events/",
            headers={
                **self.player.headers(),
                "Accept": "text/event-stream",
                "Last-Event-ID": str(self.last_id),
            },
        )
        response = conn.getresponse()
        if response.status != 200:
            self.errors.append(f"{port}: status {response.status}")
            return
        current = Connection(port, self.last_id, time.monotonic())
        self.connections.append(current)
        buffer = b""
        while not self.stopping.is_set():
            chunk = response.read1(65536)
            if not chunk:
                return  # the stream ended (its lifetime) or the server went away
            buffer += chunk.replace(b"\r\n", b"\n")
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                self._message(block.decode(), current)

    def _message(self, block: str, current: Connection) -> None:
        event, event_id = "message", None
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                event = value
            elif name == "id":
                event_id = value
            elif name == "retry" and value.isdigit():
                self.retry = int(value) / 1000
        if event_id is None:
            return
        if event == "log":
            seq = int(event_id)
            self.log.append(seq)
            current.log_ids.append(seq)
            self.arrived.setdefault(seq, time.monotonic())
        elif event == "table":
            self.table_messages += 1
        self.last_id = int(event_id)


class RedisNews(threading.Thread):
    """Listens on the live channel: which (table, seq) news the processes sent via Redis."""

    def __init__(self, url: str) -> None:
        super().__init__(name="redis-news", daemon=True)
        import redis

        self.client = redis.Redis.from_url(url, socket_connect_timeout=2)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(live.CHANNEL)
        self.news: list[tuple[int, int]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            message = self.pubsub.get_message(timeout=0.1)
            if message and message.get("type") == "message":
                try:
                    table_id, seq = (int(part) for part in message["data"].split(b":", 1))
                except ValueError:
                    continue  # not news: another test's junk on the shared channel
                self.news.append((table_id, seq))

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=3)
        self.pubsub.close()
        self.client.close()


# --------------------------------------------------------------------------- fixtures


def _redis_or_skip(url: str) -> None:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
        client.ping()
        client.flushdb()
        client.close()
    except Exception as error:
        message = f"no Redis answering at {url} ({error})"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def _database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or HOST
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def cluster(transactional_db, tmp_path) -> Iterator[Cluster]:
    if connection.vendor != "postgresql":
        pytest.skip("postgres_only: the app servers share one PostgreSQL database")
    _redis_or_skip(REDIS_URL)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("COV_CORE_", "PYTEST_")) and key != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    env.update(
        DJANGO_SETTINGS_MODULE="blackjack_site.settings",
        DATABASE_URL=_database_url(),
        REDIS_URL=REDIS_URL,
        TABLE_CLOCK="external",
        TABLE_STREAM_SECONDS=str(STREAM_SECONDS),
        DEBUG="1",
        SECRET_KEY=settings.SECRET_KEY,
        ALLOWED_HOSTS=f"{HOST},localhost",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    env.pop("TEST_DATABASE_NAME", None)
    # The servers' connections are closed with them; the test's own must not hold the
    # table rows (autocommit, no transaction: transactional_db).
    cluster = Cluster(env, tmp_path)
    try:
        yield cluster
    finally:
        cluster.kill_all()


# --------------------------------------------------------------------------- the table


def stack_shoe(table_id: int, cards: list[str]) -> None:
    """``cards`` on top of the shoe, under the table's row lock (the servers and the clock
    may be saving the table at the same moment)."""
    with transaction.atomic():
        table = SharedTable.objects.select_for_update().get(pk=table_id)
        assert table.phase == SharedTable.Phase.INTERMISSION
        state = with_cards_on_top(table.state, cards)
        SharedTable.objects.filter(pk=table_id).update(state=state)


def table_now(table_id: int) -> tuple[SharedTable, Engine]:
    table = SharedTable.objects.get(pk=table_id)
    return table, game_from_json(table.state)


def box_of(table_id: int, player: Player) -> int | None:
    return Seat.objects.get(table_id=table_id, player=player.user).box


def event_seqs(table_id: int, kind: str, after: int = 0) -> list[int]:
    return list(
        TableEvent.objects.filter(table_id=table_id, kind=kind, seq__gt=after)
        .order_by("seq")
        .values_list("seq", flat=True)
    )


def bet_and_ready(table_id: int, player: Player) -> None:
    """A chip for the first round; the bet then stays for the next ones (press Ready)."""
    if Seat.objects.get(table_id=table_id, player=player.user).bet_cents == 0:
        player.act(table_id, "chip", chip=BET_DOLLARS)
    player.act(table_id, "ready")


def deal(table_id: int, players: list[Player], cards: list[str], round_number: int) -> int:
    """Both bet and press Ready (the intermission ends early, T-5); the round's first seq."""
    wait_for(
        lambda: table_now(table_id)[0].phase == SharedTable.Phase.INTERMISSION,
        10,
        "the intermission",
    )
    stack_shoe(table_id, cards)
    for player in players:
        bet_and_ready(table_id, player)
    table, _ = table_now(table_id)
    assert (table.phase, table.round_number) == (SharedTable.Phase.ROUND, round_number)
    dealt = event_seqs(table_id, "round_dealt")
    return dealt[-1]


def in_turn(table_id: int, players: list[Player]) -> Player | None:
    """The player whose box is in turn (None: no turn now)."""
    _, engine = table_now(table_id)
    box = engine.box_in_turn()
    if box is None:
        return None
    for player in players:
        if box_of(table_id, player) == box:
            return player
    raise AssertionError(f"box {box} in turn belongs to nobody here")


def play_out(
    table_id: int,
    players: list[Player],
    plans: dict[str, list[str]],
    before_turn: Callable[[Player], None] | None = None,
) -> None:
    """Plays the round to its end: each player in turn plays their plan, then stands."""
    seen: set[str] = set()
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "the round did not end"
        table, engine = table_now(table_id)
        if table.phase == SharedTable.Phase.INTERMISSION:
            return
        player = in_turn(table_id, players)
        if player is None:
            time.sleep(0.05)
            continue
        if player.name not in seen:
            seen.add(player.name)
            if before_turn is not None:
                before_turn(player)
                continue  # the hook may have moved the round on: read it again
        plan = plans.setdefault(player.name, [])
        player.act(table_id, "play", play=plan.pop(0) if plan else "stand")


def readers_caught_up(table_id: int, readers: list[Reader], timeout: float = 10) -> int:
    version = SharedTable.objects.get(pk=table_id).version
    wait_for(
        lambda: all(reader.last_id >= version for reader in readers),
        timeout,
        f"every stream to reach seq {version} "
        + str({reader.player.name: reader.last_id for reader in readers}),
    )
    return version


def assert_same_gapless_log(table_id: int, readers: list[Reader]) -> list[int]:
    version = readers_caught_up(table_id, readers)
    stored = list(
        TableEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", flat=True)
    )
    assert stored == list(range(1, version + 1)), "TableEvent.seq is not gapless"
    for reader in readers:
        assert reader.log[: len(stored)] == stored, (
            f"{reader.player.name}'s stream differs from the table's events: {reader.log}"
        )
    return stored


# --------------------------------------------------------------------------- the test


def test_two_app_servers_and_the_clock_share_one_table(cluster):
    started = time.monotonic()
    first, second = cluster.start_server("server1"), cluster.start_server("server2")
    clock = cluster.start_clock("clock1")
    cluster.wait_until_serving(first)
    cluster.wait_until_serving(second)
    cluster.wait_until_ticking(clock)

    news = RedisNews(REDIS_URL)
    news.start()
    ana_user, ben_user = PlayerFactory(username="ana"), PlayerFactory(username="ben")
    table = services.create_table(
        host=ana_user,
        name="Scale-out",
        public=True,
        seat_count=5,
        intermission_seconds=10,
        options={"trivia_mode": False, "side_bets": False, "turn_seconds": TURN_SECONDS},
    )
    table_id = table.pk
    # Ana prefers server 1 (server 2 as her fallback); Ben uses server 2 only.
    ana = Player(ana_user, [first.port, second.port])
    ben = Player(ben_user, [second.port])
    players = [ana, ben]
    readers = [Reader(ana, table_id), Reader(ben, table_id)]
    for reader in readers:
        reader.start()
    try:
        wait_for(lambda: all(reader.connections for reader in readers), 10, "both streams to open")
        # Each app server listens on Redis (plus this test's own listener).
        wait_for(
            lambda: dict(news.client.pubsub_numsub(live.CHANNEL))[live.CHANNEL.encode()] >= 3,
            10,
            "both app servers to subscribe to the live channel on Redis",
        )

        # ------------------------------------------------ round 1: two servers, one table
        assert ana.post(table_id, "sit", seat=1, version=0) == 200
        assert ben.post(table_id, "sit", seat=2, version=0) == 200
        dealt_1 = deal(table_id, players, ROUND_1, 1)
        assert in_turn(table_id, players) is ana
        play_out(table_id, players, {"ana": ["hit"], "ben": []})
        stored = assert_same_gapless_log(table_id, readers)
        kinds = dict(TableEvent.objects.filter(table_id=table_id).values_list("seq", "kind"))
        assert [kinds[seq] for seq in stored if seq > dealt_1].count("hand_settled") == 2
        assert {port for _, port in ana.served_by} == {first.port}
        assert {port for _, port in ben.served_by} == {second.port}
        # The news crossed the servers through Redis: each server published its own
        # player's actions there (and both servers listen there, checked above).
        published = {seq for table, seq in news.news if table == table_id}
        assert set(ana.versions_after) <= published, (ana.versions_after, published)
        assert set(ben.versions_after) <= published, (ben.versions_after, published)

        # ---------------------- round 2: server 1 dies in Ana's turn, Ana goes on via 2
        deal(table_id, players, ROUND_2, 2)
        ana_reader = readers[0]
        killed: dict[str, Any] = {}

        def kill_server_1(player: Player) -> None:
            if player is not ana or killed:
                return
            wait_for(
                lambda: ana_reader.last_id >= SharedTable.objects.get(pk=table_id).version,
                10,
                "Ana's stream to show her turn",
            )
            killed["received"] = ana_reader.last_id
            killed["at"] = time.monotonic()
            first.proc.kill()
            seat = Seat.objects.get(table_id=table_id, player=ana.user)
            _, engine = table_now(table_id)
            # T-14: the bet placed through server 1 is still there, in the seat and the box.
            assert seat.bet_cents == BET_DOLLARS * 100
            assert engine.round.boxes[seat.box].bet == BET_DOLLARS * 100
            ana.act(table_id, "play", play="hit")  # server 1 refuses to connect: server 2
            killed["hit_done"] = time.monotonic()
            killed["version_after_hit"] = SharedTable.objects.get(pk=table_id).version

        play_out(table_id, players, {"ana": [], "ben": []}, before_turn=kill_server_1)
        assert killed, "Ana's turn never came in round 2"
        assert ana.served_by[-2:] == [("play", second.port), ("play", second.port)]
        stored = assert_same_gapless_log(table_id, readers)
        after_kill = [c for c in ana_reader.connections if c.started > killed["at"]]
        assert after_kill, "Ana's stream never reconnected"
        fallback = after_kill[0]
        assert fallback.port == second.port
        # It resumed from the last event it had from server 1 and caught up with what
        # happened while it was away (her Hit through server 2), nothing lost or repeated.
        assert fallback.last_event_id == killed["received"]
        assert fallback.started > killed["hit_done"]
        assert fallback.log_ids and fallback.log_ids[0] == fallback.last_event_id + 1
        assert fallback.log_ids[-1] >= killed["version_after_hit"]
        assert len(set(ana_reader.log)) == len(ana_reader.log)
        table, _ = table_now(table_id)
        assert (table.phase, table.round_number) == (SharedTable.Phase.INTERMISSION, 2)
        round_2 = [seq for seq in stored if seq > killed["received"]]
        assert "round_over" in kinds_of(table_id, round_2)

        # ------------- round 3: the clock dies mid-turn; restarted, the turn times out once
        dealt_3 = deal(table_id, players, ROUND_3, 3)
        assert in_turn(table_id, players) is ana
        clock.kill()
        turn_deadline = SharedTable.objects.get(pk=table_id).deadline_ms
        assert turn_deadline is not None and turn_deadline > now_ms()
        wait_for(lambda: now_ms() > turn_deadline + 1000, TURN_SECONDS + 5, "the deadline")
        # Nobody applied it: no clock, and streams never apply deadlines.
        assert event_seqs(table_id, "timed_out", dealt_3) == []
        assert in_turn(table_id, players) is ana
        # Restarted -- as two clock processes at once, racing for the same deadline.
        restarted = [cluster.start_clock("clock2"), cluster.start_clock("clock3")]
        timed_out = wait_for(
            lambda: event_seqs(table_id, "timed_out", dealt_3), 30, "the turn to time out"
        )
        for proc in restarted:
            cluster.wait_until_ticking(proc)
        time.sleep(0.5)  # several more ticks of both clocks
        timed_out = event_seqs(table_id, "timed_out", dealt_3)
        assert len(timed_out) == 1, f"the turn timed out {len(timed_out)} times"
        event = TableEvent.objects.get(table_id=table_id, seq=timed_out[0])
        assert event.data["seat"] == 1
        assert in_turn(table_id, players) is ben  # the next box plays
        clock_version = SharedTable.objects.get(pk=table_id).version
        wait_for(
            lambda: clock_version in {seq for t, seq in news.news if t == table_id},
            5,
            "the clock's news on Redis",
        )
        play_out(table_id, players, {"ben": []})
        stored = assert_same_gapless_log(table_id, readers)
        assert len(event_seqs(table_id, "timed_out", dealt_3)) == 1
        for reader in readers:
            assert len(set(reader.log)) == len(reader.log), f"{reader.player.name}: repeats"
        # Only Ana's stream from the killed server broke; no stream was ever refused.
        assert readers[1].errors == []
        assert all(error.startswith(f"{first.port}: ") for error in readers[0].errors)
        assert not any("status" in error for error in readers[0].errors)
    finally:
        for reader in readers:
            reader.stop()
        news.stop()
    elapsed = time.monotonic() - started
    assert elapsed < 90, f"the scale-out test took {elapsed:.0f} s"


def kinds_of(table_id: int, seqs: list[int]) -> list[str]:
    return list(
        TableEvent.objects.filter(table_id=table_id, seq__in=seqs)
        .order_by("seq")
        .values_list("kind", flat=True)
    )
