from django.apps import AppConfig
from django.db.models.signals import post_delete


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"

    def ready(self) -> None:
        from game.models import DailyAttempt
        from game.signals import forget_deleted_attempt

        post_delete.connect(
            forget_deleted_attempt, sender=DailyAttempt, dispatch_uid="daily_attempt_deleted"
        )
