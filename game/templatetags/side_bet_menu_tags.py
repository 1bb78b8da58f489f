"""``{% side_bet_menu game as menu %}``: the side-bet menu (game/presentation/side_bet_menu.py)."""

from __future__ import annotations

from django import template

from game.models import Game
from game.presentation.side_bet_menu import SideBetMenu
from game.presentation.side_bet_menu import side_bet_menu as build_side_bet_menu

register = template.Library()


@register.simple_tag
def side_bet_menu(game: Game) -> SideBetMenu:
    return build_side_bet_menu(game)
