"""Celery processes started from Python, and waiting for what they do: the worker tests
(`tests/support.py`) and the benches that need a real worker (`bench/`) start theirs here, so
that neither imports the other.

Standard library only; the running site never imports it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


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
