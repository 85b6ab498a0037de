"""What the tests that start a real Celery worker share: is a broker there, and the database URL
the worker must use (the test database, not the configured one)."""

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
