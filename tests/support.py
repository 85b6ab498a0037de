"""What the tests that start a real Celery worker share: is a broker there, the database URL
the worker must use (the test database, not the configured one), and the workers themselves.
And `made_once`, for what a module-wide fixture makes at great cost."""

import fcntl
import os
import pickle
import signal
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from config.processes import Worker, wait


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


class Workers:
    """Celery workers (or lone beats) on the test database, each a `config.processes.Worker` in its
    own process group; `environment` is every worker's, on top of the test's own environment, and
    `start` adds to it. `stop` ends them all, so none outlives its test."""

    def __init__(self, tmp_path, **environment):
        self.tmp_path = tmp_path
        self.environment = environment
        self.started: list[Worker] = []
        self.killed: list[Worker] = []

    def start(self, name, *, beat=False, pool="solo", command="worker", **environment) -> Worker:
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
               **self.environment, **environment}
        worker = Worker(name, env, self.tmp_path, beat=beat, pool=pool, command=command)
        self.started.append(worker)
        return worker

    def kill(self, worker: Worker) -> None:
        """Kill the worker and its children (its pool, its beat) at once, as a lost machine would."""
        worker.kill()
        self.killed.append(worker)

    def logs(self, tail=2500):
        return "\n".join(f"--- {w.log.name}\n{w.log.read_text()[-tail:]}" for w in self.started)

    def wait_for(self, condition, *, timeout=60.0, every=0.1, explain=None):
        """`condition()`'s first true value. The test fails, with the workers' logs, after
        `timeout` seconds, or at once when a worker it did not kill has stopped."""

        def asked():
            if any(w.process.poll() is not None for w in self.started if w not in self.killed):
                pytest.fail(f"a worker stopped\n{self.logs()}")
            return condition()

        try:
            return wait(asked, timeout, every)
        except TimeoutError:
            said = f"\n{explain()}" if explain is not None else ""
            pytest.fail(f"gave up waiting after {timeout} s{said}\n{self.logs()}")

    def stop(self):
        """Stop every worker started and whatever it forked: SIGTERM, then SIGKILL."""
        for worker in self.started:
            worker.send(signal.SIGTERM)
        for worker in self.started:
            worker.reap(timeout=10)


def made_once(tmp_path_factory, name: str, make):
    """`make()`, made once for the whole run: the test processes of `pytest -n` share it through a
    file beside their temporary folders, and the first to ask makes it while the others wait for
    it (GNU Backgammon's analysis of every shared match file: half a minute each time)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the folder the test processes' own folders are in
    path = root / f"{name}.pickle"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            path.write_bytes(pickle.dumps(make()))
        return pickle.loads(path.read_bytes())


GNUBG_PR_TOLERANCE = 0.02
"""How far a PR GNU Backgammon computes may be from the figure a test names. Its evaluations
differ in the last digits from one processor to another (7.2116 on one machine, 7.2151 on
another, for the same file), and a PR sums hundreds of them. A test checks that the oracle is
within this of the named figure, and that the pages, the API and the commands show exactly the
figure stored."""
GNUBG_EQUITY_TOLERANCE = 0.002
"""The same for the equity one decision lost (0.8024 on one machine, 0.803 on another)."""


def stored_prs(match) -> list[float]:
    """The PRs the analysis of `match` stored, left player first."""
    from analysis.models import MatchAnalysis

    return [side.pr for side in MatchAnalysis.objects.get(match=match).sides.order_by("side")]
