"""What the game does when Django deletes a row of its own, connected in GameConfig.ready.

Kept apart from the services: the app registry imports this at start-up, before a
command may choose the compiled rules engine, so it imports the models alone.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F

from game.models import DailyAttempt, DailyShoe


def forget_deleted_attempt(sender: type[DailyAttempt], instance: DailyAttempt, **_: Any) -> None:
    """A finished attempt deleted (with its player's account, say) leaves the day's
    leaderboard: one fewer row, and a board that has changed. Connected to post_delete."""
    if instance.finished_at is None:
        return
    DailyShoe.objects.filter(pk=instance.day_id).update(
        finished_attempts=F("finished_attempts") - 1, board_version=F("board_version") + 1
    )
