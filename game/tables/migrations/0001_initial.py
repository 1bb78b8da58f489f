"""The shared tables' models, taken over from the game app's state.

Their tables were created by the game app's migrations (0010 to 0013, lz4 for the state
column on PostgreSQL included) and keep those names (``Meta.db_table``): this migration
changes Django's state only, and the game app's 0014 then drops the models from its own.
Nothing is copied, so a database that holds tables, seats and their events and questions
keeps them all.

The content types of the four models move with them (the rows' ``app_label``), so what
points at those rows (permissions given to users and groups, the admin's log) follows the
models instead of being left on stale types. A type already present under the new label
(made by ``migrate``'s own post-migrate step) is left as it is.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import game.tables.models

MOVED_MODELS = ("sharedtable", "seat", "tableevent", "tablequestion")


def _relabel_content_types(apps, schema_editor, old_label: str, new_label: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    rows = content_type.objects.using(schema_editor.connection.alias)
    taken = rows.filter(app_label=new_label, model__in=MOVED_MODELS).values_list("model", flat=True)
    rows.filter(app_label=old_label, model__in=MOVED_MODELS).exclude(model__in=list(taken)).update(
        app_label=new_label
    )


def content_types_to_tables(apps, schema_editor) -> None:
    _relabel_content_types(apps, schema_editor, "game", "tables")


def content_types_to_game(apps, schema_editor) -> None:
    _relabel_content_types(apps, schema_editor, "tables", "game")


STATE_OPERATIONS = [
    migrations.CreateModel(
        name="SharedTable",
        fields=[
            (
                "id",
                models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                ),
            ),
            ("name", models.CharField(max_length=60)),
            ("options", models.JSONField(default=dict)),
            ("seat_count", models.PositiveSmallIntegerField(default=5)),
            ("intermission_seconds", models.PositiveSmallIntegerField(default=30)),
            ("public", models.BooleanField(default=True)),
            (
                "invite_token",
                models.CharField(
                    default=game.tables.models.new_invite_token, max_length=64, unique=True
                ),
            ),
            (
                "phase",
                models.CharField(
                    choices=[
                        ("intermission", "Betting"),
                        ("round", "Round in play"),
                        ("closed", "Closed"),
                    ],
                    default="intermission",
                    max_length=12,
                ),
            ),
            ("deadline_ms", models.BigIntegerField(blank=True, db_index=True, null=True)),
            ("betting_ends_ms", models.BigIntegerField(blank=True, null=True)),
            ("state", models.JSONField(default=dict)),
            ("round_number", models.PositiveIntegerField(default=0)),
            ("version", models.PositiveBigIntegerField(default=0)),
            ("revision", models.PositiveBigIntegerField(default=0)),
            ("created", models.DateTimeField(auto_now_add=True)),
            (
                "empty_since",
                models.DateTimeField(blank=True, default=django.utils.timezone.now, null=True),
            ),
            (
                "host",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="hosted_tables",
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
        ],
        options={
            "db_table": "game_sharedtable",
            "ordering": ["-created", "-id"],
        },
    ),
    migrations.CreateModel(
        name="Seat",
        fields=[
            (
                "id",
                models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                ),
            ),
            ("number", models.PositiveSmallIntegerField(blank=True, null=True)),
            ("bank_cents", models.BigIntegerField()),
            ("credits", models.IntegerField()),
            ("bet_cents", models.BigIntegerField(default=0)),
            ("side_bets", models.JSONField(blank=True, default=dict)),
            ("extra_bet", models.BooleanField(default=False)),
            ("ready", models.BooleanField(default=False)),
            ("sitting_out", models.BooleanField(default=False)),
            ("box", models.PositiveSmallIntegerField(blank=True, null=True)),
            ("trivia_choice_for", models.CharField(blank=True, default="", max_length=8)),
            ("version", models.PositiveBigIntegerField(default=0)),
            ("joined", models.DateTimeField(auto_now_add=True)),
            (
                "player",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="table_seats",
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
            (
                "table",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="seats",
                    to="tables.sharedtable",
                ),
            ),
        ],
        options={
            "db_table": "game_seat",
            "ordering": ["table", "number"],
        },
    ),
    migrations.CreateModel(
        name="TableEvent",
        fields=[
            (
                "id",
                models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                ),
            ),
            ("seq", models.PositiveBigIntegerField()),
            ("kind", models.CharField(max_length=32)),
            ("data", models.JSONField(default=dict)),
            ("created", models.DateTimeField(auto_now_add=True)),
            (
                "table",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="events",
                    to="tables.sharedtable",
                ),
            ),
        ],
        options={
            "db_table": "game_tableevent",
            "ordering": ["table", "seq"],
        },
    ),
    migrations.CreateModel(
        name="TableQuestion",
        fields=[
            (
                "id",
                models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                ),
            ),
            ("round_number", models.PositiveIntegerField()),
            ("action", models.CharField(max_length=8)),
            ("difficulty", models.CharField(max_length=6)),
            ("answers_shown", models.JSONField(default=list)),
            ("shown_ms", models.BigIntegerField()),
            ("answer_given", models.TextField(blank=True, default="")),
            ("correct", models.BooleanField(blank=True, null=True)),
            ("timed_out", models.BooleanField(default=False)),
            (
                "question",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.PROTECT,
                    related_name="table_attempts",
                    to="trivia.question",
                ),
            ),
            (
                "seat",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="questions",
                    to="tables.seat",
                ),
            ),
        ],
        options={
            "db_table": "game_tablequestion",
            "ordering": ["seat", "id"],
        },
    ),
    migrations.AddField(
        model_name="seat",
        name="pending_question",
        field=models.ForeignKey(
            blank=True,
            null=True,
            on_delete=django.db.models.deletion.SET_NULL,
            related_name="+",
            to="tables.tablequestion",
        ),
    ),
    migrations.AddConstraint(
        model_name="sharedtable",
        constraint=models.CheckConstraint(
            condition=models.Q(("seat_count__gte", 2), ("seat_count__lte", 7)),
            name="table_seat_count_in_range",
        ),
    ),
    migrations.AddConstraint(
        model_name="tableevent",
        constraint=models.UniqueConstraint(fields=("table", "seq"), name="table_event_seq_unique"),
    ),
    migrations.AddIndex(
        model_name="tablequestion",
        index=models.Index(fields=["seat", "question"], name="table_question_asked_idx"),
    ),
    migrations.AddConstraint(
        model_name="seat",
        constraint=models.UniqueConstraint(fields=("table", "player"), name="seat_one_per_player"),
    ),
    migrations.AddConstraint(
        model_name="seat",
        constraint=models.UniqueConstraint(
            condition=models.Q(("number__isnull", False)),
            fields=("table", "number"),
            name="seat_number_taken_once",
        ),
    ),
    migrations.AddConstraint(
        model_name="seat",
        constraint=models.CheckConstraint(
            condition=models.Q(("bank_cents__gte", 0)), name="seat_bank_not_negative"
        ),
    ),
    migrations.AddConstraint(
        model_name="seat",
        constraint=models.CheckConstraint(
            condition=models.Q(("bet_cents__gte", 0)), name="seat_bet_not_negative"
        ),
    ),
]


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("game", "0013_engine_state_lz4"),
        ("trivia", "0003_count_answers_in_the_database"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=STATE_OPERATIONS, database_operations=[]
        ),
        migrations.RunPython(content_types_to_tables, content_types_to_game),
    ]
