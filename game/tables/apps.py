from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The shared tables: an app of their own inside ``game``, with their own migrations.

    The models came from the ``game`` app and keep its table names (``Meta.db_table``), so
    a database that held them before migrates without copying a row."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "game.tables"
    label = "tables"
    verbose_name = "Shared tables"
