"""The question pools' stamp (trivia.models.QuestionPoolStamp), read with a game's row lock
instead of from the cache, and its one row."""

import secrets

from django.db import migrations, models


def add_the_row(apps, schema_editor) -> None:
    stamp_model = apps.get_model("trivia", "QuestionPoolStamp")
    stamp_model.objects.using(schema_editor.connection.alias).create(
        pk=1, stamp=secrets.token_hex(8)
    )


class Migration(migrations.Migration):
    dependencies = [("trivia", "0003_count_answers_in_the_database")]

    operations = [
        migrations.CreateModel(
            name="QuestionPoolStamp",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("stamp", models.CharField(max_length=32)),
            ],
        ),
        migrations.RunPython(add_the_row, migrations.RunPython.noop),
    ]
