"""What the rating list reads of the whole published list on every request: the established
ratings of a system in order, for ranks (a rank is a binary search in them), and the countries
its players come from, for the list's country filter.

Kept in the cache under the published ratings' version (the published run and when it last
changed: a full run, or an incremental one that rewrote it), and put there by the run that
publishes them (`ranks_refresh`), so that no reader pays for the sort after a new result. A
reader who finds the cache empty (a restart, another process's local cache, a cache outage)
builds what it needs in one query, as before. An official list never changes: its countries are
kept from its publication on (`official_list_countries_refresh`).
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


def ratings_versions() -> dict[str, str]:
    """`ratings_version` of every system that has published ratings, in one query."""
    rows = RatingSystemState.objects.filter(published_run__isnull=False).values_list(
        "system", "published_run_id", "published_run__finished_at")
    return {system: f"{run}:{changed.timestamp() if changed else 0}" for system, run, changed in rows}


def _build(system: str) -> array:
    from . import selectors

    return array("d", sorted(selectors.rating_list(system=system, provisional=False).order_by()
                             .values_list("rating", flat=True)))


def _countries(system: str) -> list[str]:
    from . import selectors

    return list(selectors.rating_list(system=system).exclude(player__country="").order_by("player__country")
                .values_list("player__country", flat=True).distinct())


def _official_countries(official_list_id: int) -> list[str]:
    from .models import OfficialListRow

    return list(OfficialListRow.objects.filter(official_list_id=official_list_id).exclude(player__country="")
                .order_by("player__country").values_list("player__country", flat=True).distinct())


def _kept(key: str, build):
    """The cache's value under `key`, built (and kept) when it has none."""
    try:
        values = cache.get(key)
    except Exception:  # a cache outage costs a query, never a page
        logger.warning("cache unavailable for %s", key, exc_info=True)
        values = None
    if values is None:
        values = build()
        _keep(key, values)
    return values


def established_ratings(system: str, version: str | None = None) -> array:
    """The published established ratings of `system`, lowest first."""
    return _kept(f"established-ratings:{system}:{version or ratings_version(system)}", lambda: _build(system))


def list_countries(system: str, version: str | None = None) -> list[str]:
    """The countries of the players on the published list of `system`, in order."""
    return _kept(f"list-countries:{system}:{version or ratings_version(system)}", lambda: _countries(system))


def official_list_countries(official_list_id: int) -> list[str]:
    """The countries of the players on an official list, in order."""
    return _kept(f"official-list-countries:{official_list_id}", lambda: _official_countries(official_list_id))


def ranks_refresh(system: str) -> None:
    """Put the published established ratings of `system` and its players' countries in the cache
    under their new version: what a run does once it has published."""
    version = ratings_version(system)
    _keep(f"established-ratings:{system}:{version}", _build(system))
    _keep(f"list-countries:{system}:{version}", _countries(system))


def official_list_countries_refresh(official_list_id: int) -> None:
    """Put an official list's countries in the cache: what its publication does."""
    _keep(f"official-list-countries:{official_list_id}", _official_countries(official_list_id))


def _keep(key: str, values) -> None:
    try:
        cache.set(key, values, KEPT_SECONDS)
    except Exception:
        logger.warning("cache unavailable for %s", key, exc_info=True)
