"""The established ratings of a system in order, for ranks (a rank is a binary search in them).

Kept in the cache under the published ratings' version (the published run and when it last
changed: a full run, or an incremental one that rewrote it), and put there by the run that
publishes them (`ranks_refresh`), so that no reader pays for the sort after a new result. A
reader who finds the cache empty (a restart, another process's local cache, a cache outage)
builds it in one query, as before.
"""

from __future__ import annotations

import logging
from array import array

from django.core.cache import cache

from .models import RatingSystemState

logger = logging.getLogger("ratings.ranks")

KEPT_SECONDS = 60 * 60 * 24
"""How long a version's array is kept; a new version is a new key."""


def ratings_version(system: str) -> str:
    """The published ratings' version of `system`: its run and when it last changed (one query)."""
    row = RatingSystemState.objects.filter(system=system).values_list(
        "published_run_id", "published_run__finished_at").first()
    if row is None or row[0] is None:
        return "none"
    run, changed = row
    return f"{run}:{changed.timestamp() if changed else 0}"


def _build(system: str) -> array:
    from . import selectors

    return array("d", sorted(selectors.rating_list(system=system, provisional=False).order_by()
                             .values_list("rating", flat=True)))


def established_ratings(system: str, version: str | None = None) -> array:
    """The published established ratings of `system`, lowest first."""
    key = f"established-ratings:{system}:{version or ratings_version(system)}"
    try:
        values = cache.get(key)
    except Exception:  # a cache outage costs a query, never a page
        logger.warning("cache unavailable for %s", key, exc_info=True)
        values = None
    if values is None:
        values = _build(system)
        _keep(key, values)
    return values


def ranks_refresh(system: str) -> None:
    """Put the published established ratings of `system` in the cache under their new version:
    what a run does once it has published."""
    _keep(f"established-ratings:{system}:{ratings_version(system)}", _build(system))


def _keep(key: str, values: array) -> None:
    try:
        cache.set(key, values, KEPT_SECONDS)
    except Exception:
        logger.warning("cache unavailable for %s", key, exc_info=True)
