"""The README's Production section, followed to the letter as far as a machine without root and
systemd allows: its shell steps run in a subprocess with the environment file from docs/deploy/
(the CHANGE-MEs filled in, the folders moved into a temporary one), `check --deploy` finds no
issues, the systemd units parse, and the processes they start answer. The same for the small
club's variant, and for an upgrade by the README, which keeps the data."""

import configparser
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from dotenv import dotenv_values

PROJECT = Path(__file__).resolve().parent.parent
README = (PROJECT / "README.md").read_text()
DEPLOY = PROJECT / "docs" / "deploy"
VENV_BIN = Path(sys.executable).parent
SITE = "crawford.example.org"

# The lines of the steps that need root, apt or the internet: the test does their work itself
# (a folder, a Python, the packages are already there) or cannot (systemctl, certbot).
SYSTEM_LINES = (
    "sudo apt-get install ", "sudo adduser --system --group --home /var/lib/crawford crawford",
    "sudo install -d -o crawford -g crawford /srv/crawford", "sudo -u postgres createuser --pwprompt crawford",
    "sudo -u postgres createdb --owner crawford crawford", "sudo -u crawford git clone REPOSITORY_URL /srv/crawford",
    "curl -LsSf https://astral.sh/uv/install.sh", "sudo -u crawford -H uv venv --seed --python 3.12 /srv/crawford/.venv",
    "sudo -u crawford -H /srv/crawford/.venv/bin/pip install -r /srv/crawford/requirements.txt",
    "sudoedit /etc/crawford/crawford.env", "sudo systemctl ", "curl -s -H 'Host: crawford.example.org'",
    "sudo nano /etc/nginx/sites-available/crawford", "sudo certbot --nginx -d crawford.example.org",
)


def redis_url() -> str | None:
    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis"):
        return None
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception:
        return None
    return url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def code_blocks(heading: str) -> list[list[str]]:
    """The ```sh blocks of a README section, as lines (comments and blank lines dropped)."""
    start = README.index(heading)
    end = README.find("\n## ", start + len(heading))
    section = README[start:end if end > 0 else None]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    return [[line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]
            for block in blocks]


class Server:
    """The folders of a server moved into `root`, and the README's steps run against them."""

    def __init__(self, root: Path, env_template: str, port: int, broker: str | None):
        self.root, self.port, self.broker = root, port, broker
        self.paths = {"/srv/crawford": str(PROJECT), "/etc/systemd/system": str(root / "systemd"),
                      "/etc/crawford": str(root / "etc"), "/var/lib/crawford": str(root / "state")}
        self.env_template = env_template
        (root / "systemd").mkdir()
        (root / "state").mkdir()
        self.processes: list[subprocess.Popen] = []

    def moved(self, text: str) -> str:
        text = text.replace(".venv/bin/", f"{VENV_BIN}/") if "/srv/crawford/.venv/bin/" not in text else text
        text = text.replace("/srv/crawford/.venv/bin/", f"{VENV_BIN}/")
        for path, there in self.paths.items():
            text = text.replace(path, there)
        return text

    @property
    def env_file(self) -> Path:
        return self.root / "etc" / "crawford.env"

    def fill_in(self) -> None:
        """What `sudoedit` does: every CHANGE-ME filled in; the folders a test may write moved."""
        text = self.env_file.read_text()
        text = text.replace("SECRET_KEY=CHANGE-ME", f"SECRET_KEY={secrets.token_urlsafe(50)}")
        text = text.replace("EMAIL_HOST_PASSWORD=CHANGE-ME", "EMAIL_HOST_PASSWORD=not-used-by-the-test")
        text = re.sub(r"^DATABASE_URL=postgres://.*$", f"DATABASE_URL=sqlite:///{self.root / 'crawford.sqlite3'}",
                      text, flags=re.MULTILINE)
        if self.broker:
            text = re.sub(r"^(CELERY_BROKER_URL|CACHE_URL)=.*$", rf"\1={self.broker}", text, flags=re.MULTILINE)
        text = text.replace("--bind 127.0.0.1:8000", f"--bind 127.0.0.1:{self.port}")
        text = text.replace("/var/lib/crawford", self.paths["/var/lib/crawford"])
        assert not re.search(r"^[A-Z_]+=.*CHANGE-ME", text, flags=re.MULTILINE)
        text += f"STATIC_ROOT={self.root / 'static'}\nMEDIA_ROOT={self.root / 'media'}\n"
        self.env_file.write_text(text)

    def follow(self, lines: list[str], shell_env: dict | None = None) -> str:
        """Run the steps: the lines as root in the test's way, the `sudo -u crawford bash` part
        in bash. Returns that part's output."""
        output, crawford_shell = "", None
        for line in lines:
            if crawford_shell is not None:
                if line == "exit":
                    output += self.run_as_crawford(crawford_shell, shell_env)
                    crawford_shell = None
                else:
                    crawford_shell.append(line)
            elif line == "sudo -u crawford bash":
                crawford_shell = []
            elif line.startswith(("sudo install ", "sudo cp ")):
                command = re.sub(r" -o \S+ -g \S+", "", self.moved(line)).removeprefix("sudo ")
                command = command.replace(str(DEPLOY / "crawford.env"), self.env_template)
                subprocess.run(command, shell=True, check=True, timeout=30)
                if command.endswith("crawford.env"):
                    self.fill_in()
            else:
                assert line.startswith(SYSTEM_LINES), f"a step the test does not know: {line}"
        assert crawford_shell is None, "the crawford shell is never left"
        return output

    def run_as_crawford(self, lines: list[str], shell_env: dict | None) -> str:
        script = "set -e\n" + "\n".join(self.moved(line) for line in lines)
        script = script.replace("manage.py createsuperuser", "manage.py createsuperuser --noinput")
        env = {"PATH": os.environ["PATH"], "HOME": str(self.root), "LANG": "C.UTF-8",
               "DJANGO_SUPERUSER_USERNAME": "secretary", "DJANGO_SUPERUSER_PASSWORD": "club-night-2026",
               "DJANGO_SUPERUSER_EMAIL": "secretary@example.org", **(shell_env or {})}
        result = subprocess.run(["bash", "-c", script], cwd=self.root, env=env, capture_output=True, text=True,
                                timeout=900)
        assert result.returncode == 0, (script, result.stdout[-3000:], result.stderr[-3000:])
        return result.stdout + result.stderr

    def units(self, *names: str) -> dict[str, configparser.ConfigParser]:
        parsed = {}
        for name in names:
            path = self.root / "systemd" / name
            text = self.moved(path.read_text())
            path.write_text(text)
            unit = configparser.ConfigParser(interpolation=None, strict=True)
            unit.optionxform = str
            unit.read_string(text)
            parsed[name] = unit
        if shutil.which("systemd-analyze"):
            result = subprocess.run(["systemd-analyze", "verify", *names], cwd=self.root / "systemd",
                                    capture_output=True, text=True, timeout=120)
            assert result.returncode == 0 and result.stderr.strip() == "" and result.stdout.strip() == "", (
                result.stdout, result.stderr)
        return parsed

    def environment(self, unit) -> dict:
        """The environment systemd gives the unit's process: its EnvironmentFile."""
        assert Path(unit["Service"]["EnvironmentFile"]) == self.env_file
        return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **dotenv_values(self.env_file)}

    def start(self, unit, name: str) -> subprocess.Popen:
        service = unit["Service"]
        log = (self.root / f"{name}.log").open("w")
        process = subprocess.Popen(shlex.split(service["ExecStart"]), cwd=service["WorkingDirectory"],
                                   env=self.environment(unit), stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

    def request(self, path: str, data: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Host": SITE, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
        if token:
            headers["Authorization"] = f"Token {token}"
        body = None
        if data is not None:
            body, headers["Content-Type"] = json.dumps(data).encode(), "application/json"
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def wait_for_health(self, worker: bool, seconds: float = 120) -> dict:
        deadline, last = time.monotonic() + seconds, None
        while time.monotonic() < deadline:
            try:
                status, last = self.request("/health/")
            except (urllib.error.URLError, ConnectionError, OSError):
                status = None
            if status == 200 and (not worker or last["checks"]["worker"]["status"] == "ok"):
                return last
            for process in self.processes:
                assert process.poll() is None, (self.root / "logs", [p.read_text()[-3000:] for p in
                                                                     self.root.glob("*.log")])
            time.sleep(0.5)
        raise AssertionError(f"/health/ never answered well: {last}; logs: "
                             f"{[p.read_text()[-2000:] for p in self.root.glob('*.log')]}")


@pytest.fixture
def server_factory(tmp_path):
    made = []

    def make(env_template: Path, broker: str | None) -> Server:
        server = Server(tmp_path, str(env_template), free_port(), broker)
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


def test_the_environment_file_reads_the_same_in_systemd_and_in_a_shell():
    """One file for both: the units' EnvironmentFile= and step 4's `set -a && . file`."""
    for template in (DEPLOY / "crawford.env", DEPLOY / "small-club.env"):
        script = f"set -a && . {template} && set +a && {sys.executable} -c 'import json, os; print(json.dumps(dict(os.environ)))'"
        shell = json.loads(subprocess.run(["env", "-i", "bash", "-c", script], capture_output=True, text=True,
                                          check=True).stdout)
        declared = dotenv_values(template)
        assert {name: shell[name] for name in declared} == declared
        assert declared["DEFAULT_FROM_EMAIL"] == "Crawford <crawford@example.org>"


@pytest.mark.slow
def test_the_production_steps_pass_check_deploy_and_start_gunicorn_worker_and_beat(server_factory):
    broker = redis_url()
    if broker is None:
        pytest.skip("needs Redis (CELERY_BROKER_URL=redis://…) for the worker and beat")
    steps = code_blocks("## Production")[0]
    server = server_factory(DEPLOY / "crawford.env", broker)
    output = server.follow(steps)
    assert "System check identified no issues (1 silenced)." in output  # templates.W003: config/i18n_tags.py is `i18n` on purpose
    assert (server.root / "static" / "staticfiles.json").is_file()

    names = ("crawford-web.service", "crawford-worker.service", "crawford-beat.service")
    units = server.units(*names)
    assert {unit["Service"]["EnvironmentFile"] for unit in units.values()} == {str(server.env_file)}
    for name, unit in units.items():
        server.start(unit, name)
    import redis

    redis.Redis.from_url(broker).delete("crawford:worker-heartbeat")
    health = server.wait_for_health(worker=True)
    assert health["status"] == "ok" and health["checks"]["broker"] == {"status": "ok"}
    deadline = time.monotonic() + 30
    while not list((server.root / "state").glob("celerybeat-schedule*")) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert list((server.root / "state").glob("celerybeat-schedule*")), "beat keeps its schedule in /var/lib/crawford"


@pytest.mark.slow
def test_a_small_club_runs_on_sqlite_without_redis_and_rates_results_at_once(server_factory):
    steps = code_blocks("## Production")[0]
    small_club = code_blocks("### A small club: SQLite without Redis")[0]
    server = server_factory(DEPLOY / "small-club.env", None)
    steps = [line for line in steps if "crawford-web.service" not in line and "enable --now" not in line]
    output = server.follow(steps + small_club)
    assert "System check identified no issues (1 silenced)." in output  # templates.W003: config/i18n_tags.py is `i18n` on purpose
    assert (server.root / "state" / "crawford.sqlite3").is_file()

    units = server.units("crawford-web.service", "crawford-periodic.service", "crawford-periodic.timer")
    assert "GUNICORN_CMD_ARGS" in dotenv_values(server.env_file)
    server.start(units["crawford-web.service"], "web")
    health = server.wait_for_health(worker=False)
    assert health["checks"]["broker"]["status"] == "off" and health["checks"]["worker"]["status"] == "off"

    token = server.run_as_crawford(
        ["cd /srv/crawford && set -a && . /etc/crawford/crawford.env && set +a",
         ".venv/bin/python manage.py drf_create_token secretary"], None)
    key = re.search(r"Generated token (\w+)", token).group(1)
    anna = server.request("/api/v1/players/", {"name": "Anna Berg"}, key)[1]["id"]
    bo = server.request("/api/v1/players/", {"name": "Bo Jensen"}, key)[1]["id"]
    status, match = server.request("/api/v1/matches/", {"player_a": anna, "player_b": bo, "length": 1}, key)
    assert status == 201, match
    status, _ = server.request(f"/api/v1/matches/{match['id']}/games/", {"number": 1, "winner": anna}, key)
    assert status == 201
    # Rated right after the answer that saved the result, on a thread of the web process.
    for _ in range(100):
        status, ratings = server.request("/api/v1/ratings/?system=fibs")
        if ratings.get("results"):
            break
        time.sleep(0.1)
    assert status == 200
    # 1-point match, equal ratings, new players (x5).
    assert {row["name"]: round(row["rating"], 3) for row in ratings["results"]} == {
        "Anna Berg": 1510.0, "Bo Jensen": 1490.0}

    periodic = units["crawford-periodic.service"]["Service"]
    result = subprocess.run(shlex.split(periodic["ExecStart"]), cwd=periodic["WorkingDirectory"],
                            env=server.environment(units["crawford-periodic.service"]), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["jobs-sweep: done", "save-keys-prune: done", "heartbeat: done"]


# An earlier release (0.1.0, four migrations behind): the database an upgrade starts from.
EARLIER = "0bd057f84323984607014fa31b3a3e7e579c3c9d"


@pytest.mark.slow
def test_an_upgrade_by_the_readme_keeps_every_row(server_factory, tmp_path):
    known = subprocess.run(["git", "cat-file", "-e", f"{EARLIER}^{{commit}}"], cwd=PROJECT, capture_output=True)
    if known.returncode != 0:
        pytest.skip("needs the repository's history (a full clone) for the earlier release")
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    archive = subprocess.run(["git", "archive", EARLIER], cwd=PROJECT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(earlier)], input=archive, check=True)

    server = server_factory(DEPLOY / "crawford.env", None)
    database = server.root / "crawford.sqlite3"
    old_env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"}
    fill = ("from games import services; from ratings import services as ratings; "
            "players = [services.player_create(name=f'Club Player {n}', club='Ærø BK') for n in range(6)]; "
            "m = services.match_create(player_a=players[0], player_b=players[1], length=3); "
            "[services.game_record(match=m, number=n, game=services.GameInput(winner=0)) for n in (1, 2, 3)]; "
            "ratings.rating_recompute_now(system='fibs')")
    for command in (["migrate", "--noinput", "-v", "0"], ["shell", "-c", fill]):
        result = subprocess.run([sys.executable, "manage.py", *command], cwd=earlier, env=old_env,
                                capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr[-3000:]

    tables = ("games_player", "games_match", "games_game", "ratings_rating", "auth_user")

    def columns() -> dict:
        import sqlite3

        with sqlite3.connect(database) as db:
            return {table: [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')] for table in tables}

    def rows(of: dict) -> dict:
        """Every row of the tables, by the columns the earlier release had (an upgrade may add more)."""
        import sqlite3

        with sqlite3.connect(database) as db:
            return {table: sorted(map(repr, db.execute(
                f'SELECT {", ".join(chr(34) + c + chr(34) for c in of[table])} FROM "{table}"'))) for table in tables}

    earlier_columns = columns()
    before = rows(earlier_columns)
    assert len(before["games_player"]) == 6 and len(before["games_game"]) == 3 and len(before["ratings_rating"]) == 4  # fibs and crawford

    upgrade = code_blocks("### Upgrading")[0]
    assert "git pull --ff-only" in upgrade and ".venv/bin/pip install -r requirements.txt" in upgrade
    # The checkout under test is the release pulled, into the .venv the tests run in.
    steps = [line for line in code_blocks("## Production")[0] if line.startswith("sudo install") and "/etc/crawford" in line]
    upgrade = [line for line in upgrade if line not in ("git pull --ff-only", ".venv/bin/pip install -r requirements.txt")]
    output = server.follow(steps + upgrade)
    assert "System check identified no issues (1 silenced)." in output  # templates.W003: config/i18n_tags.py is `i18n` on purpose
    assert rows(earlier_columns) == before
    plan = subprocess.run([sys.executable, "manage.py", "showmigrations", "--plan"], cwd=PROJECT, capture_output=True,
                          text=True, env={"PATH": os.environ["PATH"], **dotenv_values(server.env_file)})
    assert "[ ]" not in plan.stdout and "ratings.0005_checkpoint_ready" in plan.stdout


def backup_cron(tmp_path: Path, env_lines: str, sqlite: bool) -> Path:
    """Run the README's cron line (as cron would: `\\%` is `%`) with the folders moved into tmp_path;
    returns the backups folder."""
    section = README[README.index("## Backup and restore"):README.index("## Recording matches")]
    line = re.search(r"^# /etc/cron.d/crawford-backup\n(.+)$", section, flags=re.MULTILINE).group(1)
    minute, hour, day, month, weekday, user, command = line.split(None, 6)
    assert (minute, hour, day, month, weekday, user) == ("30", "3", "*", "*", "*", "crawford")
    if sqlite:
        snippet = re.search(r"`(sqlite3 /var/lib/crawford/crawford\.sqlite3 [^`]+)`", section).group(1)
        command, replaced = re.subn(r'pg_dump -Fc -d "\$DATABASE_URL" -f .+?\.dump', lambda _: snippet, command)
        assert replaced == 1
        command = command.replace("'crawford-*.dump'", "'crawford-*.sqlite3'")
    command = command.replace("\\%", "%")
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "crawford.env").write_text(env_lines)
    command = command.replace("/etc/crawford", str(tmp_path / "etc")).replace("/var/lib/crawford", str(tmp_path))
    old = tmp_path / "backups" / "crawford-2020-01-01.sqlite3"
    old.parent.mkdir()
    old.write_text("a backup of long ago")
    os.utime(old, (time.time() - 20 * 86400,) * 2)
    result = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=300,
                            env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    return tmp_path / "backups"


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 program")
def test_the_nightly_backup_of_a_small_club_copies_the_database_and_drops_old_copies(tmp_path):
    import sqlite3
    from datetime import date

    with sqlite3.connect(tmp_path / "crawford.sqlite3") as db:
        db.execute("CREATE TABLE games_player (id integer, name text)")
        db.execute("INSERT INTO games_player VALUES (1, 'Anna Berg')")
    backups = backup_cron(tmp_path, (DEPLOY / "small-club.env").read_text(), sqlite=True)
    assert sorted(p.name for p in backups.iterdir()) == [f"crawford-{date.today():%Y-%m-%d}.sqlite3"]
    with sqlite3.connect(backups / f"crawford-{date.today():%Y-%m-%d}.sqlite3") as db:
        assert db.execute("SELECT name FROM games_player").fetchall() == [("Anna Berg",)]


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="needs pg_dump")
def test_the_nightly_backup_dumps_postgresql(tmp_path, db):
    from django.db import connection

    from tests.support import database_url

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    url = database_url()  # the test database: the configured one need not exist
    backups = backup_cron(tmp_path, f"DATABASE_URL={url}\n", sqlite=False)
    dumps = list(backups.glob("crawford-*.dump"))
    assert len(dumps) == 1 and dumps[0].read_bytes()[:5] == b"PGDMP"
