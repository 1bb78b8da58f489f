"""A question's answer counters (times_asked, times_correct) are kept by the database: a
trigger on the game's trivia attempt counts the answer when it is first recorded, in the
same statement that records it (one query fewer on every answer; a right answer
whose card ends the round needs five, not six). Time-outs record no answer and are not
counted, as before. SQLite and PostgreSQL, the two databases the site runs on."""

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE TRIGGER trivia_count_answer
    AFTER UPDATE OF answer_given ON game_triviaattempt
    FOR EACH ROW WHEN OLD.answer_given = '' AND NEW.answer_given <> ''
    BEGIN
        UPDATE trivia_question
        SET times_asked = times_asked + 1,
            times_correct = times_correct + (CASE WHEN NEW.correct THEN 1 ELSE 0 END)
        WHERE id = NEW.question_id;
    END
    """
]
SQLITE_BACKWARD = ["DROP TRIGGER IF EXISTS trivia_count_answer"]

POSTGRESQL_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION trivia_count_answer() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE trivia_question
        SET times_asked = times_asked + 1,
            times_correct = times_correct + (CASE WHEN NEW.correct THEN 1 ELSE 0 END)
        WHERE id = NEW.question_id;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER trivia_count_answer
    AFTER UPDATE OF answer_given ON game_triviaattempt
    FOR EACH ROW WHEN (OLD.answer_given = '' AND NEW.answer_given <> '')
    EXECUTE FUNCTION trivia_count_answer()
    """,
]
POSTGRESQL_BACKWARD = [
    "DROP TRIGGER IF EXISTS trivia_count_answer ON game_triviaattempt",
    "DROP FUNCTION IF EXISTS trivia_count_answer()",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise NotImplementedError(
                f"no answer-counting trigger for {schema_editor.connection.vendor}"
            )
        for statement in statements:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("trivia", "0002_active_pick_index"),
        # The trigger sits on the attempts table (its answer, correctness and question). On
        # SQLite a migration that rebuilds that table drops its triggers, so this runs after
        # the last game migration before it (0009): a fresh database's plan must not put
        # it earlier (game 0010 depending on this one once did, and the trigger was lost).
        ("game", "0009_pending_boxes"),
    ]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_FORWARD, "postgresql": POSTGRESQL_FORWARD}),
            _run({"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRESQL_BACKWARD}),
        ),
    ]
