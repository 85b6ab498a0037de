"""The roles as Django groups: site admin, rating officer, tournament director, player.

Each group holds the model permissions its role needs in Django's admin site; what a role may do
in the events, the ratings and the matches is decided by the `permissions` modules. Staff logins
that were, until now, TDs of every event are put in the site admin group, so that nobody loses a
right on upgrading; move a login that only publishes rating lists to the rating officer group.
"""

from django.db import migrations

SITE_ADMIN = "Site admin"
RATING_OFFICER = "Rating officer"
TOURNAMENT_DIRECTOR = "Tournament director"
PLAYER = "Player"


def _permissions(apps, Permission, *labels, codenames=None):
    rows = Permission.objects.filter(content_type__app_label__in=labels)
    if codenames is not None:
        rows = rows.filter(codename__in=codenames)
    return list(rows)


def create_roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    User = apps.get_model("auth", "User")
    site_admin, _ = Group.objects.get_or_create(name=SITE_ADMIN)
    site_admin.permissions.set(Permission.objects.all())
    officer, _ = Group.objects.get_or_create(name=RATING_OFFICER)
    officer.permissions.set(
        _permissions(apps, Permission, "ratings")
        + _permissions(apps, Permission, "games", codenames=["view_player", "add_player", "change_player",
                                                              "view_match", "view_importjob"]))
    director, _ = Group.objects.get_or_create(name=TOURNAMENT_DIRECTOR)
    director.permissions.set(_permissions(apps, Permission, "tournaments", codenames=[
        "add_tournament", "view_tournament", "view_flight", "view_entry", "view_round", "view_pairing",
        "view_resultreport"]))
    Group.objects.get_or_create(name=PLAYER)
    for user in User.objects.filter(is_staff=True, is_superuser=False):
        user.groups.add(site_admin)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(
        name__in=[SITE_ADMIN, RATING_OFFICER, TOURNAMENT_DIRECTOR, PLAYER]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0004_limits_player_twin"),
        ("ratings", "0005_checkpoint_ready"),
        ("tournaments", "0010_flight_draw_rules"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
