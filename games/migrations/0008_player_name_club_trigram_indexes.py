"""Searching a player by any part of his name or club (`icontains`: UPPER(name) LIKE '%SATO%')
reads a trigram index on PostgreSQL instead of every player. The indexes are PostgreSQL's own
(GIN with pg_trgm), so they are made here and not declared on the model; on SQLite this
migration does nothing, and a search there reads the table as before."""

from django.db import migrations

INDEXES = {
    "player_name_trigram": "name",
    "player_club_trigram": "club",
}


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for index, column in INDEXES.items():
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{index}" ON "games_player" USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for index in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{index}"')


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_match_player_record_indexes"),
    ]

    operations = [migrations.RunPython(create, drop)]
