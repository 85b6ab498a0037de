"""Installing Crawford from the README: local commands with the settings `make run` writes, a
production server that refuses to start half-configured, and a Makefile that stops with advice."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
README = (PROJECT / "README.md").read_text()

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def bare_env(**extra) -> dict:
    """A shell's environment with none of this test run's Crawford variables."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "LANG": "C.UTF-8"}
    return {**env, **extra}


def manage(*args, env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=PROJECT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def readme_manage_commands() -> list[str]:
    """Every `.venv/bin/python manage.py ...` line of the README, as written (comments cut)."""
    lines = re.findall(r"^\.venv/bin/python manage\.py ([^\n#]+)", README, flags=re.MULTILINE)
    return [line.strip() for line in lines]


@pytest.fixture
def local_env(tmp_path) -> dict:
    """The environment of a shell on the club secretary's laptop after `make run`: nothing set, and
    the local.env file `make run` writes (here beside a database of its own)."""
    path = tmp_path / "local.env"
    result = subprocess.run(["make", "-s", str(path), f"LOCAL_ENV={path}"], cwd=PROJECT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "DEBUG=1" in path.read_text().splitlines()
    with path.open("a") as file:
        file.write(f"DATABASE_URL=sqlite:///{tmp_path / 'db.sqlite3'}\n")
    return bare_env(CRAWFORD_LOCAL_ENV=str(path))


# -- local commands ------------------------------------------------------------------------------


def readme_command_names() -> set[str]:
    """The commands of every manage.py line, and of every `manage.py ...` named in the text."""
    inline = re.findall(r"`(?:\.venv/bin/python )?manage\.py (\w+)", README)
    return {line.split()[0] for line in readme_manage_commands()} | set(inline)


def test_the_readme_names_its_local_commands():
    commands = readme_command_names()
    assert {"bg", "import_mat", "analyse", "recompute_ratings", "import_results", "predict",
            "publish_rating_list", "drf_create_token", "axes_reset_username", "migrate"} <= commands


@pytest.mark.slow
@needs_make
def test_every_manage_py_command_of_the_readme_starts_with_the_settings_make_run_writes(local_env):
    for command in sorted(readme_command_names()):
        result = manage(command, "--help", env=local_env)
        assert result.returncode == 0, (command, result.stderr[-2000:])


@needs_make
def test_readme_commands_run_as_written_on_a_laptop(local_env):
    assert manage("migrate", "--noinput", "-v", "0", env=local_env).returncode == 0
    moves = manage("bg", "moves", "4HPwATDgc/ABMA", "53", env=local_env)
    assert moves.returncode == 0, moves.stderr
    assert "8/3 6/3" in moves.stdout
    recompute = manage("recompute_ratings", "--system", "fibs", env=local_env)
    assert recompute.returncode == 0, recompute.stderr
    assert recompute.stdout.startswith("fibs: run ")


def test_without_local_env_or_secret_key_manage_py_refuses_as_production_does(tmp_path):
    result = manage("check", env=bare_env(CRAWFORD_LOCAL_ENV=str(tmp_path / "missing.env")))
    assert result.returncode == 1
    assert "SECRET_KEY is not set." in result.stderr


def test_a_production_shell_never_reads_local_env(tmp_path):
    """With SECRET_KEY set, the DEBUG=1 of a local.env left in the folder is ignored: production
    settings apply, and so does their demand for SITE_URL."""
    path = tmp_path / "local.env"
    path.write_text("DEBUG=1\nSITE_URL=http://localhost:8000\n")
    result = manage("check", env=bare_env(CRAWFORD_LOCAL_ENV=str(path), SECRET_KEY="p" * 60))
    assert result.returncode == 1
    assert ("ImproperlyConfigured: SITE_URL is not set. In production set SITE_URL to the address players open "
            "the site at, e.g. https://crawford.example.org (see README, Production).") in result.stderr


def test_production_refuses_to_start_without_a_site_url():
    code = "import django; django.setup()"
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True, timeout=120,
                            env=bare_env(DJANGO_SETTINGS_MODULE="config.settings", SECRET_KEY="q" * 60))
    assert result.returncode == 1
    assert "SITE_URL is not set." in result.stderr


def test_the_readme_makes_and_drops_databases_as_the_postgres_user():
    """The app's role owns its database but may not create one: a restore that drops it as that
    role could not make it again."""
    commands = re.findall(r"(?:^|&& |`)((?:sudo -u \w+ )?(?:dropdb|createdb)\b[^`&\n]*)", README, flags=re.MULTILINE)
    assert len(commands) >= 3
    assert [c for c in commands if not c.startswith("sudo -u postgres ")] == []


def test_no_example_of_the_readme_dates_a_list_or_forecast_after_today():
    from datetime import date

    dates = [date.fromisoformat(d) for d in re.findall(r"--as-of (\d{4}-\d\d-\d\d)", README)]
    assert dates and [d for d in dates if d > date.today()] == []


# -- make ----------------------------------------------------------------------------------------


@needs_make
def test_make_without_a_python_312_stops_with_the_advice_alone(tmp_path):
    finder = tmp_path / "find-python"
    finder.write_text("#!/bin/sh\necho 'no Python 3.12 here' >&2\nexit 1\n")
    finder.chmod(0o755)
    result = subprocess.run(["make", "--no-print-directory", "run", f"VENV={tmp_path / 'venv'}",
                             f"FIND_PYTHON={finder}"], cwd=PROJECT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        'Makefile:25: *** Crawford needs Python 3.12 or newer (with venv): install it, or name one with '
        'PYTHON=/path/to/python3.12 (README, "Try it").  Stop.\n')
    assert not (tmp_path / "venv").exists()


@needs_make
@pytest.mark.parametrize("venv_there", [False, True])
def test_make_with_a_python_named_that_is_missing_says_so_and_uses_no_other(tmp_path, venv_there):
    venv = tmp_path / "venv"
    if venv_there:
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(sys.executable)
    result = subprocess.run(["make", "--no-print-directory", "-n", "run", f"VENV={venv}", "PYTHON=/no/such/python"],
                            cwd=PROJECT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Makefile:34: *** PYTHON=/no/such/python is not a Python 3.12 or newer with venv (is it installed at that "
        "path?): name another one, or leave PYTHON out to use the one found.  Stop.\n")
    assert venv.exists() is venv_there


def test_find_python_with_a_python_named_answers_for_that_one_alone():
    finder = PROJECT / "scripts" / "find-python"
    missing = subprocess.run([str(finder)], env=bare_env(PYTHON="/no/such/python"), capture_output=True, text=True)
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == "PYTHON=/no/such/python is not a Python 3.12 or newer with venv (is it installed at that path?).\n"
    named = subprocess.run([str(finder)], env=bare_env(PYTHON=sys.executable), capture_output=True, text=True)
    assert (named.returncode, named.stdout) == (0, f"{sys.executable}\n")


@needs_make
def test_make_run_installs_the_requirements_to_run_and_make_test_those_to_test(tmp_path):
    venv = f"VENV={tmp_path / 'venv'}"
    run = subprocess.run(["make", "-n", "run", venv], cwd=PROJECT, capture_output=True, text=True, timeout=60)
    test = subprocess.run(["make", "-n", "test", venv], cwd=PROJECT, capture_output=True, text=True, timeout=60)
    installs = lambda out: re.findall(r"pip install --quiet -r (\S+)", out)  # noqa: E731
    assert installs(run.stdout) == ["requirements.txt"]
    assert installs(test.stdout) == ["requirements.txt", "requirements-dev.txt"]
    assert "pytest" not in (PROJECT / "requirements.txt").read_text()


# -- every setting is documented -----------------------------------------------------------------


def variables_read(path: Path) -> set[str]:
    text = path.read_text()
    return set(re.findall(r"""(?:os\.environ(?:\.get)?[\[(]|env_bool\(|env_list\()\s*["']([A-Z][A-Z0-9_]+)["']""",
                          text))


def test_every_environment_variable_crawford_reads_is_in_a_readme_table():
    read = set()
    for path in (PROJECT / "config" / "settings.py", PROJECT / "manage.py", PROJECT / "bench" / "shared_data.py"):
        read |= variables_read(path)
    read -= {"DJANGO_SETTINGS_MODULE", "PYTEST_XDIST_WORKER"}  # set by Django and by the test runner
    assert {"SECRET_KEY", "TIME_ZONE", "LOG_LEVEL", "DB_CONN_MAX_AGE", "SECURE_HSTS_PRELOAD",
            "CELERY_RESULT_BACKEND", "CRAWFORD_LOCAL_ENV"} <= read
    in_tables = set()
    for line in README.splitlines():
        if line.startswith("| `"):
            in_tables |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split(" | ")[0]))
    assert sorted(read - in_tables) == []


def test_the_settings_of_every_process_know_nothing_of_tests_and_hold_every_default():
    """config/settings.py is what manage.py, gunicorn and Celery read: no fork for a test run (the
    tests read config/test_settings.py), and the one place a setting's default is written (no
    module reads a setting with a default of its own)."""
    from django.conf import settings

    assert (os.environ["DJANGO_SETTINGS_MODULE"], settings.SECURE_HTTPS, settings.RATINGS_AFTER_RESPONSE) == (
        "config.test_settings", False, False)
    text = (PROJECT / "config" / "settings.py").read_text()
    assert ("pytest" in text, "TESTING" in text) == (False, False)
    own_defaults = []
    for path in PROJECT.glob("*/**/*.py"):
        if path.parts[len(PROJECT.parts)] in (".venv", "tests", "bench") or path.name == "settings.py":
            continue
        if re.search(r"getattr\(\s*settings\s*,", path.read_text()):
            own_defaults.append(str(path.relative_to(PROJECT)))
    assert own_defaults == []
