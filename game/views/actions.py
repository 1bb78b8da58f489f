"""The table's actions, a view each: a logged-in post that calls one service with the
game, the player, the posted version and what the form adds, and answers as
game/views/rendering.py does (the table partial for htmx, a redirect otherwise, the table
with a notice and a 4xx when refused). Each is reached at /games/<id>/<name>/ (``ACTIONS``,
read by game/urls.py); any other name there is a 404 with the table and a notice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from game import services
from game.core.http import AuthenticatedHttpRequest
from game.forms import (
    category_field,
    parse_box,
    parse_chip_post,
    parse_choice,
    parse_deal,
    parse_extra_bet,
    parse_extra_bet_activation,
    parse_menu_toggle,
    parse_optional_difficulty,
    parse_side_chip,
    parse_side_clear,
    parse_side_clear_all,
    text_field,
)
from game.presentation.notices import REFUSALS
from game.services import Played
from game.views.rendering import owned_game, refused, run_action

ActionBody = Callable[[AuthenticatedHttpRequest, int, int], Played]
ActionView = Callable[[AuthenticatedHttpRequest, int], HttpResponse]


def game_action(act: ActionBody) -> ActionView:
    """The view of one action: logged-in posts only; ``act(request, game_id, version)``
    calls the action's service (a ValueError from reading the form is bad input: 422)."""

    @functools.wraps(act)
    def view(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
        return run_action(request, game_id, lambda version: act(request, game_id, version))

    return login_required(require_POST(view))


@game_action
def add_chip(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """A chip from the rack onto the bet (or the lit box), added to the amount typed."""
    return services.add_chip(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_chip_post(request.POST),
    )


@game_action
def clear_bet(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Clear Bet: the main bet back to nothing."""
    return services.clear_bet(game_id=game_id, user=request.user, version=version)


@game_action
def deal(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Deal: the amount posted is the bet, and the round is dealt."""
    return services.place_bet_and_deal(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_deal(request.POST),
    )


@game_action
def select_box(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """A box's circle pressed: that box takes the chips from now on."""
    return services.select_box(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_box(request.POST),
    )


@game_action
def same_bet(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Same bet on every box: the lit box's bet copied to the others."""
    return services.same_bet_on_every_box(game_id=game_id, user=request.user, version=version)


@game_action
def hit(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Hit, at the difficulty posted beside it (none: the player is asked which)."""
    return services.hit(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_optional_difficulty(request.POST),
    )


@game_action
def stand(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Stand: the hand in play takes no more cards."""
    return services.stand(game_id=game_id, user=request.user, version=version)


@game_action
def double(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Double Down, at the difficulty posted beside it (none: the player is asked which)."""
    return services.double(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_optional_difficulty(request.POST),
    )


@game_action
def split(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Split the pair in play into two hands."""
    return services.split(game_id=game_id, user=request.user, version=version)


@game_action
def surrender(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Surrender the hand: half the bet back."""
    return services.surrender(game_id=game_id, user=request.user, version=version)


@game_action
def insurance(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Insurance or even money: accepted or declined."""
    return services.answer_insurance(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_choice(request.POST),
    )


@game_action
def insurance_every_box(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Insurance or even money for every box waiting at once: accepted or declined."""
    return services.answer_insurance_for_every_box(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_choice(request.POST),
    )


@game_action
def insurance_box_by_box(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Insurance asked box by box instead of for every box at once."""
    return services.choose_insurance_box_by_box(game_id=game_id, user=request.user, version=version)


@game_action
def early_surrender(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Early surrender: accepted or declined before the dealer checks."""
    return services.answer_early_surrender(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_choice(request.POST),
    )


@game_action
def difficulty(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """The difficulty of the question a Hit or Double Down asks."""
    return services.choose_difficulty(
        game_id=game_id,
        user=request.user,
        version=version,
        **text_field("difficulty", REFUSALS["no_such_difficulty"])(request.POST),
        **category_field(REFUSALS["no_such_category"])(request.POST),
    )


@game_action
def answer(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """An answer to the question asked."""
    return services.answer_question(
        game_id=game_id,
        user=request.user,
        version=version,
        **text_field("answer", REFUSALS["not_an_answer_shown"])(request.POST),
    )


@game_action
def fifty_fifty(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """50:50 on the question asked: two wrong answers taken away, for a credit."""
    return services.use_fifty_fifty(game_id=game_id, user=request.user, version=version)


@game_action
def swap(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Swap the question asked for another of its difficulty, for a credit."""
    return services.swap_question(game_id=game_id, user=request.user, version=version)


@game_action
def continue_after_reveal(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Continue after an answer's reveal (from a page shown before answers were carried
    into the round at once)."""
    return services.continue_after_reveal(game_id=game_id, user=request.user, version=version)


@game_action
def next_round(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Next round: the outcome put away, the bet panel back."""
    return services.next_round(game_id=game_id, user=request.user, version=version)


@game_action
def rebet(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Rebet: the last round's stakes again, and the deal."""
    return services.rebet(game_id=game_id, user=request.user, version=version)


@game_action
def extra_bet(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """The Extra Bet offered after the deal: placed or declined."""
    return services.place_extra_bet(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_extra_bet(request.POST),
    )


@game_action
def parlay(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """A side bet's winnings: let ride or taken."""
    return services.parlay(
        game_id=game_id,
        user=request.user,
        version=version,
        **text_field("choice", "Choose one of the offers shown.")(request.POST),
    )


@game_action
def roll(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Roll the dice of the Infinity side bet."""
    return services.roll(game_id=game_id, user=request.user, version=version)


@game_action
def shuffle_now(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Shuffle now: the shoe finished between rounds (its seed revealed) and a new one begun."""
    return services.shuffle_now(game_id=game_id, user=request.user, version=version)


@game_action
def side_bets_menu(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """A side bet shown on or taken off the bet panel's menu."""
    return services.toggle_side_bet_menu(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_menu_toggle(request.POST),
    )


@game_action
def side_chip(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """A chip onto a side bet's circle."""
    return services.add_side_chip(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_side_chip(request.POST),
    )


@game_action
def side_clear(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """One side bet cleared."""
    return services.clear_side_bet(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_side_clear(request.POST),
    )


@game_action
def side_clear_all(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """Every side bet cleared."""
    return services.clear_side_bets(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_side_clear_all(request.POST),
    )


@game_action
def extra_bet_activate(request: AuthenticatedHttpRequest, game_id: int, version: int) -> Played:
    """The Extra Bet switched on or off for the rounds to come."""
    return services.activate_extra_bet(
        game_id=game_id,
        user=request.user,
        version=version,
        **parse_extra_bet_activation(request.POST),
    )


@login_required
@require_http_methods(["GET", "POST"])
def end_game(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """End Game: GET asks to confirm (R-1.6); POST ends the game."""
    game = owned_game(request, game_id)
    if request.method == "GET":
        return render(request, "game/end_confirm.html", {"game": game})
    return run_action(
        request,
        game_id,
        lambda version: services.end_game(game_id=game_id, user=request.user, version=version),
    )


@login_required
@require_POST
def no_such_action(request: AuthenticatedHttpRequest, game_id: int, action: str) -> HttpResponse:
    """A post to /games/<id>/<name>/ for a name no action has: 404 with the table (another
    player's game: a plain 404 first)."""
    owned_game(request, game_id)
    return refused(request, game_id, "There is no such action.", status=404)


# Each action's view by the name in its address (the names of rendering.ACTION_NAMES).
ACTIONS: dict[str, ActionView] = {
    "chip": add_chip,
    "clear-bet": clear_bet,
    "deal": deal,
    "select-box": select_box,
    "same-bet": same_bet,
    "hit": hit,
    "stand": stand,
    "double": double,
    "split": split,
    "surrender": surrender,
    "insurance": insurance,
    "insurance-every-box": insurance_every_box,
    "insurance-box-by-box": insurance_box_by_box,
    "early-surrender": early_surrender,
    "difficulty": difficulty,
    "answer": answer,
    "fifty-fifty": fifty_fifty,
    "swap": swap,
    "continue": continue_after_reveal,
    "next-round": next_round,
    "rebet": rebet,
    "extra-bet": extra_bet,
    "parlay": parlay,
    "roll": roll,
    "shuffle-now": shuffle_now,
    "side-bets-menu": side_bets_menu,
    "side-chip": side_chip,
    "side-clear": side_clear,
    "side-clear-all": side_clear_all,
    "extra-bet-activate": extra_bet_activate,
}
