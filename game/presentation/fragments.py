"""The view models of the single-player table's kept fragments.

Pieces of the table are rendered once per process and served again while what they show is
the same (``{% cache None name model.fragment_key %}``, the "template_fragments" cache): a
kept fragment never goes stale only if its key holds every value it shows. So each kept
fragment is rendered from one frozen model here, holding exactly what it shows, and reads
nothing else inside its block; its key is made from all of the model's fields, so a field
added to show something new is in the key without anyone listing it
(tests/game/presentation/test_fragment_keys.py checks both halves).

The models are built by :func:`table_fragments` from what the table's context already
holds: the table's view model, the rack's focus, the side-bet spots and the game's URLs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

from game.presentation.bet_spots import BetFocus, SideSpots
from game.presentation.lookup import TemplateLookup
from game.presentation.table import ActionButton, BoxView, TableView
from game.rules_pages.content import rules_url


class FragmentModel(TemplateLookup):
    """Mixin of a kept fragment's frozen dataclass: its key is every field's value."""

    __slots__ = ()

    @cached_property
    def fragment_key(self) -> str:
        """Every field's value as one string, worked out once per model (a field that is a
        model with a key of its own gives that key)."""
        return repr(
            tuple(
                getattr(value, "fragment_key", value)
                for value in (getattr(self, field.name) for field in fields(self))  # type: ignore[arg-type]
            )
        )


@dataclass(frozen=True)
class TopBar(FragmentModel):
    """End Game (while the game goes on), Options (between rounds) and Rules."""

    end_game_url: str
    options_url: str
    rules_url: str
    game_over: bool
    between_rounds: bool


@dataclass(frozen=True)
class DealerArea(FragmentModel):
    """The dealer's cards, total and word."""

    cards: tuple[str | None, ...]
    total_text: str
    message: str


@dataclass(frozen=True)
class BoxRow(FragmentModel):
    """Seats > 1: the boxes side by side; while betting their circles are buttons."""

    boxes: tuple[BoxView, ...]
    betting: bool
    select_box_url: str


@dataclass(frozen=True)
class BettingCircle(FragmentModel):
    """The main betting circle (one box): its stack, what it pays, and while betting the
    spot that adds the selected chip."""

    taken: bool
    stake_chips: tuple[int, ...]
    paid_chips: tuple[int, ...]
    bet: int  # the hand in play's bet, else the bet being built (cents)
    doubled: bool
    spot: bool  # the circle is a button (betting, at a stake the player builds)
    chip: int  # the rack's selected chip, which the spot adds
    current: bool  # the rack's chips go to the main circle
    chip_url: str


@dataclass(frozen=True)
class SideSpotsFragment(FragmentModel):
    """While betting, the side-bet circles as buttons: each adds the selected chip. Their
    rules links ({% rules_link %}) name the page's game, which the URLs here name too."""

    spots: SideSpots
    chip: int
    side_chip_url: str
    side_clear_url: str
    extra_bet_activate_url: str


@dataclass(frozen=True)
class BetPanel(FragmentModel):
    """The bet panel's rack, amount, Clear Bet, Deal and Rebet (a stake the player builds)."""

    chips: tuple[int, ...]
    selected_chip: int
    # The side bet the rack's chips go to ("" : the main circle or the lit box), its name.
    side_spot: str
    side_spot_label: str
    boxes: bool
    side_bets: bool  # the felt rings the main circle with side-bet spots
    side_bet_total: int
    extra_bet_active: bool
    amount: int  # what the amount field starts with (0: empty)
    min_bet: int
    max_bet: int
    rebet_stakes: int
    rebet_refusal: str
    deal_refusal: str
    chip_url: str
    side_chip_url: str
    clear_bet_url: str
    deal_url: str
    rebet_url: str
    same_bet_url: str
    side_bets_rules_url: str


@dataclass(frozen=True)
class PlayButton(TemplateLookup):
    """A play button of the turn, with the URL it posts to."""

    name: str
    label: str
    key: str
    allowed: bool
    reason: str
    primary: bool
    url: str


@dataclass(frozen=True)
class PlayActions(FragmentModel):
    """The turn's buttons, the difficulty they ask at, the Hint, and why some are off."""

    buttons: tuple[PlayButton, ...]
    player_turn: bool
    difficulty_pick: bool  # the select of the difficulty Hit and Double Down ask at
    difficulty_hints: tuple[tuple[str, int], ...]
    trivia_difficulty: str
    hint_url: str  # "": no Hint now
    unavailable: tuple[PlayButton, ...]


@dataclass(frozen=True)
class DifficultyChoices(FragmentModel):
    """The difficulties a question can be asked at, with the credits each earns."""

    hints: tuple[tuple[str, int], ...]


def table_fragments(
    view: TableView,
    *,
    urls: Mapping[str, str],
    focus: BetFocus,
    betting: bool,
    spots: SideSpots | None,
    hint_available: bool,
) -> dict[str, Any]:
    """The kept fragments' models, by their names in the table's context (None: not shown)."""
    hints = tuple(view.difficulty_hints.items())
    on_side_bet = spots is not None and focus.on_side_bet
    hand = view.active_hand
    return {
        "top_bar": TopBar(
            end_game_url=urls["end_game"],
            options_url=urls["options"],
            rules_url=urls["rules"],
            game_over=view.game.is_over,
            between_rounds=view.between_rounds,
        ),
        "dealer_area": DealerArea(
            cards=tuple(view.dealer_cards),
            total_text=view.dealer_total_text,
            message=view.dealer_message,
        ),
        "box_row": BoxRow(
            boxes=tuple(view.boxes), betting=betting, select_box_url=urls["select_box"]
        )
        if view.boxes
        else None,
        "betting_circle": None
        if view.boxes
        else BettingCircle(
            taken=view.stake_taken,
            stake_chips=tuple(view.stake_chips),
            paid_chips=tuple(view.paid_chips),
            bet=hand.bet if hand else view.bet,
            doubled=bool(hand and hand.doubled),
            spot=betting and not view.fixed_stake,
            chip=focus.chip,
            current=not on_side_bet,
            chip_url=urls["chip"],
        ),
        "side_spot_row": SideSpotsFragment(
            spots=spots,
            chip=focus.chip,
            side_chip_url=urls["side_chip"],
            side_clear_url=urls["side_clear"],
            extra_bet_activate_url=urls["extra_bet_activate"],
        )
        if spots is not None
        else None,
        "bet_panel": _bet_panel(view, urls, focus, spots) if betting else None,
        "play_actions": _play_actions(view, urls, hints, hint_available)
        if view.round_in_progress
        else None,
        "difficulty_choices": DifficultyChoices(hints=hints),
    }


def _bet_panel(
    view: TableView, urls: Mapping[str, str], focus: BetFocus, spots: SideSpots | None
) -> BetPanel:
    on_side_bet = spots is not None and focus.on_side_bet
    return BetPanel(
        chips=tuple(view.chips),
        selected_chip=focus.chip,
        side_spot=focus.spot if on_side_bet else "",
        side_spot_label=spots.current_label if spots is not None and on_side_bet else "",
        boxes=bool(view.boxes),
        side_bets=spots is not None,
        side_bet_total=spots.total if spots is not None else 0,
        extra_bet_active=spots is not None and spots.extra_bet_active,
        amount=view.bet if view.panel != "outcome" else 0,
        min_bet=view.options["min_bet"],
        max_bet=view.options["max_bet"],
        rebet_stakes=view.rebet_stakes,
        rebet_refusal=view.rebet_refusal,
        deal_refusal=view.deal_refusal,
        chip_url=urls["chip"],
        side_chip_url=urls["side_chip"],
        clear_bet_url=urls["clear_bet"],
        deal_url=urls["deal"],
        rebet_url=urls["rebet"],
        same_bet_url=urls["same_bet"],
        side_bets_rules_url=rules_url("side_bets", view.game.pk),
    )


def _play_button(action: ActionButton, urls: Mapping[str, str]) -> PlayButton:
    return PlayButton(
        name=action.name,
        label=action.label,
        key=action.key,
        allowed=action.allowed,
        reason=action.reason,
        primary=action.primary,
        url=urls[action.name.replace("-", "_")],
    )


def _play_actions(
    view: TableView,
    urls: Mapping[str, str],
    hints: tuple[tuple[str, int], ...],
    hint_available: bool,
) -> PlayActions:
    player_turn = view.panel == "player_turn"
    return PlayActions(
        buttons=tuple(_play_button(action, urls) for action in view.actions),
        player_turn=player_turn,
        difficulty_pick=bool(view.trivia_mode and view.game.trivia_difficulty and player_turn),
        difficulty_hints=hints,
        trivia_difficulty=view.trivia_difficulty,
        hint_url=urls["table"] if hint_available else "",
        unavailable=tuple(_play_button(action, urls) for action in view.unavailable_actions),
    )
