"""The shared tables' models leave the game app's state for the ``tables`` app's.

State only: their tables (``game_sharedtable``, ``game_seat``, ``game_tableevent``,
``game_tablequestion``) stay where they are, rows and all, under the ``tables`` app's
models (``Meta.db_table``). Runs after ``tables.0001_initial`` has taken them over, so the
state never lacks them.
"""

from django.db import migrations

# Fields that point between the moved models or out of them go before the models, so the
# state never holds a reference to a model already gone.
STATE_OPERATIONS = [
    migrations.RemoveField(model_name="tablequestion", name="seat"),
    migrations.RemoveField(model_name="sharedtable", name="host"),
    migrations.RemoveField(model_name="tableevent", name="table"),
    migrations.RemoveField(model_name="tablequestion", name="question"),
    migrations.DeleteModel(name="Seat"),
    migrations.DeleteModel(name="SharedTable"),
    migrations.DeleteModel(name="TableEvent"),
    migrations.DeleteModel(name="TableQuestion"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0013_engine_state_lz4"),
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=STATE_OPERATIONS, database_operations=[]
        ),
    ]
