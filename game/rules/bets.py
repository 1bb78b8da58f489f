"""The checks of bets before the deal (R-1.4, R-4.1, §9 limits), in the player's words.

Every check here needs the table's options and a bank, never a round: the engine asks
them at the deal (:meth:`game.rules.engine.Engine.start_round` and ``start_shared_round``)
and a shared table asks :func:`check_bets_being_built` of each chip without loading its
round. Each raises :class:`~game.rules.records.IllegalAction` with the reason.

R-1.4's limits themselves — the bank covering the bets, the table minimum and maximum —
are compared in one place, :func:`bet_refusal`, which names the limit a bet breaks; these
checks and the bet panel's services (game/services/bet.py) all ask it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from game.rules import sidebets as sb
from game.rules.money import display_cents
from game.rules.options import Options
from game.rules.records import BoxBet, IllegalAction
from game.rules.table_rules import TableRules

# The limits of a bet can break, as bet_refusal names them (the bet panel's
# refusals use the same codes; game/presentation words them).
BANK_SHORT: Final = "bank_short"
UNDER_MIN_BET: Final = "under_min_bet"
OVER_MAX_BET: Final = "over_max_bet"


def bet_refusal(
    bet: int,
    side_total: int = 0,
    *,
    bank: int | None = None,
    min_bet: int | None = None,
    max_bet: int | None = None,
) -> str | None:
    """Name the R-1.4 limit that a base bet of ``bet`` cents with side bets of
    ``side_total`` cents breaks, or None when it keeps them all: BANK_SHORT when ``bank``
    does not cover the bets together, UNDER_MIN_BET below ``min_bet``, OVER_MAX_BET above
    ``max_bet``. Only the limits given are checked, in that order; each is inclusive (a
    bet of exactly the bank, the minimum or the maximum is allowed)."""
    if bank is not None and bet + side_total > bank:
        return BANK_SHORT
    if min_bet is not None and bet < min_bet:
        return UNDER_MIN_BET
    if max_bet is not None and bet > max_bet:
        return OVER_MAX_BET
    return None


def check_bets_being_built(
    options: Options, bet: int, side_stakes: Mapping[str, int], *, bank: int
) -> None:
    """R-1.4 and §9 limits on bets still being built between rounds (each chip, each side
    chip), the one place they are decided: the base bet at most the table maximum, each
    side stake at least the table minimum, and all of them covered by ``bank``. The base
    bet's minimum is left to the deal: a player may stake side bets before the base bet.

    Needs the options only, not a game (a shared table checks a seat's chip without
    loading the table's round). Raises IllegalAction.
    """
    _check_limits(options.min_bet, options.max_bet, bet, side_stakes, bank)


def checked_stakes(
    table: TableRules,
    bet: int,
    side_bets: Mapping[str, int] | None,
    extra_bet: bool,
    bank: int,
) -> dict[str, int]:
    """One box's bets at the deal checked against ``bank`` (the game's, or a shared box's
    own): the base bet within the table's limits, side bets only where the table plays
    them, each stake a whole number of cents, then :func:`check_bets_being_built`'s
    limits. Returns the side stakes that ride (a stake of 0 is simply not played)."""
    if isinstance(bet, bool) or not isinstance(bet, int):
        raise IllegalAction("A bet must be a whole number of cents")
    if bet_refusal(bet, min_bet=table.min_bet) is not None:
        raise IllegalAction(f"The minimum bet is {display_cents(table.min_bet)}")
    if bet_refusal(bet, max_bet=table.max_bet) is not None:
        raise IllegalAction(f"The maximum bet is {display_cents(table.max_bet)}")
    stakes: dict[str, int] = {}
    if not side_bets and not extra_bet:
        check_covered(bet, bank)  # the limits below, for the base bet alone
        return stakes
    if side_bets is None:
        side_bets = {}
    if not table.side_bets and (extra_bet or any(side_bets.values())):
        if table.simple:
            raise IllegalAction("No side bets in the simple game: Hit and Stand only")
        raise IllegalAction("Side bets are switched off at this table")
    for name, stake in side_bets.items():
        if name not in sb.STAKED_SIDE_BETS:
            raise IllegalAction(f"Unknown side bet: {name}")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
            raise IllegalAction(f"A {name} stake must be a whole number of cents")
        if stake == 0:
            continue  # a side bet with no stake is simply not played
        stakes[name] = stake
    _check_limits(table.min_bet, table.max_bet, bet, stakes, bank)
    return stakes


def check_covered(total: int, bank: int) -> None:
    """Refuse bets of ``total`` cents together that ``bank`` does not cover (R-1.4)."""
    if bet_refusal(total, bank=bank) is not None:
        raise IllegalAction(
            f"Your bank of {display_cents(bank)} does not cover bets of {display_cents(total)}"
        )


def as_box_bet(entry: BoxBet | tuple[Any, ...], number: int) -> BoxBet:
    """Box ``number``'s bets given as a BoxBet or as a ``(bet, side_bets[, extra_bet])``
    tuple."""
    if isinstance(entry, BoxBet):
        return entry
    if isinstance(entry, tuple) and 1 <= len(entry) <= 3:
        bet = entry[0]
        side_bets = entry[1] if len(entry) > 1 and entry[1] is not None else {}
        extra_bet = bool(entry[2]) if len(entry) > 2 else False
        if not isinstance(side_bets, Mapping):
            raise IllegalAction(f"Box {number}: side bets must be stakes by name")
        return BoxBet(bet, side_bets, extra_bet)
    raise IllegalAction(f"Box {number}: give its bets as (bet, side_bets) or a BoxBet")


def _check_limits(
    minimum: int, maximum: int, bet: int, side_stakes: Mapping[str, int], bank: int
) -> None:
    if bet_refusal(bet, max_bet=maximum) is not None:
        raise IllegalAction(f"The maximum bet is {display_cents(maximum)}")
    for stake in side_stakes.values():
        if 0 < stake < minimum:
            raise IllegalAction(f"A side bet must be at least {display_cents(minimum)}")
    check_covered(bet + sum(side_stakes.values()), bank)
