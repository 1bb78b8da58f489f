from django.db import migrations, models
from django.db.models import Count, Q


def count_finished(apps, schema_editor):
    """Each existing day's finished attempts, counted once."""
    DailyShoe = apps.get_model("game", "DailyShoe")
    days = DailyShoe.objects.annotate(
        finished=Count("attempts", filter=Q(attempts__finished_at__isnull=False))
    )
    for day in days:
        DailyShoe.objects.filter(pk=day.pk).update(
            finished_attempts=day.finished, board_version=day.finished
        )


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0019_daily_over_reason"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailyshoe",
            name="finished_attempts",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="dailyshoe",
            name="board_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_finished, migrations.RunPython.noop),
    ]
