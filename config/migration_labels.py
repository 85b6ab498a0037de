"""`AlterLabels`: a migration's label changes (verbose names, help texts, the words of choices,
model options such as ordering), applied as one operation.

Django rebuilds its migration state after each `AlterField`, with every model related to the
field's; the few hundred label changes that made the models translatable took most of `migrate`'s
time (19 of 28 s on SQLite), in every new install and every test database. Nothing of a label is
in the database, so this applies the same operations to the state (Django's own code, each
operation's `state_forwards`), rebuilds the models they touched once, and writes nothing. It
refuses, at `migrate`, an operation that would change a column: that belongs in an ordinary
migration."""

from django.db import migrations


def _in_database(field) -> tuple:
    """What of a field the database holds: its deconstruction without the attributes that only
    Python reads (`Field.non_db_attrs`: labels, choices, validators…)."""
    _name, path, args, kwargs = field.deconstruct()
    return path, args, {key: value for key, value in kwargs.items() if key not in field.non_db_attrs}


class AlterLabels(migrations.operations.base.Operation):
    """`AlterField`s and `AlterModelOptions` that change labels only, applied together."""

    reversible = True
    reduces_to_sql = False

    def __init__(self, operations):
        self.operations = list(operations)
        for operation in self.operations:
            if not isinstance(operation, (migrations.AlterField, migrations.AlterModelOptions)):
                raise TypeError(f"AlterLabels takes AlterField and AlterModelOptions, not {operation!r}")

    def deconstruct(self):
        return f"{__name__}.{type(self).__name__}", [self.operations], {}

    def state_forwards(self, app_label, state):
        touched = []
        # Each operation's own change of the state; the models are rebuilt once, after them all.
        state.reload_model = lambda app, model, delay=False: touched.append((app, model))
        try:
            for operation in self.operations:
                operation.state_forwards(app_label, state)
        finally:
            del state.reload_model
        state.reload_models(touched, delay=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._nothing_in_the_database(app_label, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._nothing_in_the_database(app_label, to_state, from_state)

    def _nothing_in_the_database(self, app_label, before, after):
        for operation in self.operations:
            if isinstance(operation, migrations.AlterField):
                was = before.apps.get_model(app_label, operation.model_name)._meta.get_field(operation.name)
                now = after.apps.get_model(app_label, operation.model_name)._meta.get_field(operation.name)
                if _in_database(was) != _in_database(now):
                    raise ValueError(f"{app_label}.{operation.model_name}.{operation.name}: AlterLabels changes "
                                     "labels only; a change of the column needs its own AlterField")

    def describe(self):
        return f"Alter the labels of {len(self.operations)} fields and models"

    @property
    def migration_name_fragment(self):
        return "labels"
