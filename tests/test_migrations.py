"""The migrations: they agree with the models, and the label migrations (`AlterLabels`,
config/migration_labels.py) give the state Django's own operations give, and write nothing."""

import pytest
from django.core.management import call_command
from django.db import connection, migrations, models
from django.db.migrations.loader import MigrationLoader

from config.migration_labels import AlterLabels


@pytest.mark.django_db
def test_the_models_need_no_migration_that_is_not_written():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 naming the app otherwise


def label_migrations(loader):
    return [(key, migration) for key, migration in sorted(loader.graph.nodes.items())
            if any(isinstance(operation, AlterLabels) for operation in migration.operations)]


def test_each_label_migration_gives_the_state_of_its_operations_applied_one_by_one():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found = label_migrations(loader)
    assert [key for key, _ in found] == [
        ("analysis", "0004_labels_translatable"), ("games", "0010_labels_translatable"),
        ("ratings", "0010_labels_translatable"), ("tournaments", "0015_labels_translatable")]
    for (app, name), migration in found:
        before = loader.project_state((app, name), at_end=False)
        together, one_by_one = before.clone(), before.clone()  # not rendered: the models' states are compared
        (labels,) = migration.operations
        labels.state_forwards(app, together)
        for operation in labels.operations:
            operation.state_forwards(app, one_by_one)
        assert together == one_by_one, name
        assert len(together.apps.get_models()) == len(before.apps.get_models())  # and the models are built from it
        assert "verbose_name" in together.models[app, labels.operations[-1].model_name_lower].fields[
            labels.operations[-1].name].deconstruct()[3]


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor works outside a transaction only
def test_a_label_migration_that_would_change_a_column_is_refused_at_migrate():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    before = loader.project_state(("games", "0010_labels_translatable"), at_end=True)
    name = before.models["games", "player"].fields["name"]
    longer, renamed = name.clone(), name.clone()
    longer.max_length, renamed.verbose_name = 999, "full name"
    wider = AlterLabels([migrations.AlterField("player", "name", longer)])
    after = before.clone()
    wider.state_forwards("games", after)
    with connection.schema_editor(collect_sql=True) as editor, pytest.raises(ValueError, match="games.player.name"):
        wider.database_forwards("games", editor, before, after)
    relabelled = AlterLabels([migrations.AlterField("player", "name", renamed)])
    after = before.clone()
    relabelled.state_forwards("games", after)
    with connection.schema_editor(collect_sql=True) as editor:
        relabelled.database_forwards("games", editor, before, after)
        assert editor.collected_sql == []


def test_an_operation_that_is_not_a_label_is_refused_when_the_migration_is_read():
    with pytest.raises(TypeError, match="AlterLabels takes"):
        AlterLabels([migrations.AddField("player", "nickname", models.CharField(max_length=20))])
