"""A long analysis tells the other workers it is alive while GNU Backgammon runs (no gnubg needed)."""

import stat

import pytest

from analysis import gnubg


@pytest.fixture
def slow_program(tmp_path):
    """A stand-in for GNU Backgammon that works for a while and writes nothing."""
    program = tmp_path / "gnubg"
    program.write_text("#!/bin/sh\nsleep 1\n")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    return str(program)


def test_the_heartbeat_is_called_while_the_program_runs(slow_program):
    beats = []
    results = gnubg.analyse_files({"m": "not read"}, program=slow_program, timeout=10,
                                  heartbeat=lambda: beats.append(1), heartbeat_every=0.2)
    assert 3 <= len(beats) <= 5
    assert "stopped before this file (exit 0)" in str(results["m"])


def test_a_program_over_its_time_limit_is_stopped_between_heartbeats(slow_program):
    beats = []
    with pytest.raises(gnubg.AnalysisError, match="GNU Backgammon took longer than 0 s"):
        gnubg.analyse_files({"m": "not read"}, program=slow_program, timeout=0.3,
                            heartbeat=lambda: beats.append(1), heartbeat_every=0.1)
    assert 1 <= len(beats) <= 3
