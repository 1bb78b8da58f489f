"""The web path: each game action against a bare Django view, in process and under load.

Run from the repository root:  .venv/bin/python bench/web_bench.py [--repo PATH] [options]

The baseline is ``/bench/bare/`` (bench/bench_site/urls.py, which only this script loads): a
logged-in htmx post through the same middleware that runs one UPDATE and renders a tiny
template. Against it:

1. **In process** (Django's test client; SQLite in a temporary file, then PostgreSQL in a
   throwaway database on 127.0.0.1:5432, skipped with a message when it does not answer):
   one player plays rounds of the game as the page does (htmx posts, form-encoded as the
   page sends them, trivia mode, a bank of 20,000 questions); every action is timed in a
   pair with a bare request, the two in alternating order, until each action has
   ``--samples`` pairs (by the wall clock, or with ``--clock cpu`` by the thread's CPU
   time, steadier when other work shares the machine). Reported per action: the median of
   the pairs' ratios with its quartiles, the medians in ms, the SQL statements the action
   ran (transaction control — BEGIN, SAVEPOINT, RELEASE — counted apart: they are not
   queries, and PostgreSQL issues none as statements), and the median time it spent in
   ``render_table`` (the table's view model and template). Next round is posted
   only where the table offers it, as the page would; beside the actions, a round as the
   page plays it (the time of its game requests) is reported against one bare request.
2. **Under load** (PostgreSQL, gunicorn with ``--workers`` sync workers on 127.0.0.1 —
   2 × cores + 1 by default, as the README advises; ``--threads`` > 1 for gthread workers —
   ``--players`` simulated players, each a thread posting as fast as answers come):
   ``--seconds`` split into six windows that alternate bare posts and game play, so both
   rates are measured in the same run; reported: game actions/s against bare requests/s,
   rounds dealt/s (the same work whatever requests a checkout's round takes), what the
   players posted by action, refusals (409/422) and errors (5xx, failed connections).
   Everything stops by itself. Three more windows of the same length post to
   ``/bench/floor/`` (below).

Beside the actions, both runs measure a reference that is not a game action:
``/bench/floor/``, the least an action's database work can be — the player's game row read
with its lock and written back in one transaction, in raw SQL, the bare view's template —
so the report shows how much of the goal the transaction alone takes on this machine.

``--repo`` runs the same measurements against another checkout (e.g. a ``git worktree``
of an older commit): this script and bench/bench_site come from here, the site from there.
Sessions and the cache use Redis database 14 on 127.0.0.1:6379 (flushed before each run)
where the site reads ``REDIS_URL``.
"""

from __future__ import annotations

import argparse
import html as html_lib
import http.client
import importlib
import importlib.util
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
REDIS_URL = "redis://127.0.0.1:6379/14"
BANK_SIZE = 20_000
GOALS = {"ratio": 2.0, "load": 0.6, "queries": 5}
# The reference row of the in-process run (bench_site's floor view): not a game action.
FLOOR = "floor"
FLOOR_NAME = "(reference) lock + write the game row, raw SQL"
FORM = "application/x-www-form-urlencoded"
TRANSACTION_CONTROL = re.compile(r"^\s*(BEGIN|SAVEPOINT|RELEASE|COMMIT|ROLLBACK)\b", re.I)


# --------------------------------------------------------------------- environment


def site_env(repo: Path, database_url: str) -> dict[str, str]:
    """The environment of a child process that runs the site of ``repo``."""
    dropped = {"DATABASE_URL", "DEBUG", "TEST_DATABASE_NAME", "DJANGO_SETTINGS_MODULE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env.update(
        # DEBUG is on while the project's settings are read (no SECRET_KEY needed);
        # bench_site.settings turns it off for the run.
        DEBUG="1",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="bench_site.settings",
        REDIS_URL=REDIS_URL,
        PYTHONPATH=os.pathsep.join([str(BENCH), str(repo)]),
        LOG_LEVEL="ERROR",
    )
    return env


def flush_redis() -> None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    except Exception as error:  # the site then runs without it only if it does not use it
        print(f"(Redis not flushed: {error})")


def postgres_answers() -> bool:
    try:
        import psycopg

        with psycopg.connect(f"{PG_SERVER}/postgres", connect_timeout=3):
            return True
    except Exception:
        return False


@contextmanager
def throwaway_postgres(name: str) -> Iterator[str]:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_child(repo: Path, database_url: str, *args: str) -> dict[str, Any]:
    """Run this script as a Django process of ``repo``; its last output line is JSON."""
    result = subprocess.run(  # noqa: S603 - our own script
        [sys.executable, str(Path(__file__).resolve()), *args],
        cwd=repo,
        env=site_env(repo, database_url),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if result.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------- child: the site


def setup_site(bank: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    fill_bank(bank)


def fill_bank(size: int) -> None:
    """``size`` active questions, a third of each difficulty, inserted in bulk."""
    from trivia.models import Category, Question, question_fingerprint

    category, _ = Category.objects.get_or_create(name="Bench")
    rows = []
    for number in range(size):
        text, answer = f"Bench question {number}?", f"Right {number}"
        rows.append(
            Question(
                category=category,
                text=text,
                difficulty=("easy", "medium", "hard")[number % 3],
                correct_answer=answer,
                incorrect_answers=[f"Wrong {number} a", f"Wrong {number} b", f"Wrong {number} c"],
                fingerprint=question_fingerprint(text, answer),
            )
        )
    Question.objects.bulk_create(rows, batch_size=2_000)


class StatementCounter:
    """Counts the SQL statements run through it: queries, and transaction control apart."""

    def __init__(self) -> None:
        self.queries = 0
        self.control = 0

    def __call__(self, execute, sql, params, many, context):
        if TRANSACTION_CONTROL.match(sql):
            self.control += 1
        else:
            self.queries += 1
        return execute(sql, params, many, context)


def child_in_process(samples: int, clock_name: str = "wall") -> dict[str, Any]:
    """Play rounds with the test client, timing each action in a pair with a bare post
    (``clock_name`` "cpu": this thread's CPU time, which another process on the machine
    disturbs far less than the wall clock)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from game.models import Game, TriviaAttempt
    from game.rules.no_random import NoRandom
    from game.rules.records import ALLOWED
    from game.rules.storage import game_from_json

    # The modules of another checkout may sit elsewhere (before game/core/ they were loose).
    once_keys = importlib.import_module(
        "game.core.once_keys" if importlib.util.find_spec("game.core") else "game.once_keys"
    )

    clock = time.thread_time if clock_name == "cpu" else time.perf_counter
    # The time an action spends in the table's render (its view model and template), where
    # the checkout has a render_table (game.views, or game.views.rendering): reported
    # beside the action's own time. Every views module that took the function by name is
    # given the timed one.
    rendering = [0.0]
    views = importlib.import_module("game.views")
    try:
        importlib.import_module("game.views.rendering")
        importlib.import_module("game.views.actions")
        importlib.import_module("game.views.table")
    except ImportError:  # a checkout whose views were one module
        pass
    home = sys.modules.get("game.views.rendering", views)
    render_table = getattr(home, "render_table", None)
    if render_table is not None:

        def timed_render_table(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return render_table(*args, **kwargs)
            finally:
                rendering[0] += clock() - start

        for name, module in list(sys.modules.items()):
            took_it = getattr(module, "render_table", None) is render_table
            if name.startswith("game.views") and took_it:
                module.render_table = timed_render_table  # type: ignore[attr-defined]
    render_times: dict[str, list[float]] = defaultdict(list)

    user = get_user_model().objects.create_user(username="bench", password="bench-pw-123")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    chooser = random.Random(14)
    pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    queries: dict[str, list[tuple[int, int]]] = defaultdict(list)
    flip = [False]

    # The table the last action answered with: Next round is posted only where it offers it
    # (a checkout whose outcome panel takes the next bet at once has no such request).
    last_page = [""]
    # Per timed round: the time of every game request it took, the table page aside.
    round_spent: list[float] = []

    def request(path: str, data: dict[str, str] | None, htmx: bool) -> tuple[float, int, int, int]:
        counter = StatementCounter()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        with connection.execute_wrapper(counter):
            start = clock()
            if data is None:
                response = client.get(path, **headers)
            else:
                # Encoded as htmx and a plain form send it (the test client's default,
                # multipart, costs the server more to parse than the page ever makes it).
                response = client.post(path, urlencode(data), content_type=FORM, **headers)
            elapsed = clock() - start
        if path.startswith("/games/"):
            last_page[0] = response.content.decode()
        return elapsed, response.status_code, counter.queries, counter.control

    def bare() -> float:
        elapsed, status, _, _ = request("/bench/bare/", {}, True)
        assert status == 200, status
        return elapsed

    def new_game() -> int:
        response = client.post("/games/new/", {once_keys.FIELD: once_keys.issue("new_game")})
        return int(response["Location"].rstrip("/").rsplit("/", 1)[1])

    game_id = new_game()

    def act(name: str, action: str | None, data: dict[str, str] | None = None, timed=True):
        game = Game.objects.get(pk=game_id)
        if action is None:  # the table page itself, a full GET
            path, payload, htmx = f"/games/{game_id}/", None, False
        elif action == FLOOR:  # the reference: the least an action's database work can be
            path, payload, htmx = "/bench/floor/", {"game": str(game_id)}, True
        else:
            path, htmx = f"/games/{game_id}/{action}/", True
            payload = {"version": str(game.version), **(data or {})}
        if not timed:
            request(path, payload, htmx)
            return
        flip[0] = not flip[0]
        rendering[0] = 0.0
        if flip[0]:
            bare_s = bare()
            action_s, status, count, control = request(path, payload, htmx)
        else:
            action_s, status, count, control = request(path, payload, htmx)
            bare_s = bare()
        assert status == 200, (name, status)
        if action not in (None, FLOOR):
            round_spent[-1] += action_s
        render_times[name].append(rendering[0])
        pairs[name].append((action_s, bare_s))
        queries[name].append((count, control))

    wanted = [
        FLOOR_NAME,
        "chip",
        "deal",
        "table page",
        "hit, asks the difficulty",
        "difficulty (asks the question)",
        "hit with the difficulty (asks the question)",
        "answer, right (deals the card)",
        "answer, wrong",
        "stand",
    ]
    # Next round and a wrong answer's Continue only where the checkout still asks for them:
    # measured when they come, never waited for.
    rounds = 0
    warmup = 5
    while rounds < 60 * samples and (
        rounds < warmup or min(len(pairs[name]) for name in wanted) < samples
    ):
        timed = rounds >= warmup
        rounds += 1
        game = Game.objects.get(pk=game_id)
        if game.status == "over":
            game_id = new_game()
            game = Game.objects.get(pk=game_id)
        state = game.state
        if timed:
            round_spent.append(0.0)
        offers_next_round = "next-round" in FORM_ACTIONS.findall(last_page[0])
        if state.get("round") and state["round"]["phase"] == "round_over" and offers_next_round:
            act("next round", "next-round", timed=timed)
        act(FLOOR_NAME, FLOOR, timed=timed)
        act("chip", "chip", {"chip": "5"}, timed=timed)
        act("deal", "deal", {"amount": "5.00"}, timed=timed)
        if rounds % 2:
            act("table page", None, timed=timed)
        hits = 0
        for _ in range(12):
            game = Game.objects.get(pk=game_id)
            engine = game_from_json(game.state, rng=NoRandom("bench"))
            if not engine.round_in_progress or game.status == "over":
                break
            attempt = (
                TriviaAttempt.objects.filter(game_id=game_id, applied=False)
                .select_related("question")
                .first()
            )
            phase = engine.round.phase
            if attempt is not None and attempt.answered_at is None:
                right = chooser.random() < 0.7
                answer = attempt.question.correct_answer
                if not right:
                    answer = next(text for text in attempt.answers_shown if text != answer)
                name = "answer, right (deals the card)" if right else "answer, wrong"
                act(name, "answer", {"answer": answer}, timed=timed)
            elif attempt is not None:
                act("continue", "continue", timed=timed)
            elif game.trivia_choice_for:
                act("difficulty (asks the question)", "difficulty", {"difficulty": "medium"}, timed)
            elif phase == "player_turn":
                legal = engine.legal_actions()
                if hits == 0 and legal.get("hit") == ALLOWED:
                    hits += 1
                    if rounds % 4 < 2:
                        act("hit, asks the difficulty", "hit", timed=timed)
                    else:
                        act(
                            "hit with the difficulty (asks the question)",
                            "hit",
                            {"difficulty": "medium"},
                            timed=timed,
                        )
                else:
                    act("stand", "stand", timed=timed)
            elif phase in ("insurance", "even_money"):
                act("insurance (declined)", "insurance", {"choice": "decline"}, timed=timed)
            elif phase == "early_surrender":
                act("early surrender (declined)", "early-surrender", {"choice": "decline"}, timed)
            else:
                break
    results = {}
    for name, measured in pairs.items():
        ratios = sorted(action / bare for action, bare in measured)
        counts = [count for count, _ in queries[name]]
        controls = [control for _, control in queries[name]]
        results[name] = {
            "n": len(measured),
            "ratio": statistics.median(ratios),
            "q1": ratios[len(ratios) // 4],
            "q3": ratios[(3 * len(ratios)) // 4],
            "action_ms": statistics.median(a for a, _ in measured) * 1000,
            "bare_ms": statistics.median(b for _, b in measured) * 1000,
            "queries_median": statistics.median(counts),
            "queries_max": max(counts),
            "control_max": max(controls),
            "render_ms": statistics.median(render_times[name]) * 1000,
        }
    bare_ms = statistics.median(b for measured in pairs.values() for _, b in measured) * 1000
    spent_ms = statistics.mean(round_spent) * 1000 if round_spent else 0.0
    return {
        "rounds": rounds,
        "actions": results,
        # A round as the page plays it: its game requests' time, against one bare request.
        "round": {"ms": spent_ms, "bare_ms": bare_ms, "ratio": spent_ms / bare_ms},
    }


def child_prepare(players: int) -> dict[str, Any]:
    """Players with a game each, logged in: their session and CSRF cookies."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.utils.crypto import get_random_string

    from game import services

    store = import_module(settings.SESSION_ENGINE).SessionStore
    prepared = []
    for number in range(players):
        user = get_user_model().objects.create_user(username=f"load{number}", password="x-pw-1234")
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = next(
            path for path in settings.AUTHENTICATION_BACKENDS if path.endswith("ModelBackend")
        )
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        game = services.new_game(user=user)
        prepared.append(
            {"session": session.session_key, "csrf": get_random_string(32), "game": game.pk}
        )
    return {"players": prepared, "session_engine": settings.SESSION_ENGINE}


def child_main(args: argparse.Namespace) -> int:
    setup_site(args.bank)
    if args.child == "inprocess":
        result = child_in_process(args.samples, args.clock)
    else:
        result = child_prepare(args.players)
    print(json.dumps(result))
    return 0


# --------------------------------------------------------------------- load


FORM_ACTIONS = re.compile(r'hx-post="/games/\d+/([a-z-]+)/"')
VERSION = re.compile(r'name="version" value="(\d+)"')
ANSWERS = re.compile(r'name="answer" value="([^"]*)"')
PLAY_BUTTONS = re.compile(r'<button[^>]*formaction="/games/\d+/(hit|stand)/"[^>]*>')
# New Game's one-time key (game/core/once_keys.py), as the game-over moment renders it.
ONCE_KEY = re.compile(r'name="once_key" value="([^"]+)"')


class Player:
    """One simulated player: plays its game from what the table it was last sent shows."""

    def __init__(self, port: int, prepared: dict[str, Any], seed: int) -> None:
        self.port = port
        self.game = prepared["game"]
        self.csrf = prepared["csrf"]
        self.cookie = f"sessionid={prepared['session']}; csrftoken={self.csrf}"
        self.page = ""
        self.rng = random.Random(seed)
        # What this player posted, by action (one thread per player: no lock needed).
        self.posted: Counter[str] = Counter()

    def send(self, method: str, path: str, data: dict[str, str] | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": self.cookie, "HX-Request": "true", "X-CSRFToken": self.csrf}
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, response.read().decode(), response.getheader("Location")
        finally:
            connection.close()

    def bare(self) -> int:
        return self.send("POST", "/bench/bare/", {})[0]

    def floor(self) -> int:
        return self.send("POST", "/bench/floor/", {"game": str(self.game)})[0]

    def next_action(self) -> tuple[str, dict[str, str]]:
        page = self.page
        forms = set(FORM_ACTIONS.findall(page))
        answers = [html_lib.unescape(text) for text in ANSWERS.findall(page)]
        if "answer" in forms and answers:
            return "answer", {"answer": self.rng.choice(answers)}
        for action in ("continue", "next-round"):
            if action in forms:
                return action, {}
        if "difficulty" in forms:
            return "difficulty", {"difficulty": "hard"}
        for offer in ("insurance", "early-surrender", "extra-bet"):
            if offer in forms:
                return offer, {"choice": "decline"}
        allowed = {
            match.group(1)
            for match in PLAY_BUTTONS.finditer(page)
            if " disabled" not in match.group(0)
        }
        if "hit" in allowed and self.rng.random() < 0.5:
            return "hit", {"difficulty": "hard"}
        if "stand" in allowed:
            return "stand", {}
        if "deal" in forms:
            return "deal", {"amount": "5.00"}
        return "", {}

    def play(self) -> int:
        """One game request; a finished game is replaced by a new one."""
        if not self.page:
            self.posted["(table page)"] += 1
            status, self.page, _ = self.send("GET", f"/games/{self.game}/")
            return status
        action, data = self.next_action()
        self.posted[action or "(new game)"] += 1
        if not action:
            key = ONCE_KEY.search(self.page)
            form = {"once_key": html_lib.unescape(key.group(1))} if key else {}
            status, _, location = self.send("POST", "/games/new/", form)
            if location:
                self.game = int(location.rstrip("/").rsplit("/", 1)[1])
            self.page = ""
            return status
        version = VERSION.search(self.page)
        payload = {"version": version.group(1) if version else "0", **data}
        status, body, _ = self.send("POST", f"/games/{self.game}/{action}/", payload)
        if status in (200, 409, 422):
            self.page = body
        return status


def run_window(players: list[Player], kind: str, seconds: float) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def loop(player: Player) -> None:
        post = {"bare": player.bare, FLOOR: player.floor, "game": player.play}[kind]
        while time.monotonic() < deadline:
            try:
                status = post()
            except Exception:
                status = 0
            with lock:
                if status in (200, 302):
                    counts["ok"] += 1
                elif status in (409, 422):
                    counts["refused"] += 1
                else:
                    counts["errors"] += 1

    threads = [threading.Thread(target=loop, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return dict(counts)


def load_run(repo: Path, args: argparse.Namespace, label: str) -> dict[str, Any] | None:
    if not postgres_answers():
        print("PostgreSQL does not answer on 127.0.0.1:5432: load run skipped.")
        return None
    flush_redis()
    with throwaway_postgres(f"web_bench_load_{os.getpid()}") as url:
        prepared = run_child(repo, url, "--child", "prepare", "--players", str(args.players))
        port = 18000 + os.getpid() % 1000
        gunicorn = BENCH.parent / ".venv" / "bin" / "gunicorn"
        if not gunicorn.exists():
            gunicorn = Path(sys.executable).parent / "gunicorn"
        server = subprocess.Popen(  # noqa: S603 - fixed argv
            [
                str(gunicorn),
                "bench_site.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--threads",
                str(args.threads),
                "--log-level",
                "warning",
                "--timeout",
                "30",
            ],
            cwd=repo,
            env=site_env(repo, url),
        )
        try:
            _wait_for(port)
            players = [Player(port, p, seed) for seed, p in enumerate(prepared["players"])]
            kinds = ("bare", "game", FLOOR)
            totals: dict[str, dict[str, int]] = {kind: defaultdict(int) for kind in kinds}
            window = args.seconds / 6
            # The floor's windows come on top of the bare view's and the game's six.
            for kind in kinds * 3:
                for key, value in run_window(players, kind, window).items():
                    totals[kind][key] += value
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    seconds = args.seconds / 2
    posted = sum((player.posted for player in players), Counter())
    bare_rate = totals["bare"]["ok"] / seconds
    game_rate = (totals["game"]["ok"] + totals["game"]["refused"]) / seconds
    result = {
        "label": label,
        "session_engine": prepared["session_engine"],
        "bare_per_s": bare_rate,
        "game_per_s": game_rate,
        "ratio": game_rate / bare_rate if bare_rate else 0.0,
        "floor_per_s": totals[FLOOR]["ok"] / seconds,
        "game_refused": totals["game"]["refused"],
        "errors": totals["bare"]["errors"] + totals["game"]["errors"] + totals[FLOOR]["errors"],
        # Rounds dealt per second: the same work in both checkouts, whatever requests a
        # round takes (a checkout whose flow needs fewer requests a round serves fewer).
        "rounds_per_s": posted["deal"] / seconds,
        "posted": dict(posted.most_common()),
    }
    print(
        f"load ({label}; gunicorn {args.workers} "
        f"{'sync workers' if args.threads == 1 else f'gthread workers x {args.threads} threads'}, "
        f"{args.players} players, "
        f"{args.seconds:.0f} s in six alternating windows (+ three of the reference), "
        f"PostgreSQL, sessions: "
        f"{result['session_engine'].rsplit('.', 1)[1]}):"
    )
    print(
        f"  bare view {bare_rate:7.1f} requests/s; game {game_rate:7.1f} actions/s "
        f"= {result['ratio']:.2f}x bare (goal >= {GOALS['load']}x); "
        f"refused (409/422) {result['game_refused']}, errors {result['errors']}"
    )
    print(
        f"  rounds dealt {result['rounds_per_s']:6.1f}/s = "
        f"{result['rounds_per_s'] / bare_rate if bare_rate else 0.0:.3f}x bare; "
        f"{sum(posted.values()) / max(posted['deal'], 1):.2f} requests a round; posted: "
        + ", ".join(f"{name} {count}" for name, count in posted.most_common())
    )
    print(
        f"  (reference) lock + write the game row, raw SQL: {result['floor_per_s']:7.1f} "
        f"requests/s = {result['floor_per_s'] / bare_rate if bare_rate else 0.0:.2f}x bare"
    )
    return result


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer within 30 s")


# --------------------------------------------------------------------- report


def print_in_process(label: str, database: str, result: dict[str, Any]) -> bool:
    print(f"in process ({label}, {database}; {result['rounds']} rounds played):")
    print(
        f"  {'action':46} {'n':>3} {'x bare':>7} {'(quartiles)':>13} {'ms':>6} {'bare ms':>7} "
        f"{'queries':>7} {'render ms':>9}"
    )
    met = True
    for name, row in result["actions"].items():
        if name != FLOOR_NAME:
            met &= row["ratio"] <= GOALS["ratio"] and row["queries_max"] <= GOALS["queries"]
        print(
            f"  {name:46} {row['n']:3} {row['ratio']:7.2f} "
            f"({row['q1']:.2f}-{row['q3']:.2f}) {row['action_ms']:6.2f} {row['bare_ms']:7.2f} "
            f"{row['queries_max']:>4} +{row['control_max']} {row['render_ms']:9.2f}"
        )
    spent = result["round"]
    print(
        f"  a round as the page plays it (its game requests): {spent['ms']:.2f} ms "
        f"= {spent['ratio']:.2f}x one bare request ({spent['bare_ms']:.2f} ms)"
    )
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to measure")
    parser.add_argument("--label", default="", help="what to call the checkout in the output")
    parser.add_argument("--samples", type=int, default=40, help="pairs per action")
    parser.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="in process: time the pairs by the wall clock or by the thread's CPU time",
    )
    parser.add_argument("--bank", type=int, default=BANK_SIZE, help="questions in the bank")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the load run")
    parser.add_argument(
        "--workers",
        type=int,
        default=2 * (os.cpu_count() or 1) + 1,
        help="gunicorn workers (default 2 x cores + 1, as the README advises)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per worker (> 1: gthread workers)"
    )
    parser.add_argument("--skip", choices=["sqlite", "postgres", "load"], action="append")
    parser.add_argument("--child", choices=["inprocess", "prepare"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child_main(args)
    repo = args.repo.resolve()
    label = args.label or ("this checkout" if repo == REPO else str(repo))
    skip = set(args.skip or [])
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"cores: {os.cpu_count()}; load average before: {load_average}")
    print(f"bank: {args.bank:,} questions; {args.samples} pairs per action")
    met = True
    flush_redis()
    child = ["--child", "inprocess", "--samples", str(args.samples), "--bank", str(args.bank)]
    child += ["--clock", args.clock]
    if "sqlite" not in skip:
        with tempfile.TemporaryDirectory() as folder:
            result = run_child(repo, f"sqlite:///{folder}/bench.sqlite3", *child)
        met &= print_in_process(label, "SQLite", result)
    if "postgres" not in skip:
        if postgres_answers():
            flush_redis()
            with throwaway_postgres(f"web_bench_{os.getpid()}") as url:
                result = run_child(repo, url, *child)
            met &= print_in_process(label, "PostgreSQL", result)
        else:
            print("PostgreSQL does not answer on 127.0.0.1:5432: skipped.")
    if "load" not in skip:
        loaded = load_run(repo, args, label)
        if loaded is not None:
            met &= loaded["ratio"] >= GOALS["load"] and loaded["errors"] == 0
    print(
        f"goals: each action <= {GOALS['ratio']}x the bare view in process, <= "
        f"{GOALS['queries']} queries; under load >= {GOALS['load']}x with no errors: "
        f"{'met' if met else 'NOT met'}"
    )
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average after: {load_average}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
