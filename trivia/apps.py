from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class TriviaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "trivia"

    def ready(self) -> None:
        from trivia.models import Question
        from trivia.services import question_pools_changed

        def pools_changed(**kwargs: object) -> None:
            question_pools_changed()

        # A saved or deleted question (admin form, factories, delete_selected) gives the bank
        # a new stamp, so every process reads its id lists again; bulk writes call
        # question_pools_changed themselves.
        post_save.connect(pools_changed, sender=Question, weak=False, dispatch_uid="trivia-pools")
        post_delete.connect(
            pools_changed, sender=Question, weak=False, dispatch_uid="trivia-pools-delete"
        )
