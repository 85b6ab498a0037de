"""What the benches that need PostgreSQL share: a scratch database beside the configured one.
The Celery worker processes they start are the worker tests' (`config/processes.py`).

Never imported by Crawford itself, nor by its tests."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

def server_of(database_url: str) -> tuple[dict, dict]:
    """The database's settings and psycopg's arguments to reach its server's `postgres` database."""
    import dj_database_url

    config = dj_database_url.parse(database_url)
    server = {"host": config["HOST"] or None, "port": config["PORT"] or None, "user": config["USER"] or None,
              "password": config["PASSWORD"] or None, "dbname": "postgres", "autocommit": True, "connect_timeout": 3}
    return config, server


@contextmanager
def scratch_database(database_url: str, suffix: str, *, keep: bool = False) -> Iterator[str]:
    """A database named after the configured one with `suffix`, (re)created empty, migrated,
    Django set up on it (DATABASE_URL points to it); dropped afterwards unless `keep`. Yields its
    URL. The configured database is never written. Workers started after it inherit its
    environment."""
    import psycopg

    config, server = server_of(database_url)
    scratch = f"{config['NAME']}{suffix}"
    with psycopg.connect(**server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{scratch}"')
    url = database_url.rsplit("/", 1)[0] + "/" + scratch
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a bench is not a deployment
    os.environ.setdefault("SITE_URL", "http://localhost:8000")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0)
        yield url
    finally:
        connections.close_all()
        if not keep:
            with psycopg.connect(**server) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
