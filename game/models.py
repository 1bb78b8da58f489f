"""Persisted games: the game row holds the engine state; rounds, hands, side bets the record.

Money is integer cents everywhere (RULES.md R-1.2). The engine state JSON (shoe order,
hole card) lives only here and in the engine; pages render the engine's public view.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

# game.rules.money.MAX_AMOUNT_CENTS (R-1.4a), repeated because models must not import the
# engine at start-up (manage.py simulate --accelerated swaps in compiled engine modules
# first); tests/game/test_amounts.py checks the two agree.
BANK_CEILING_CENTS = 100_000_000_000


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        OVER = "over", "Game over"

    class OverReason(models.TextChoices):
        NONE = "", "—"
        BANK = "bank", "The bank fell below the table minimum"
        CREDITS = "credits", "The trivia credits ran out"
        ENDED = "ended", "The player ended the game"
        DAILY = "daily", "All twenty rounds of a Daily Shoe played"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    bank_cents = models.BigIntegerField()
    credits = models.IntegerField()
    options = models.JSONField(default=dict)
    # The engine's full state (shoe order and hole card included): never sent to a page.
    state = models.JSONField(default=dict)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    over_reason = models.CharField(
        max_length=8, choices=OverReason.choices, blank=True, default=OverReason.NONE
    )
    # The bet being built with chips before the deal (taken from the bank only at the deal).
    pending_bet_cents = models.BigIntegerField(default=0)
    # The side-bet stakes built in the side-bet menu, {engine bet name: cents}; like the
    # base bet they are taken from the bank only at the deal and stay as next round's defaults.
    pending_side_bets = models.JSONField(default=dict, blank=True)
    # Extra Bet Blackjack activated in the menu (R-SB-20: no stake until its offer).
    pending_extra_bet = models.BooleanField(default=False)
    # The side-bet menu is open on the bet panel: kept here so it works without JavaScript.
    side_bets_menu_open = models.BooleanField(default=False)
    # §10 Extensions, seats > 1: the box the chips and the side-bet menu work on. Its bets
    # are the three pending_* fields above; every box's bets, as {"bet": cents,
    # "side_bets": {...}, "extra_bet": bool}, box 1 first, are kept in pending_boxes (the
    # selected box's entry is refreshed from those fields when the box changes and at Deal).
    selected_box = models.PositiveSmallIntegerField(default=1)
    pending_boxes = models.JSONField(default=list, blank=True)
    # "hit" / "double" while the trivia difficulty choice is open, else "".
    trivia_choice_for = models.CharField(max_length=8, blank=True, default="")
    # The trivia difficulty last chosen in this game: Hit and Double Down ask at it directly
    # (the player changes it beside those buttons); "" until the first choice.
    trivia_difficulty = models.CharField(max_length=6, blank=True, default="")
    # What the last action did, as data ({"kind": ..., details}); worded for the status
    # line by game/presentation/notices.py, so no sentence is stored.
    status_note = models.JSONField(default=dict, blank=True)
    # True from the end of a round until Next Round: the outcome panel stays up.
    showing_outcome = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    last_played = models.DateTimeField(default=timezone.now)
    rounds_played = models.PositiveIntegerField(default=0)
    # Bumped by every applied action; a post carrying an older version is stale.
    version = models.PositiveBigIntegerField(default=0)
    # The coach marks moves that differ from basic strategy. A learning aid, not a rule of
    # RULES.md §10, so it lives here and not in ``options``.
    coach = models.BooleanField(default=False)
    # The trivia category the player chose for their questions, remembered per game
    # (None: any category).
    trivia_category = models.ForeignKey(
        "trivia.Category", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The trivia attempt not yet carried into the round (TriviaAttempt.applied is False),
    # kept on the row so that locking the game reads it in the same query.
    pending_trivia = models.ForeignKey(
        "TriviaAttempt", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["owner", "-created"], name="game_owner_created_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(bank_cents__gte=0), name="game_bank_not_negative"),
            models.CheckConstraint(
                condition=Q(pending_bet_cents__gte=0), name="game_pending_bet_not_negative"
            ),
            # R-1.4a, the last line of defence: the engine already refuses and caps.
            models.CheckConstraint(
                condition=Q(bank_cents__lte=BANK_CEILING_CENTS), name="game_bank_within_ceiling"
            ),
            models.CheckConstraint(
                condition=Q(pending_bet_cents__lte=BANK_CEILING_CENTS),
                name="game_pending_bet_within_ceiling",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} of {self.owner_id}"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.OVER


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    phase = models.CharField(max_length=24)
    # The engine's record of the round (public once the round is over).
    record = models.JSONField(default=dict)
    version = models.PositiveBigIntegerField(default=0)
    bet_cents = models.BigIntegerField(default=0)
    winnings_cents = models.BigIntegerField(default=0)
    credits_change = models.IntegerField(default=0)
    bank_after_cents = models.BigIntegerField(null=True, blank=True)
    # Every cent taken from the bank this round (bets, doubles, side bets, fees), so the
    # round's net is winnings_cents - staked_cents (the statistics page sums it in SQL).
    staked_cents = models.BigIntegerField(default=0)
    # The finished round as a REPLAY.md input file (``manage.py export_round``); empty while
    # the round is in progress and for a round ended by End Game (no replay action for it).
    replay = models.JSONField(default=dict, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of game {self.game_id}"


class Hand(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hands")
    index = models.PositiveSmallIntegerField()
    cards = models.JSONField(default=list)
    bet_cents = models.BigIntegerField()
    doubled = models.BooleanField(default=False)
    result = models.CharField(max_length=12, blank=True, default="")
    how = models.CharField(max_length=20, blank=True, default="")
    winnings_cents = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["round", "index"]
        constraints = [
            models.UniqueConstraint(fields=["round", "index"], name="hand_index_unique"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.index + 1} of {self.round}"


class SideBet(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="side_bets")
    name = models.CharField(max_length=32)
    stake_cents = models.BigIntegerField()
    result = models.CharField(max_length=12, blank=True, default="")
    condition = models.CharField(max_length=64, blank=True, default="")
    ratio = models.CharField(max_length=16, blank=True, default="")
    winnings_cents = models.BigIntegerField(default=0)
    fee_cents = models.BigIntegerField(default=0)
    parlayed_cents = models.BigIntegerField(default=0)
    cards = models.JSONField(default=list)

    class Meta:
        ordering = ["round", "id"]

    def __str__(self) -> str:
        return f"{self.name} in {self.round}"


class TriviaAttempt(models.Model):
    class Action(models.TextChoices):
        HIT = "hit", "Hit"
        DOUBLE = "double", "Double Down"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trivia_attempts")
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="trivia_attempts", null=True, blank=True
    )
    hand_index = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=8, choices=Action.choices)
    question = models.ForeignKey(
        "trivia.Question", on_delete=models.PROTECT, related_name="attempts"
    )
    difficulty = models.CharField(max_length=6)
    # The answers in the order shown, so a reload shows the same order.
    answers_shown = models.JSONField(default=list)
    answer_given = models.TextField(blank=True, default="")
    correct = models.BooleanField(null=True, blank=True)
    credits_change = models.IntegerField(null=True, blank=True)
    shown_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    # Set once Continue has carried the answer into the round (card dealt or hand stood).
    applied = models.BooleanField(default=False)
    # Lifelines used on this question, in order: {"kind": "fifty_fifty", "removed": [...]}
    # or {"kind": "swap", "question": <the id swapped away>}.
    lifelines = models.JSONField(default=list, blank=True)
    # The question a Swap took away (at most one Swap a question), kept as a column beside
    # the asked one: the pick's subquery over the game's attempts leaves both out, so a
    # question swapped away never comes back in the game.
    swapped_away = models.ForeignKey(
        "trivia.Question",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # The player's report of this question, if any: one to one, so one report per attempt.
    report = models.OneToOneField(
        "trivia.QuestionReport",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="attempt",
    )

    class Meta:
        ordering = ["game", "shown_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(answered_at__isnull=True),
                name="one_unanswered_trivia_per_game",
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(applied=False),
                name="one_unapplied_trivia_per_game",
            ),
        ]
        indexes = [models.Index(fields=["game", "question"], name="trivia_attempt_asked_idx")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} trivia in game {self.game_id}"

    @property
    def is_answered(self) -> bool:
        return self.answered_at is not None


class CoachDeviation(models.Model):
    """A move that differed from basic strategy, made while the coach was on."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="coach_deviations")
    round_number = models.PositiveIntegerField()
    hand_index = models.PositiveSmallIntegerField()
    # The move made ("hit" … "surrender", or "insurance" / "even_money" taken) and the advice.
    move = models.CharField(max_length=12)
    advised = models.CharField(max_length=12)
    note = models.CharField(max_length=200)
    # The game's version right after the move: the table shows the note while it is current.
    game_version = models.PositiveBigIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]
        indexes = [
            models.Index(fields=["game", "game_version"], name="coach_deviation_version_idx")
        ]

    def __str__(self) -> str:
        return f"Coach: {self.move} for {self.advised} in game {self.game_id}"


class OnceKey(models.Model):
    """A form's one-time key and what its first submission made (game/core/once_keys.py).

    The forms that create something (Play now's guest, New Game, Create Table, Sign up)
    carry a random key made when the page was rendered. The first submission stores it
    here, in the transaction that creates; the unique key makes every repeat of the same
    submission (a double click, twenty parallel posts) find what the first made and answer
    the same, instead of making another."""

    class Kind(models.TextChoices):
        GUEST = "guest", "Guest account"
        NEW_GAME = "new_game", "New game"
        TABLE = "table", "Shared table"
        SIGN_UP = "sign_up", "Sign-up"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    # The key's random part (its signature is checked before it gets here).
    key = models.CharField(max_length=64)
    # The player who submitted (New Game, Create Table) or the account made (guest,
    # sign-up); empty only inside the transaction that makes that account.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    # The game or shared table made (its id), for the kinds that make one.
    made_id = models.BigIntegerField(null=True, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="once_key_used_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key[:8]}…"


class ShoeRecord(models.Model):
    """One committed shoe (FAIRNESS.md F-1, F-6): its commitment from before its first card,
    its server seed and the cards that left it once it is finished.

    The seed of a shoe still dealing is kept only in the engine state; it is written here
    when the shoe is revealed, so nothing that reads these rows can tell the cards to come.
    """

    nonce = models.PositiveIntegerField()
    commitment = models.CharField(max_length=64)
    # A shared table's is its seated players' seeds joined with "|" (F-2).
    client_seed = models.TextField()
    # 0 for an infinite shoe's batch of 52 (F-5).
    deck_count = models.PositiveSmallIntegerField()
    server_seed = models.CharField(max_length=64, blank=True, default="")
    cards_dealt = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(default=timezone.now)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None


class GameShoe(ShoeRecord):
    """A committed shoe of a single-player game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="shoes")

    class Meta:
        ordering = ["game", "nonce"]
        constraints = [
            models.UniqueConstraint(fields=["game", "nonce"], name="game_shoe_nonce_once"),
        ]

    def __str__(self) -> str:
        return f"Shoe {self.nonce} of game {self.game_id}"


class DailyShoe(models.Model):
    """One UTC day's Daily Shoe (FAIRNESS.md D-1, D-3, D-4): its server seed, made at least
    a day ahead, its commitment, and the day's ordered question lists with theirs.

    The seed and the lists are secret until the day is over (D-8); pages show only the
    commitments before then."""

    date = models.DateField(unique=True)
    server_seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    # Question ids by difficulty, in the order they are asked that day (D-3).
    questions = models.JSONField(default=dict)
    # SHA-256 of each list's ids joined with ",", by difficulty.
    question_commitments = models.JSONField(default=dict)
    created = models.DateTimeField(default=timezone.now)
    # The day's finished attempts (the leaderboard's length), counted as each finishes, and a
    # number that grows whenever the leaderboard changes (an attempt finished or deleted):
    # a leaderboard page rendered once is kept under it (templates/daily/leaderboard.html).
    finished_attempts = models.PositiveIntegerField(default=0)
    board_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"Daily Shoe {self.date.isoformat()}"


class DailyAttempt(models.Model):
    """A player's one attempt at a day's Daily Shoe (D-5), played in its own game."""

    day = models.ForeignKey(DailyShoe, on_delete=models.CASCADE, related_name="attempts")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_attempts"
    )
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="daily_attempt")
    # Per round played: {"net_cents": …, "result": "win" | "loss" | "push"} (D-6, D-7).
    rounds = models.JSONField(default=list, blank=True)
    right_answers = models.PositiveIntegerField(default=0)
    questions_answered = models.PositiveIntegerField(default=0)
    final_bank_cents = models.BigIntegerField(null=True, blank=True)
    started = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "player"], name="daily_attempt_once_a_day"),
        ]
        indexes = [
            # The leaderboard (D-6): finished attempts of a day by bank, right answers, finish.
            models.Index(
                fields=["day", "-final_bank_cents", "-right_answers", "finished_at"],
                name="daily_leaderboard_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}'s Daily Shoe {self.day_id}"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class DailyRoundResult(models.Model):
    """What one round of a Daily Shoe attempt paid (D-6), a row a round, written when the
    round ends: the attempt's rounds list kept as rows so "better than N % of players on
    this deal" is two counts along an index, the same on SQLite and PostgreSQL."""

    attempt = models.ForeignKey(DailyAttempt, on_delete=models.CASCADE, related_name="results")
    day = models.ForeignKey(DailyShoe, on_delete=models.CASCADE, related_name="round_results")
    round_number = models.PositiveSmallIntegerField()
    net_cents = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "round_number"], name="daily_round_result_once"
            ),
        ]
        indexes = [
            # The percentile (D-6): a day's round, counted below and at a net.
            models.Index(fields=["day", "round_number", "net_cents"], name="daily_round_net_idx"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round_number} of {self.attempt_id}: {self.net_cents}"
