"""What the benches that need PostgreSQL, Redis and a real Celery worker share: a scratch
database beside the configured one, and worker processes to start, wait for and kill.

Never imported by Crawford itself."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


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


class Worker:
    """A Celery process in its own process group, logging to `folder/name.log`: a worker
    (`command="worker"`, with its embedded beat when `beat`) or a lone beat (`command="beat"`).
    Its own group, so that a kill takes its pool and its beat along, as when the machine loses
    it, and nothing it forked outlives it. The benches and the worker tests start theirs here."""

    def __init__(self, name: str, env: dict, folder: Path, *, beat: bool = False, pool: str = "solo",
                 concurrency: int = 1, command: str = "worker") -> None:
        args = [sys.executable, "-m", "celery", "-A", "config", command, "--loglevel=INFO"]
        if command == "worker":
            args += [f"--pool={pool}", f"--concurrency={concurrency}", f"--hostname={name}@%h", "--without-gossip",
                     "--without-mingle", "--without-heartbeat"] + ["--beat"] * beat
        if beat or command == "beat":
            args.append(f"--schedule={folder / name}-beat")
        self.log = folder / f"{name}.log"
        self.process = subprocess.Popen(args, cwd=PROJECT, env=env, stdout=self.log.open("w"),
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def ready(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError("the Celery worker stopped:\n" + self.log.read_text()[-3000:])
        return "ready." in self.log.read_text()

    def send(self, sig) -> None:
        """Send `sig` to the whole group, if the worker still runs."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)

    def reap(self, timeout: float = 15.0) -> None:
        """Wait up to `timeout` seconds for the worker, then kill whatever of its group is left (a
        beat or a pool process the signal did not end)."""
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def kill(self, sig=signal.SIGKILL) -> None:
        self.send(sig)
        self.reap()


def wait(condition, timeout: float, every: float = 0.02):
    """`condition()`'s first true value, asked every `every` seconds; TimeoutError after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise TimeoutError(f"gave up after {timeout} s")
