"""Usernames are unique whatever their letter case, in the database itself.

Django's ``auth_user.username`` is unique as written ("Grace" and "grace" are two
accounts); the sign-up form checks case-insensitively, but two sign-ups posted at once
both pass the form's check. A unique index on ``lower(username)`` makes the second one
fail in the database, whichever commits first (blackjack_site/accounts.py answers it as
the form's "name taken" error). The auth app's model is not ours to declare a constraint
on, so the constraint is added through the schema editor's documented ``add_constraint``,
which writes the index each database needs (SQLite and PostgreSQL both index expressions).
"""

from django.db import migrations
from django.db.models import Count, UniqueConstraint
from django.db.models.functions import Lower

USERNAME_IN_ANY_CASE = UniqueConstraint(Lower("username"), name="auth_user_username_lower_uniq")


def add_constraint(apps, schema_editor):
    user = apps.get_model("auth", "User")
    clashes = list(
        user.objects.using(schema_editor.connection.alias)
        .values(lowered=Lower("username"))
        .annotate(accounts=Count("id"))
        .filter(accounts__gt=1)
        .values_list("lowered", flat=True)[:10]
    )
    if clashes:
        raise RuntimeError(
            "Usernames differing only in letter case must be renamed before this migration: "
            + ", ".join(clashes)
        )
    schema_editor.add_constraint(user, USERNAME_IN_ANY_CASE)


def remove_constraint(apps, schema_editor):
    schema_editor.remove_constraint(apps.get_model("auth", "User"), USERNAME_IN_ANY_CASE)


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(add_constraint, remove_constraint)]
