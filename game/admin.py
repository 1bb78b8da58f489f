"""Games are visible read-only to staff for support (UI.md); the engine state is never shown."""

from __future__ import annotations

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from game.models import Game, Hand, Round, SideBet, TriviaAttempt
from trivia.admin_guards import BoundedInputAdmin, TabularInline

_ModelT = TypeVar("_ModelT", bound=Model)


class ReadOnlyAdmin(BoundedInputAdmin[_ModelT]):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return False


class RoundInline(TabularInline[Round, Game]):
    model = Round
    fields = ("number", "phase", "bet_cents", "winnings_cents", "credits_change", "started")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin[Game]):
    list_display = ("id", "owner", "status", "bank_cents", "credits", "rounds_played", "created")
    list_filter = ("status",)
    search_fields = ("owner__username",)
    # The state (shoe order, hole card) is left out even for staff: support never needs it.
    exclude = ("state",)
    inlines = [RoundInline]


class HandInline(TabularInline[Hand, Round]):
    model = Hand
    extra = 0
    can_delete = False
    readonly_fields = ("index", "cards", "bet_cents", "doubled", "result", "how", "winnings_cents")

    def has_add_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return False


class SideBetInline(TabularInline[SideBet, Round]):
    model = SideBet
    extra = 0
    can_delete = False
    readonly_fields = (
        "name", "stake_cents", "result", "condition", "ratio", "winnings_cents", "fee_cents",
        "parlayed_cents", "cards",
    )  # fmt: skip

    def has_add_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin[Round]):
    list_display = ("id", "game", "number", "phase", "bet_cents", "winnings_cents")
    inlines = [HandInline, SideBetInline]

    def get_exclude(self, request: HttpRequest, obj: Round | None = None) -> tuple[str, ...]:
        # A round still in play would show its hole card in the record; only finished ones.
        # Finished rounds show their replay: `manage.py export_round ID` writes it to a file.
        return () if obj is not None and obj.phase == "round_over" else ("record", "replay")


@admin.register(TriviaAttempt)
class TriviaAttemptAdmin(ReadOnlyAdmin[TriviaAttempt]):
    list_display = ("id", "game", "action", "difficulty", "correct", "credits_change", "shown_at")
    list_filter = ("difficulty", "correct")
