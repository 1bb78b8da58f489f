import django.db.models.deletion
from django.db import migrations, models


def point_games_at_their_pending_trivia(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    TriviaAttempt = apps.get_model("game", "TriviaAttempt")
    for attempt_id, game_id in TriviaAttempt.objects.filter(applied=False).values_list(
        "pk", "game_id"
    ):
        Game.objects.filter(pk=game_id).update(pending_trivia_id=attempt_id)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0007_trivia_difficulty_remembered"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="pending_trivia",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="game.triviaattempt",
            ),
        ),
        migrations.RunPython(point_games_at_their_pending_trivia, migrations.RunPython.noop),
    ]
