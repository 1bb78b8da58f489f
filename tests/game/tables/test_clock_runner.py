"""The table clock (game/tables/clock_runner.py, manage.py table_clock): it calls
services.apply_due_deadlines on every tick, survives errors, and stops on a signal."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from django.core.management import call_command
from django.db import OperationalError

from game.tables import clock_runner

# The loop tidies the thread's database connections after each tick: with the database
# allowed, inside the test's transaction (which it must leave alone).
pytestmark = pytest.mark.django_db


class FakeApply:
    """Stands in for game.tables.services.apply_due_deadlines."""

    def __init__(self, results=(), on_call=None) -> None:
        self.results = list(results)
        self.calls = 0
        self.on_call = on_call

    def __call__(self) -> int:
        self.calls += 1
        if self.on_call is not None:
            self.on_call(self.calls)
        result = self.results.pop(0) if self.results else 0
        if isinstance(result, BaseException):
            raise result
        return result


@pytest.fixture
def fake_apply(monkeypatch):
    fake = FakeApply(results=[2])
    monkeypatch.setattr(clock_runner, "load_apply_due_deadlines", lambda: fake)
    return fake


def test_once_applies_what_is_due_then_exits(fake_apply, capsys):
    call_command("table_clock", "--once", verbosity=2)
    assert fake_apply.calls == 1
    assert "applied 2 deadline(s)" in capsys.readouterr().out


def test_the_loop_stops_on_sigterm(monkeypatch):
    def stop_at_third_tick(calls: int) -> None:
        if calls == 3:
            os.kill(os.getpid(), signal.SIGTERM)

    fake = FakeApply(results=[1, 0, 1], on_call=stop_at_third_tick)
    monkeypatch.setattr(clock_runner, "load_apply_due_deadlines", lambda: fake)
    before = signal.getsignal(signal.SIGTERM)
    started = time.monotonic()
    call_command("table_clock", "--interval", "0.01", verbosity=0)
    assert fake.calls == 3
    assert time.monotonic() - started < 1
    assert signal.getsignal(signal.SIGTERM) is before


def test_the_loop_stops_on_its_flag_and_survives_a_database_error(monkeypatch):
    monkeypatch.setattr(clock_runner, "ERROR_PAUSE_SECONDS", 0.01)
    stop = threading.Event()
    fake = FakeApply(
        results=[OperationalError("server closed the connection"), 1, 1],
        on_call=lambda calls: calls == 4 and stop.set(),
    )
    applied = clock_runner.run_clock(stop, interval=0.01, apply=fake)
    assert fake.calls == 4
    assert applied == 2


def test_once_reports_an_error():
    stop = threading.Event()
    with pytest.raises(OperationalError):
        clock_runner.run_clock(stop, once=True, apply=FakeApply([OperationalError("down")]))


def test_the_interval_must_be_positive(fake_apply):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("table_clock", "--interval", "0")


def test_the_clock_calls_the_real_services_function():
    from game.tables import services

    assert clock_runner.load_apply_due_deadlines() is services.apply_due_deadlines


def test_the_in_process_clock_is_off_when_external(settings, fake_apply):
    settings.TABLE_CLOCK = "external"
    assert clock_runner.ensure_in_process_clock() is False
    assert clock_runner._clock.thread is None or not clock_runner._clock.thread.is_alive()


def test_the_in_process_clock_starts_once_and_ticks(settings, fake_apply):
    settings.TABLE_CLOCK = "in-process"
    settings.TABLE_CLOCK_INTERVAL = 0.01
    try:
        assert clock_runner.ensure_in_process_clock() is True
        thread = clock_runner._clock.thread
        assert clock_runner.ensure_in_process_clock() is True
        assert clock_runner._clock.thread is thread
        deadline = time.monotonic() + 1
        while fake_apply.calls < 3:
            assert time.monotonic() < deadline, "the clock thread did not tick"
            time.sleep(0.01)
        assert thread.daemon and thread.name == "table-clock"
    finally:
        clock_runner.stop_in_process_clock()
    assert not thread.is_alive()
