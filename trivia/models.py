"""The trivia question bank: categories, questions and players' reports of bad questions."""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

BOOLEAN_ANSWERS = ("True", "False")
MULTIPLE_WRONG_ANSWERS = 3
# PostgreSQL keeps no NUL byte in a text column or a JSON string: a question holding one
# is refused whatever its way in (the admin form, a file import), not left to fail there.
NUL = "\x00"
# The largest id of the apps' tables, for whatever checks an id before a query does:
# BigAutoField (settings.DEFAULT_AUTO_FIELD) is signed 64-bit on SQLite and PostgreSQL
# alike, and ids start at 1. The trivia app is the lowest one every other app imports.
ROW_ID_MAX = 2**63 - 1


# A question's starting rating by its import label: for a player at the bank's middle
# (medium), about the chances aims at (80 %, 60 %, 35 % with four answers).
RATING_SEEDS: dict[str, float] = {"easy": 1250.0, "medium": 1500.0, "hard": 1800.0}


def clean_text(value: str) -> str:
    """Trim and collapse whitespace runs; imported dumps carry stray and doubled spaces."""
    return " ".join(value.split())


def _normalise_for_fingerprint(value: str) -> str:
    # NFKC + casefold so "Pokémon"/"Pokémon" (composed vs decomposed) and case variants match.
    return clean_text(unicodedata.normalize("NFKC", value)).casefold()


def question_fingerprint(text: str, correct_answer: str) -> str:
    """Identity of a question for duplicate detection: normalised text + right answer.

    Distractors and category are deliberately left out: the shared dumps repeat a
    question under two categories or with different distractors, and both are the
    same question to a player.
    """
    key = f"{_normalise_for_fingerprint(text)}\x1f{_normalise_for_fingerprint(correct_answer)}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class Category(models.Model):
    name = models.CharField(max_length=120, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self) -> str:
        return self.name


class Question(models.Model):
    class Type(models.TextChoices):
        MULTIPLE = "multiple", "Multiple choice"
        BOOLEAN = "boolean", "True / False"

    class Difficulty(models.TextChoices):
        EASY = "easy", "Easy"
        MEDIUM = "medium", "Medium"
        HARD = "hard", "Hard"

    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="questions")
    text = models.TextField()
    type = models.CharField(max_length=8, choices=Type.choices, default=Type.MULTIPLE)
    difficulty = models.CharField(max_length=6, choices=Difficulty.choices)
    correct_answer = models.TextField()
    # Three strings for multiple choice, exactly one ("True"/"False") for boolean.
    incorrect_answers = models.JSONField(default=list)
    active = models.BooleanField(default=True)
    source = models.CharField(max_length=120, blank=True, default="")
    fingerprint = models.CharField(max_length=64, unique=True, editable=False)
    # Counted by the database when a game records an answer (a trigger on the attempt,
    # migration 0003); trivia.services.record_answer counts one by hand.
    times_asked = models.PositiveIntegerField(default=0, editable=False)
    times_correct = models.PositiveIntegerField(default=0, editable=False)
    # The question's rating on the players' scale (trivia/ratings.py): seeded from the
    # import label, then learned from players' first attempts (``rated_answers`` of them).
    rating = models.FloatField(default=RATING_SEEDS["medium"], editable=False)
    rated_answers = models.PositiveIntegerField(default=0, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            # Selection counts active questions of one difficulty and takes the N-th by id.
            # A partial index (active only) keyed by (difficulty, id) serves both from the
            # index alone; a plain (active, difficulty) index is skipped by SQLite because
            # Django writes the filter as WHERE "active" rather than "active" = 1.
            models.Index(
                fields=["difficulty", "id"],
                condition=models.Q(active=True),
                name="trivia_q_active_pick_idx",
            ),
            # Selection by rating: the active questions nearest a target rating, in any
            # category or in one (two range scans from the target, up and down).
            models.Index(
                fields=["rating", "id"],
                condition=models.Q(active=True),
                name="trivia_q_active_rating_idx",
            ),
            models.Index(
                fields=["category", "rating", "id"],
                condition=models.Q(active=True),
                name="trivia_q_category_rating_idx",
            ),
        ]

    def __str__(self) -> str:
        return self.text if len(self.text) <= 80 else self.text[:77] + "..."

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self._state.adding and not self.rated_answers:
            # A new question starts at its label's rating (an import, the admin).
            self.rating = RATING_SEEDS.get(self.difficulty, RATING_SEEDS["medium"])
        # Keep the fingerprint in step with edits made outside forms (shell, services).
        self.fingerprint = self.compute_fingerprint()
        super().save(*args, **kwargs)

    @property
    def correct_rate(self) -> float | None:
        """Observed share of correct answers, or None before anyone answered."""
        if not self.times_asked:
            return None
        return self.times_correct / self.times_asked

    def compute_fingerprint(self) -> str:
        return question_fingerprint(self.text, self.correct_answer)

    def clean(self) -> None:
        self.text = clean_text(self.text or "")
        self.correct_answer = clean_text(self.correct_answer or "")
        if isinstance(self.incorrect_answers, list):
            self.incorrect_answers = [
                clean_text(a) if isinstance(a, str) else a for a in self.incorrect_answers
            ]
        problems = question_problems(
            text=self.text,
            type=self.type,
            correct_answer=self.correct_answer,
            incorrect_answers=self.incorrect_answers,
        )
        if problems:
            raise ValidationError(problems)
        self.fingerprint = self.compute_fingerprint()
        clash = Question.objects.filter(fingerprint=self.fingerprint).exclude(pk=self.pk)
        if clash.exists():
            raise ValidationError(
                {"text": "The bank already has this question with the same right answer."}
            )


def question_problems(
    *, text: str, type: str, correct_answer: str, incorrect_answers: object
) -> dict[str, str]:
    """Why a question is incomplete, keyed by field; empty when it is playable.

    Shared by Question.clean() and the importer so the admin form and a file import
    accept exactly the same questions.
    """
    problems: dict[str, str] = {}
    if not text:
        problems["text"] = "The question text is empty."
    elif NUL in text:
        problems["text"] = "The question text holds a NUL character."
    if not correct_answer:
        problems["correct_answer"] = "The right answer is empty."
    elif NUL in correct_answer:
        problems["correct_answer"] = "The right answer holds a NUL character."
    if not isinstance(incorrect_answers, list) or not all(
        isinstance(a, str) for a in incorrect_answers
    ):
        problems["incorrect_answers"] = "The wrong answers must be a list of strings."
        return problems
    if any(NUL in answer for answer in incorrect_answers):
        problems["incorrect_answers"] = "A wrong answer holds a NUL character."
        return problems
    if type == Question.Type.MULTIPLE:
        # Compare case-insensitively: "Paris" and "paris" are the same choice to a player.
        wrong = {a.casefold() for a in incorrect_answers if a}
        if len(incorrect_answers) != MULTIPLE_WRONG_ANSWERS or len(wrong) != MULTIPLE_WRONG_ANSWERS:
            problems["incorrect_answers"] = (
                "A multiple-choice question needs exactly three distinct, non-empty wrong answers."
            )
        elif correct_answer.casefold() in wrong:
            problems["incorrect_answers"] = "The right answer is also listed as a wrong answer."
    elif type == Question.Type.BOOLEAN:
        if correct_answer not in BOOLEAN_ANSWERS:
            problems["correct_answer"] = (
                'A True/False question\'s answer must be "True" or "False".'
            )
        elif incorrect_answers != [a for a in BOOLEAN_ANSWERS if a != correct_answer]:
            problems["incorrect_answers"] = (
                "A True/False question's only wrong answer is the opposite of the right one."
            )
    else:
        problems["type"] = f"Unknown question type {type!r}."
    return problems


class PlayerRating(models.Model):
    """A player's trivia rating (trivia/ratings.py), learned from their first attempts;
    a player without one is at the bank's middle (RATING_SEEDS["medium"])."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="trivia_rating",
    )
    rating = models.FloatField(default=1500.0)
    rated_answers = models.PositiveIntegerField(default=0)
    # Questions asked since the last spaced review (at most one in five is a review).
    asked_since_review = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.player} at {self.rating:.0f}"


class SeenQuestion(models.Model):
    """A question a player has been shown, once a row: what selection leaves out, whether
    their first attempt was right (set once: only a first attempt moves ratings), and a
    missed question's spaced review (its step and when it is due; learned once answered
    right on review)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seen_questions"
    )
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="seen_by")
    first_seen = models.DateTimeField(default=timezone.now)
    first_correct = models.BooleanField(null=True, blank=True)
    review_step = models.PositiveSmallIntegerField(default=0)
    review_due = models.DateTimeField(null=True, blank=True)
    learned = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "question"], name="seen_question_once")
        ]
        indexes = [
            models.Index(
                fields=["player", "review_due"],
                condition=models.Q(review_due__isnull=False),
                name="seen_question_review_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.question_id} seen by {self.player_id}"


# A difficulty as the player reads it ("easy" -> "Easy"): the question bank's own labels,
# for every page that names one (the statistics, the shared tables).
DIFFICULTY_LABELS: dict[str, str] = dict(Question.Difficulty.choices)


class QuestionReport(models.Model):
    class Reason(models.TextChoices):
        WRONG_ANSWER = "wrong_answer", "The marked answer is wrong"
        AMBIGUOUS = "ambiguous", "Ambiguous or more than one right answer"
        OFFENSIVE = "offensive", "Offensive"
        OTHER = "other", "Other"

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="trivia_reports",
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    note = models.TextField(blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["question", "resolved"], name="trivia_report_open_idx")]

    def __str__(self) -> str:
        return f"{self.get_reason_display()}: {self.question}"


class QuestionPoolStamp(models.Model):
    """One row whose ``stamp`` changes with every change to the bank's active questions.

    Question selection keeps each difficulty's active ids in the process's memory and
    re-reads them when this stamp differs (trivia.services). It lives in the database,
    not the cache, so that a game's action reads it with the row lock it takes anyway (no
    extra round trip), and it changes in the same transaction as the questions:
    nobody sees the new stamp before the new questions, nor keeps it if they roll back."""

    SINGLETON_ID = 1

    stamp = models.CharField(max_length=32)

    def __str__(self) -> str:
        return self.stamp
