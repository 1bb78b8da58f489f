import django.db.models.deletion
from django.db import migrations, models


def swapped_away_from_lifelines(apps, schema_editor):
    """Attempts swapped before the column: the id their Swap record names."""
    TriviaAttempt = apps.get_model("game", "TriviaAttempt")
    for attempt in TriviaAttempt.objects.exclude(lifelines=[]).only("pk", "lifelines"):
        swapped = [entry["question"] for entry in attempt.lifelines if entry.get("kind") == "swap"]
        if swapped:
            TriviaAttempt.objects.filter(pk=attempt.pk).update(swapped_away_id=int(swapped[0]))


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0021_trivia_category_and_lifelines"),
        ("trivia", "0005_ratings_and_seen_questions"),
    ]

    operations = [
        migrations.AddField(
            model_name="triviaattempt",
            name="swapped_away",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="trivia.question",
            ),
        ),
        migrations.RunPython(swapped_away_from_lifelines, migrations.RunPython.noop),
    ]
