"""Seeding: the order in which players are placed in a draw.

A seeding returns the competitors renumbered 1..n in seed order; the caller stores those seeds
(and the random seed, for a random draw) so anyone can re-run the draw and get the same one.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence

from .base import Competitor, CompetitorId, check_unique_ids
from .errors import BracketUserError, gettext_noop


class SeedingMethod(enum.Enum):
    """How the TD orders the field."""

    MANUAL = "manual"
    """The TD's own order: the ``seed`` each competitor was given."""
    RANDOM = "random"
    """Drawn at random from an explicit integer seed, so the draw can be repeated."""
    RATING = "rating"
    """Highest rating first; equal ratings keep the TD's order."""


def seed_competitors(
    competitors: Sequence[Competitor],
    method: SeedingMethod = SeedingMethod.MANUAL,
    *,
    random_seed: int | None = None,
    label: Callable[[CompetitorId], str] = str,
) -> tuple[Competitor, ...]:
    """The competitors in seed order, renumbered 1..n (a refusal names a player by `label`)."""
    check_unique_ids(competitors, label)
    given = sorted(competitors, key=lambda c: c.seed)
    if method is SeedingMethod.MANUAL:
        seeds = [c.seed for c in given]
        if len(set(seeds)) != len(seeds):
            doubled = sorted({s for s in seeds if seeds.count(s) > 1})
            raise BracketUserError(
                gettext_noop("Two players have the same seed (%(seeds)s); give every player a different seed."),
                seeds=tuple(doubled),
            )
        ordered = given
    elif method is SeedingMethod.RANDOM:
        if random_seed is None:
            raise BracketUserError(gettext_noop("A random draw needs a draw number (random seed) to be recorded."))
        ordered = list(given)
        random.Random(random_seed).shuffle(ordered)
    elif method is SeedingMethod.RATING:
        unrated = tuple(label(c.id) for c in given if c.rating is None)
        if unrated:
            raise BracketUserError(
                gettext_noop("Seeding by rating needs a rating for every player; no rating for %(players)s."),
                players=unrated,
            )
        ordered = sorted(given, key=lambda c: -c.rating)  # stable: ties keep the TD's order
    else:  # pragma: no cover - exhaustive over the enum
        raise AssertionError(method)
    return tuple(Competitor(c.id, number, c.rating) for number, c in enumerate(ordered, start=1))


def bracket_order(size: int) -> list[int]:
    """Seed numbers by bracket line for a bracket of ``size`` (a power of two).

    Line 2i and 2i+1 meet in round 1. Seeds 1 and 2 are in opposite halves, seeds 1-4 in
    different quarters, and so on: for 8 lines, 1 8 4 5 2 7 3 6 (1 v 8, 4 v 5, 2 v 7, 3 v 6).
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size
