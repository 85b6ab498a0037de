"""A cache that fails open: when Redis cannot be reached, a read finds nothing and a write is
dropped, with a warning in the log (at most one every `WARN_EVERY` seconds per process), so an
outage of the cache never turns a page, an API call or a throttle check into a 500.

What the cache holds here is only ever a shortcut (drawn flights keyed by version, rank tables,
QR codes, the failed-token throttle), so answering without it is always right; the throttle
simply does not count while the cache is away."""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger("config.cache")

WARN_EVERY = 60.0

_last_warning = 0.0


def _warn(operation: str, error: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= WARN_EVERY:
        _last_warning = now
        logger.warning("the cache cannot be reached (%s: %s); answering without it", operation, error)


def _failing_open(name: str, fallback):
    method = getattr(RedisCache, name)

    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as error:  # redis' ConnectionError, TimeoutError, a refused socket
            _warn(name, error)
            return fallback(*args, **kwargs) if callable(fallback) else fallback

    guarded.__name__ = name
    guarded.__doc__ = method.__doc__
    return guarded


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, each operation answering as a miss when Redis is away."""

    get = _failing_open("get", lambda key, default=None, version=None: default)
    get_many = _failing_open("get_many", lambda keys, version=None: {})
    has_key = _failing_open("has_key", False)
    set = _failing_open("set", None)
    set_many = _failing_open("set_many", lambda data, *args, **kwargs: list(data))
    add = _failing_open("add", False)
    touch = _failing_open("touch", False)
    delete = _failing_open("delete", False)
    delete_many = _failing_open("delete_many", None)
    incr = _failing_open("incr", lambda key, delta=1, version=None: delta)
    clear = _failing_open("clear", False)
