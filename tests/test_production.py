"""Running Crawford for real: the secret key, hashed static files, offline API docs, page names
that are the pages', and a .venv from an old Python rebuilt by `make`."""

import os
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import services as games
from tournaments import services as events
from tournaments.models import Pairing

PROJECT = Path(__file__).resolve().parent.parent


def production_env(**extra) -> dict:
    """The environment of a production server, without the variables of this test run."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DJANGO_SETTINGS_MODULE": "config.settings",
           "HOME": os.environ.get("HOME", "/tmp")}
    return {**env, **extra}


def settings_in_subprocess(env: dict) -> subprocess.CompletedProcess:
    code = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"
    return subprocess.run([sys.executable, "-c", code], cwd=PROJECT, env=env, capture_output=True, text=True,
                          timeout=120)


# -- the log ---------------------------------------------------------------------------------------


def test_a_request_for_a_host_not_allowed_is_a_400_and_one_line_in_the_log(client, db, settings):
    """Scanners send any Host header: gunicorn's log gets a line each, not Django's traceback."""
    import io
    import logging

    settings.ALLOWED_HOSTS = ["crawford.example.org"]
    console = next(h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler)
    written = io.StringIO()
    kept = console.setStream(written)
    try:
        response = client.get("/", HTTP_HOST="scanner.example")
    finally:
        console.setStream(kept)
    assert response.status_code == 400
    assert written.getvalue().splitlines() == [
        "Invalid HTTP_HOST header: 'scanner.example'. You may need to add 'scanner.example' to ALLOWED_HOSTS."]


# -- the secret key ------------------------------------------------------------------------------


def test_production_refuses_to_start_without_a_secret_key():
    result = settings_in_subprocess(production_env())
    assert result.returncode == 1
    assert ("ImproperlyConfigured: SECRET_KEY is not set. In production set SECRET_KEY to a long random value "
            "(see README, Production); to run Crawford on your own machine use `make run` (it writes local.env, which "
            "manage.py reads) or set DEBUG=1."
            ) in result.stderr


def test_production_uses_the_secret_key_it_is_given():
    result = settings_in_subprocess(production_env(SECRET_KEY="k" * 60, SITE_URL="https://crawford.example.org"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "k" * 60


def test_a_local_run_uses_a_random_key_kept_outside_the_repository():
    result = settings_in_subprocess(production_env(DEBUG="1"))
    assert result.returncode == 0, result.stderr
    key = result.stdout.strip()
    kept = PROJECT / ".local-secret-key"
    assert kept.read_text().strip() == key and len(key) >= 50
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", ".local-secret-key"], cwd=PROJECT,
                             capture_output=True, text=True)
    assert tracked.returncode != 0, "the local key must never be committed"
    assert key not in (PROJECT / "config" / "settings.py").read_text()


def test_production_hashes_passwords_with_djangos_own_hashers():
    """The tests hash with MD5 for speed (tests/conftest.py); a server never does."""
    code = ("import django; django.setup(); from django.contrib.auth.hashers import get_hasher; "
            "print(get_hasher().algorithm)")
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True, timeout=120,
                            env=production_env(SECRET_KEY="k" * 60, SITE_URL="https://crawford.example.org"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "pbkdf2_sha256"


def test_no_secret_key_is_written_in_the_settings():
    text = (PROJECT / "config" / "settings.py").read_text()
    assert not re.search(r"SECRET_KEY\s*=\s*['\"]", text)


# -- static files --------------------------------------------------------------------------------


def test_collectstatic_writes_the_manifest_and_hashed_names(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=PROJECT,
        env=production_env(SECRET_KEY="s" * 60, SITE_URL="https://crawford.example.org",
                           STATIC_ROOT=str(tmp_path / "static")),
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    root = tmp_path / "static"
    assert (root / "staticfiles.json").is_file()
    hashed = [p.name for p in root.glob("crawford.*.css")]
    assert len(hashed) == 1 and re.fullmatch(r"crawford\.[0-9a-f]{12}\.css", hashed[0])
    assert (root / f"{hashed[0]}.gz").is_file()


def test_pages_name_the_plain_static_files_before_collectstatic(client, db):
    html = client.get("/").content.decode()
    assert '/static/crawford.css"' in html


# -- the API's docs work without the internet -----------------------------------------------------


def test_api_docs_reference_only_local_static_files(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    references = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    assert any("swagger-ui-bundle.js" in ref for ref in references), references
    assert all(ref.startswith("/") and not ref.startswith("//") for ref in references), references
    assert "cdn" not in html.lower() and "https://" not in html
    for ref in references:
        if ref.startswith("/static/"):
            assert client.get(ref).status_code == 200, ref


# -- page names ----------------------------------------------------------------------------------


def _named_patterns(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if pattern.namespace:  # the admin: its own namespace
                continue
            yield from _named_patterns(pattern, route)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern.name, route, pattern.lookup_str


def test_every_url_name_names_one_address():
    """A name may have several routes to one view (the API's `.json` suffixes), never two views."""
    views = {}
    for name, _, view in _named_patterns():
        views.setdefault(name, set()).add(view)
    assert {name: sorted(found) for name, found in views.items() if len(found) > 1} == {}


def test_the_ratings_menu_link_and_the_progress_poll_are_the_pages():
    assert reverse("rating-list") == "/ratings/"
    assert reverse("rating-runs") == "/ratings/runs/"
    assert reverse("api-rating-runs") == "/api/v1/ratings/runs/"


@pytest.fixture
def site(db):
    """An event with a running knockout, a finished match with a game, a TD and a staff user."""
    staff = get_user_model().objects.create_user("office", password="pw-office-1", is_staff=True, is_superuser=True)
    players = [games.player_create(name=f"Page Player {n}") for n in range(4)]
    tournament = events.tournament_create(name="Page Open", start_date=date(2026, 11, 20), by=staff)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[3, 3],
                                  seeding="random", random_seed=1, by=staff)
    for player in players:
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, by=staff), by=staff)
    events.flight_start(flight=flight, by=staff)
    match = games.match_create(player_a=players[0], player_b=players[1], length=1)
    match = games.game_record(match=match, number=1, game=games.GameInput(winner=0))
    pairing = Pairing.objects.filter(flight=flight).order_by("id").first()
    from games.models import ImportJob

    job = ImportJob.objects.create(kind=ImportJob._meta.get_field("kind").choices[0][0], name="results.csv",
                                   created_by=staff)
    return {"staff": staff, "tournament": tournament, "match": match, "player": players[0], "pairing": pairing,
            "import_job": job}


def page_kwargs(site) -> dict:
    slug = site["tournament"].slug
    return {
        "home": {}, "events": {}, "event": {"slug": slug}, "event-live": {"slug": slug}, "my-matches": {},
        "desk": {}, "desk-event": {"slug": slug}, "desk-slips": {"slug": slug},
        "desk-correct": {"slug": slug, "pk": site["pairing"].pk}, "player": {"pk": site["player"].pk},
        "match": {"pk": site["match"].pk}, "match-enter": {"pk": site["match"].pk},
        "game-replay": {"pk": site["match"].pk, "number": 1}, "rating-list": {}, "rating-formula": {},
        "chances": {}, "rating-runs": {}, "login": {}, "logout": {}, "api-docs": {}, "schema": {},
        "event-embed": {"slug": slug}, "desk-projector": {"slug": slug}, "signup": {},
        "signup-confirm": {"uid": "MQ", "token": "not-a-token"}, "landing": {}, "account": {}, "claims": {},
        "password_reset": {}, "password_reset_done": {},
        "password_reset_confirm": {"uidb64": "MQ", "token": "not-a-token"}, "password_reset_complete": {},
        "password_change": {}, "password_change_done": {}, "import-job": {"pk": site["import_job"].pk},
        "player-calendar": {"pk": site["player"].pk}, "player-suggestions": {}, "rating-list-publish": {},
        "event-check-in": {"slug": slug}, "event-register": {"slug": slug},
        "desk-more": {"slug": slug, "pk": site["pairing"].pk},
        "desk-entries": {"slug": slug, "pk": site["pairing"].flight_id}, "health": {},
        "desk-draw": {"slug": slug, "pk": site["pairing"].flight_id},
        "event-match": {"slug": slug, "pk": site["pairing"].pk}, "language": {}, "players": {}, "manifest": {}, "service-worker": {},
    }


# Pages that answer a part of a page for htmx to swap in, or data rather than a page.
FRAGMENTS = {"event-live", "desk-more", "desk-entries", "player-suggestions", "player-calendar"}


def test_every_page_answers_anonymous_visitors_and_staff_without_a_server_error(client, site):
    pages = sorted({name for name, route, _ in _named_patterns() if not route.startswith("api/v1/")})
    cases = page_kwargs(site)
    assert sorted(set(pages) - set(cases)) == [], "give the new page's arguments in page_kwargs"
    for who in ("anonymous", "staff"):
        if who == "staff":
            client.force_login(site["staff"])
        for name in pages:
            if name == "logout":
                continue  # a POST that ends the session; checked below
            if name == "health":
                continue  # 503 by design where a broker is configured and no worker runs: tests/test_health.py
            url = reverse(name, kwargs=cases[name])
            response = client.get(url)
            assert response.status_code < 500, (who, url, response.status_code)
            if response.status_code == 200 and name not in ("schema", "player-suggestions", "player-calendar", "health",
                                                            "manifest", "service-worker"):
                assert response["Content-Type"].startswith("text/html"), (who, url, response["Content-Type"])
                if name not in FRAGMENTS:
                    assert b"<html" in response.content[:500].lower(), (who, url)
    assert client.post(reverse("logout")).status_code == 302


# -- make rebuilds a .venv made by an old Python ---------------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_rebuilds_a_venv_made_by_an_old_python(tmp_path):
    fake = tmp_path / "old-venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    # An old interpreter: the version check `sys.version_info < (3, 12)` exits 1.
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    result = subprocess.run(["make", "-n", "venv", f"VENV={tmp_path / 'old-venv'}"], cwd=PROJECT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"{tmp_path / 'old-venv'} was made with a Python older than 3.12: rebuilding it." in result.stdout
    assert not (tmp_path / "old-venv").exists()
    assert re.search(r'"/\S*python\S*" -m venv ', result.stdout)  # and the recipe builds a new one


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_keeps_a_venv_of_a_current_python(tmp_path):
    venv = tmp_path / "new-venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    result = subprocess.run(["make", "-n", "venv", f"VENV={tmp_path / 'new-venv'}"], cwd=PROJECT,
                            capture_output=True, text=True, timeout=60)
    assert "rebuilding" not in result.stdout
    assert (venv / "python").exists()


# -- backup and restore, as the README says ---------------------------------------------------------


def _fill(make_player):
    """A small database: players, an event with entries, a match with games."""
    staff = get_user_model().objects.create_user("backup-staff", is_staff=True, is_superuser=True)
    players = [make_player(f"Backed Up {n}", country="DK", club="Ærø BK") for n in range(4)]
    tournament = events.tournament_create(name="Backup Open", start_date=date(2026, 11, 20), by=staff)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[3, 3],
                                  by=staff)
    for player in players:
        events.entry_add(flight=flight, player=player, by=staff)
    match = games.match_create(player_a=players[0], player_b=players[1], length=3)
    games.game_record(match=match, number=1, game=games.GameInput(winner=0, cube=2, cube_owner=1), by=staff)


def _pg_tables(cursor) -> dict[str, tuple]:
    """Each table of the database: its row count and a digest of every row's text (in UTC)."""
    cursor.execute("SET TIME ZONE 'UTC'")
    cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    tables = [table for (table,) in cursor.fetchall()]
    found = {}
    for table in tables:
        cursor.execute(f"""SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))
                           FROM "{table}" t""")
        found[table] = tuple(cursor.fetchone())
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(shutil.which("pg_dump") is None or shutil.which("pg_restore") is None,
                    reason="needs pg_dump and pg_restore")
def test_a_postgresql_dump_restores_every_row(make_player, tmp_path):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL; CI runs it)")
    _fill(make_player)
    db = connection.settings_dict
    env = {**os.environ, "PGHOST": db["HOST"] or "127.0.0.1", "PGPORT": str(db["PORT"] or 5432),
           "PGUSER": db["USER"] or "postgres", "PGPASSWORD": db["PASSWORD"] or ""}
    dump, restored = tmp_path / "crawford.dump", f"{db['NAME']}_restored"
    subprocess.run(["pg_dump", "-Fc", "-f", str(dump), db["NAME"]], env=env, check=True, timeout=120)
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{restored}"')
        cursor.execute(f'CREATE DATABASE "{restored}"')
    try:
        subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", restored, str(dump)], env=env,
                       check=True, timeout=120)
        import psycopg

        with psycopg.connect(host=env["PGHOST"], port=env["PGPORT"], user=env["PGUSER"],
                             password=env["PGPASSWORD"] or None, dbname=restored) as other:
            with other.cursor() as cursor:
                copied = _pg_tables(cursor)
        with connection.cursor() as cursor:
            original = _pg_tables(cursor)
        assert copied == original
        assert original["games_player"][0] == 4 and original["games_game"][0] == 1
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{restored}"')


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 program")
def test_a_sqlite_backup_holds_every_row(tmp_path):
    """`sqlite3 db.sqlite3 ".backup 'copy.sqlite3'"` copies a database made by `migrate`."""
    live, copy = tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3"
    env = production_env(DEBUG="1", DATABASE_URL=f"sqlite:///{live}")
    fill = ("from games import services; from datetime import date; "
            "players = [services.player_create(name=f'Club Player {n}', club='Ærø BK') for n in range(12)]; "
            "m = services.match_create(player_a=players[0], player_b=players[1], length=3); "
            "services.game_record(match=m, number=1, game=services.GameInput(winner=0))")
    for command in (["migrate", "--noinput", "-v", "0"], ["shell", "-c", fill]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=PROJECT, env=env, check=True,
                       capture_output=True, timeout=600)
    subprocess.run(["sqlite3", str(live), f".backup '{copy}'"], check=True, timeout=60)
    import sqlite3

    def everything(path):
        with sqlite3.connect(path) as db:
            tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")]
            return {t: sorted(map(repr, db.execute(f'SELECT * FROM "{t}"'))) for t in tables}

    original = everything(live)
    assert everything(copy) == original
    assert len(original["games_player"]) == 12 and len(original["games_game"]) == 1
