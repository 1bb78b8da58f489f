"""URLs of the rules pages, included under "rules/" by the root URLconf."""

from __future__ import annotations

from django.urls import path

from game.rules_pages.content import INDEX, OPTIONS, PLAY, SIDE_BETS, TERMS, TRIVIA
from game.rules_pages.views import (
    rules_index,
    rules_options,
    rules_play,
    rules_side_bets,
    rules_terms,
    rules_trivia,
)

# Before the game's URLs in the root URLconf, so these pages answer /rules/.
urlpatterns = [
    path("", rules_index, name=INDEX),
    path("play/", rules_play, name=PLAY),
    path("trivia/", rules_trivia, name=TRIVIA),
    path("side-bets/", rules_side_bets, name=SIDE_BETS),
    path("options/", rules_options, name=OPTIONS),
    path("terms/", rules_terms, name=TERMS),
]
