import itertools
import os

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import services

_names = itertools.count(1)

# Property tests judge behaviour, not speed: no per-example deadline on a busy machine. In CI the
# examples are the same on every run, so a red build always means a real failure.
hypothesis_settings.register_profile("crawford", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.register_profile("ci", parent=hypothesis_settings.get_profile("crawford"), derandomize=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "crawford")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """The tests marked `slow` first, then the others, each in their order. pytest-django sorts
    after this, and keeps this order within each of its groups (tests in a transaction, then tests
    that commit and empty every table after them, then tests without the database, so that the
    rows the migrations made are there for the first). xdist hands the tests to its processes in
    this order, so the long ones are under way early, the short ones fill in around them, and the
    processes finish together."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True, scope="session")
def _passwords_hashed_quickly():
    """Passwords are hashed with MD5 in the test process: Django's PBKDF2 takes most of a second
    per password by design, and the tests create hundreds of logins. Production keeps Django's
    hashers (config/settings.py names none; test_production.py checks it in a fresh process), and
    so does every process a test starts (a worker, gunicorn, manage.py)."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def _tables_emptied_quickly():
    """After a test that commits (`transaction=True`: the browser, worker and race tests) Django
    empties every table with one TRUNCATE, which PostgreSQL makes slow: new files for each of some
    fifty tables, a second or two a test. The tables of a test hold a few rows, which DELETE
    removes at once; the foreign keys are checked at commit, when every table is empty. The
    result is the same: every table empty, the sequences where they were (a test that asks for
    them to restart still gets TRUNCATE ... RESTART IDENTITY)."""
    try:
        from django.db.backends.postgresql.operations import DatabaseOperations
    except ImportError:  # no PostgreSQL driver: SQLite only
        yield
        return
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;"] + [f"DELETE FROM {self.quote_name(table)};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate


@pytest.fixture(autouse=True)
def _analysis_only_where_asked(request, settings):
    """GNU Backgammon analyses only in the tests marked `analysis`: elsewhere a stored match file
    would start the program on every import."""
    if request.node.get_closest_marker("analysis") is None:
        settings.CRAWFORD_ANALYSIS = False


@pytest.fixture(autouse=True)
def _tasks_run_in_the_test(request):
    """Celery tasks run in the test's own process, as they do on a laptop without a broker, even
    where CI configures one; the tests marked `worker` start a real worker instead."""
    if request.node.get_closest_marker("worker") is not None:
        yield
        return
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


@pytest.fixture
def password_login():
    """Log a test client in through the login page, as a person does (brute-force protection
    included); True when the password was taken."""

    def log_in(client, username: str, password: str) -> bool:
        client.post("/login/", {"username": username, "password": password})
        return "_auth_user_id" in client.session

    return log_in


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("td", password="pw-td-12345", is_staff=True, is_superuser=True)


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def staff_api(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.fixture
def make_player(db):
    def make(name=None, **fields):
        return services.player_create(name=name or f"Player {next(_names)}", **fields)

    return make


@pytest.fixture
def make_match(make_player):
    def make(length=5, player_a=None, player_b=None, **fields):
        return services.match_create(
            player_a=player_a or make_player(), player_b=player_b or make_player(), length=length, **fields
        )

    return make


@pytest.fixture
def make_user(db):
    """A login; `player=` links it to that player so he can report his own matches."""

    def make(username=None, player=None, **fields):
        from tournaments.models import PlayerAccount

        user = get_user_model().objects.create_user(username or f"user{next(_names)}", password=None, **fields)
        if player is not None:
            PlayerAccount.objects.update_or_create(player=player, defaults={"user": user})
        return user

    return make


@pytest.fixture
def client_for():
    """An APIClient signed in as `user`."""

    def make(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: what one test drew is not seen by the next."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
