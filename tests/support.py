"""What the tests that start a real Celery worker share: is a broker there, the database URL
the worker must use (the test database, not the configured one), and the workers themselves."""

import os
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection


def broker_reachable() -> bool:
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        return False
    try:
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=1).ping()
    except Exception:
        return False
    return True


def database_url() -> str:
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    return (f"postgres://{quote(db['USER'] or 'postgres')}{password}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}")


PROJECT = Path(__file__).resolve().parents[1]


class Workers:
    """`celery -A config worker` (or `beat`) processes on the test database, each in its own
    process group, so that a kill takes its embedded beat along, as when the machine loses the
    worker, and none outlives its test. `environment` is every worker's, on top of the test's
    own environment; `start` adds to it."""

    def __init__(self, tmp_path, **environment):
        self.tmp_path = tmp_path
        self.environment = environment
        self.started = []

    def start(self, name, *, beat=False, pool="solo", command="worker", **environment):
        """A worker (`command="worker"`, with its beat when `beat`) or a lone beat (`"beat"`)."""
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
               **self.environment, **environment}
        args = [sys.executable, "-m", "celery", "-A", "config", command, "--loglevel=INFO"]
        if command == "worker":
            args += [f"--pool={pool}", "--concurrency=1", f"--hostname={name}@%h", "--without-gossip",
                     "--without-mingle", "--without-heartbeat"]
        if beat or command == "beat":
            args += ["--beat"] * (command == "worker") + [f"--schedule={self.tmp_path / name}-beat"]
        log = self.tmp_path / f"{name}.log"
        process = subprocess.Popen(args, cwd=PROJECT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                                   start_new_session=True)
        process.log = log
        self.started.append(process)
        return process

    @staticmethod
    def kill(process):
        """Kill the worker and its children (its pool, its beat) at once, as a lost machine would."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def logs(self, tail=2500):
        return "\n".join(f"--- {p.log.name}\n{p.log.read_text()[-tail:]}" for p in self.started)

    def stop(self):
        """Stop every worker started and its children: SIGTERM, then SIGKILL after 10 s."""
        for process in self.started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            try:  # the group too: a beat forked by a worker killed without its group
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
