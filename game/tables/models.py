"""A shared table's state (T-13: all of it in the database, so any app server serves any
player and the clock process can apply deadlines with nobody connected).

The engine's state of the table (shoe order, hole card) is in ``SharedTable.state`` and
never sent to a page; ``TableEvent.data`` holds only what everyone may see (T-11).

The models were first the ``game`` app's: their tables keep the ``game_`` names they were
created with (``Meta.db_table``), and the ``tables`` app's first migration only took them
over in Django's state.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from game.models import ShoeRecord

SEATS_MIN, SEATS_MAX = 2, 7  # T-1


def new_client_seed() -> str:
    """A seat's client seed when the player sits (F-2); the player may change it."""
    return secrets.token_hex(8)


def new_invite_token() -> str:
    """Makes the unguessable token of a table's invitation link (T-1)."""
    return secrets.token_urlsafe(24)


class SharedTable(models.Model):
    class Phase(models.TextChoices):
        INTERMISSION = "intermission", "Betting"
        ROUND = "round", "Round in play"
        CLOSED = "closed", "Closed"

    name = models.CharField(max_length=60)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables"
    )
    # RULES.md §10 options, chosen at creation (T-1), changed only between rounds (T-2).
    options = models.JSONField(default=dict)
    seat_count = models.PositiveSmallIntegerField(default=5)
    # T-5: how long betting stays open between rounds (10–60 s).
    intermission_seconds = models.PositiveSmallIntegerField(default=30)
    public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.INTERMISSION)
    # The next deadline of whatever is timed now (the intermission, an offer stage, a turn,
    # a question), epoch ms; the clock process selects tables by it (T-13).
    deadline_ms = models.BigIntegerField(null=True, blank=True, db_index=True)
    # When the intermission's betting closes (T-5), epoch ms; None when not betting.
    betting_ends_ms = models.BigIntegerField(null=True, blank=True)
    # The engine's full state (shoe order and hole card included): never sent to a page.
    state = models.JSONField(default=dict)
    round_number = models.PositiveIntegerField(default=0)
    # Bumped by every applied change; the last event's number (TableEvent.seq).
    version = models.PositiveBigIntegerField(default=0)
    # Bumped by every saved change, a chip added included (which writes no event): what
    # the live stream caches the part of the table every viewer shares by.
    revision = models.PositiveBigIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    # When the last seated player left (T-2: closes by itself after 30 minutes empty).
    empty_since = models.DateTimeField(null=True, blank=True, default=timezone.now)

    class Meta:
        db_table = "game_sharedtable"
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=SEATS_MIN) & Q(seat_count__lte=SEATS_MAX),
                name="table_seat_count_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_closed(self) -> bool:
        return self.phase == self.Phase.CLOSED


class Seat(models.Model):
    """A player's place at one table (T-3): the bank and credits belong to it and stay when
    the player leaves (``number`` None), so sitting again restores them."""

    table = models.ForeignKey(SharedTable, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_seats"
    )
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    bank_cents = models.BigIntegerField()
    credits = models.IntegerField()
    # The bet for the next deal, placed during the intermission (T-5).
    bet_cents = models.BigIntegerField(default=0)
    # The side-bet stakes for the next deal, cents by engine name (RULES.md §9, T-5), and
    # whether Extra Bet Blackjack is activated (no stake until its offer, R-SB-20). Like
    # the bet, they stay as the next round's defaults.
    side_bets = models.JSONField(default=dict, blank=True)
    extra_bet = models.BooleanField(default=False)
    ready = models.BooleanField(default=False)
    sitting_out = models.BooleanField(default=False)
    # This player's part of the next shoe's client seed (F-2): the seated players' seeds
    # joined in seat order, so no one, the site included, chooses a shoe alone.
    client_seed = models.CharField(max_length=64, default=new_client_seed)
    # The seat's box in the round in play (0-based, engine order), None when not dealt in.
    box = models.PositiveSmallIntegerField(null=True, blank=True)
    # "hit" / "double" while the trivia difficulty choice is open, else "".
    trivia_choice_for = models.CharField(max_length=8, blank=True, default="")
    pending_question = models.ForeignKey(
        "TableQuestion", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Bumped by every action of this seat's player: a post carrying an older one is a
    # repeated or stale post (double click, second tab) and changes nothing. Other
    # players' actions do not bump it, so they never make this player's page stale.
    version = models.PositiveBigIntegerField(default=0)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "game_seat"
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="seat_one_per_player"),
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(number__isnull=False),
                name="seat_number_taken_once",
            ),
            models.CheckConstraint(condition=Q(bank_cents__gte=0), name="seat_bank_not_negative"),
            models.CheckConstraint(condition=Q(bet_cents__gte=0), name="seat_bet_not_negative"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} at {self.table_id}"

    @property
    def seated(self) -> bool:
        return self.number is not None


class TableShoe(ShoeRecord):
    """A committed shoe of a shared table (its client seed: the seated players', F-2)."""

    table = models.ForeignKey(SharedTable, on_delete=models.CASCADE, related_name="shoes")

    class Meta:
        db_table = "game_tableshoe"
        ordering = ["table", "nonce"]
        constraints = [
            models.UniqueConstraint(fields=["table", "nonce"], name="table_shoe_nonce_once"),
        ]

    def __str__(self) -> str:
        return f"Shoe {self.nonce} of table {self.table_id}"


class TableQuestion(models.Model):
    """A trivia question asked of a seat for Hit or Double Down (R-8, T-11)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="questions")
    round_number = models.PositiveIntegerField()
    action = models.CharField(max_length=8)
    question = models.ForeignKey(
        "trivia.Question", on_delete=models.PROTECT, related_name="table_attempts"
    )
    difficulty = models.CharField(max_length=6)
    answers_shown = models.JSONField(default=list)
    shown_ms = models.BigIntegerField()
    answer_given = models.TextField(blank=True, default="")
    correct = models.BooleanField(null=True, blank=True)
    timed_out = models.BooleanField(default=False)

    class Meta:
        db_table = "game_tablequestion"
        ordering = ["seat", "id"]
        indexes = [models.Index(fields=["seat", "question"], name="table_question_asked_idx")]

    def __str__(self) -> str:
        return f"{self.action} question for {self.seat}"


class TableEvent(models.Model):
    """One change at a table, in order (T-10): what everyone may see of it, no secret.

    ``seq`` is the table's version after the change; the live stream sends it as the
    event id, so a reconnecting browser says where it got to and catches up (T-14)."""

    table = models.ForeignKey(SharedTable, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "game_tableevent"
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="table_event_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} at {self.table_id}"
