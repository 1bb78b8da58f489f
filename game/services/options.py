"""A game's start, its options (§10) and its end (R-1.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core import sql
from game.core.errors import ActionRefused
from game.models import Game, GameShoe, TriviaAttempt
from game.rules.daily import is_daily
from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.storage import game_to_json
from game.services import randomness
from game.services.guards import require_playing
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import (
    next_version,
    persist_round,
    phase_note,
    run_engine,
    save_game,
)
from game.services.shoe_records import shoe_writes

if TYPE_CHECKING:
    from game.services.saving import Player


def default_options_for(user: Player) -> dict[str, Any]:
    """The player's last-used options (those of their newest game), else the defaults."""
    # A Daily Shoe attempt's options are the day's, not the player's choice (D-1).
    own = Game.objects.filter(owner=user, daily_attempt__isnull=True)
    last = own.order_by("-created", "-id").values("options").first()
    if last and last["options"]:
        try:
            return Options.from_dict(last["options"]).to_dict()
        except ValueError:
            pass
    return Options().to_dict()


def new_game(
    *, user: Player, options: dict[str, Any] | None = None, coach: bool | None = None
) -> Game:
    """Start a game with the given options (default: the player's last-used ones).

    The Coach setting, like the options, defaults to that of the player's newest game."""
    chosen = Options.from_dict(options if options is not None else default_options_for(user))
    if coach is None:
        newest = Game.objects.filter(owner=user).order_by("-created", "-id")
        coach = bool(newest.values_list("coach", flat=True).first())
    rng = randomness.make_rng()
    engine = Engine(
        chosen, source=randomness.shoe_source(), shoe=randomness.make_shoe(chosen.deck_count, rng)
    )
    game = Game.objects.create(
        owner=user,
        bank_cents=engine.bank,
        credits=engine.credits,
        options=chosen.to_dict(),
        state=game_to_json(engine),
        status_note=phase_note(),
        status=Game.Status.OVER if engine.game_over else Game.Status.IN_PROGRESS,
        over_reason=engine.game_over_reason or "",
        coach=coach,
    )
    # The first shoe's commitment, shown before its first card (F-1).
    sql.run_all(shoe_writes(engine.source, GameShoe, {"game_id": game.pk}))
    return game


def end_game(*, game_id: int, user: Player, version: int) -> Played:
    """End the game: bets in play are forfeited and the game is over (R-1.6)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        events = run_engine(locked.engine.end_game)
        if locked.game.pending_trivia_id is not None:
            TriviaAttempt.objects.filter(pk=locked.game.pending_trivia_id).update(applied=True)
        persist_round(locked, events, version=next_version(locked.game))
        return save_game(
            locked,
            note={"kind": "game_ended"},
            pending_trivia=None,
            trivia_choice_for="",
            showing_outcome=False,
            pending_bet_cents=0,
        )


def apply_options(
    *, game_id: int, user: Player, version: int, options: dict[str, Any], coach: bool | None = None
) -> Played:
    """Change the options, only between rounds; implied options switch on (§10).

    ``coach`` (the Coach setting, not a rule) is saved with them unless it is None."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_playing(locked.engine)
        if is_daily(locked.engine):
            raise ActionRefused("daily_options_locked")  # D-1: every attempt plays alike
        try:
            chosen = Options.from_dict(options)
        except ValueError as error:
            raise ActionRefused("bad_options", text=str(error)) from None
        events = run_engine(lambda: locked.engine.set_options(chosen))
        note = {"kind": "options_applied", "implied": list(chosen.implied)}
        note["shuffled"] = phase_note(events)["shuffled"]
        return save_game(locked, note=note, **({} if coach is None else {"coach": coach}))
