"""Round 1 as the TD wants it: pairs kept apart and pairings fixed, on top of the seeded draw.

The TD looks at the draw the seeds give (a knockout's bracket order, a Swiss round's top half
against bottom half) and may ask for two things before it is made:

* *keep apart*: two players must not meet in round 1 (a couple, two club-mates, a father and son);
* *fix*: two players meet in round 1 (a match agreed in advance, a pair that travels together).

The seeded draw is changed as little as possible, always the same way, so the same seeds and the
same rules give the same round (the draw stays reproducible):

1. For each fixed pairing, in the order given, the lower seed moves into his partner's opponent
   line (swapping places with whoever, or whichever bye, was there). When that line holds a player
   already fixed, the higher seed moves instead.
2. For each kept-apart pair that still meets, the lower seed swaps places with the player nearest
   to him in seed (the next seed down first, then the next one up, and so on) whose move leaves
   every fixed pairing in place and brings no kept-apart pair together. Byes stay where the seeds
   put them.

A draw is a list of tables ``(a, b)`` in order (a knockout's bracket order), ``b`` None for a bye.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .base import CompetitorId
from .errors import BracketUserError, gettext_noop

Table = tuple[CompetitorId, CompetitorId | None]


class DrawRuleError(BracketUserError):
    """A pair kept apart or fixed that the draw cannot follow; ``field`` names the list it is in
    ("apart" or "fixed")."""

    def __init__(self, field: str, message: str | tuple[str, str, int], **params) -> None:
        super().__init__(message, **params)
        self.field = field


@dataclass(frozen=True, slots=True)
class DrawRules:
    """What the TD asked of round 1: pairs kept apart, pairings fixed."""

    apart: tuple[tuple[CompetitorId, CompetitorId], ...] = ()
    """Pairs that must not meet in round 1."""
    fixed: tuple[tuple[CompetitorId, CompetitorId], ...] = ()
    """Pairs that meet in round 1."""

    def __bool__(self) -> bool:
        return bool(self.apart or self.fixed)

    @classmethod
    def of(cls, apart: Iterable[Sequence] = (), fixed: Iterable[Sequence] = ()) -> DrawRules:
        """Rules from lists of pairs (as a form or a JSON body gives them)."""
        return cls(tuple((a, b) for a, b in apart), tuple((a, b) for a, b in fixed))

    def as_lists(self) -> dict[str, list[list]]:
        """The rules as JSON stores them: ``{"apart": [[a, b], ...], "fixed": [[a, b], ...]}``."""
        return {"apart": [list(pair) for pair in self.apart], "fixed": [list(pair) for pair in self.fixed]}


def check_rules(rules: DrawRules, seed_of: Mapping[CompetitorId, int], *, flight: str = "Main",
                label: Callable[[CompetitorId], str] = str) -> None:
    """Refuse rules that name a player not in the draw, a player twice in one pair, a player fixed
    against two opponents, or a pair both fixed and kept apart."""
    partner: dict[CompetitorId, CompetitorId] = {}
    twice = {
        "fixed": gettext_noop("%(flight)s: a pair fixed needs two different players, not %(player)s twice."),
        "apart": gettext_noop("%(flight)s: a pair kept apart needs two different players, not %(player)s twice."),
    }
    for field, pairs in (("fixed", rules.fixed), ("apart", rules.apart)):
        for a, b in pairs:
            for player in (a, b):
                if player not in seed_of:
                    raise DrawRuleError(field, gettext_noop(
                        "%(flight)s: %(player)s is not in the draw (only checked-in players are)."),
                        flight=flight, player=label(player))
            if a == b:
                raise DrawRuleError(field, twice[field], flight=flight, player=label(a))
    for a, b in rules.fixed:
        for player, other in ((a, b), (b, a)):
            if player in partner and partner[player] != other:
                raise DrawRuleError("fixed", gettext_noop(
                    "%(flight)s: %(player)s cannot play both %(first)s and %(second)s in round 1; keep one of "
                    "the two fixed pairings."),
                    flight=flight, player=label(player), first=label(partner[player]), second=label(other))
            partner[player] = other
    for a, b in rules.apart:
        if partner.get(a) == b:
            raise DrawRuleError("apart", gettext_noop(
                "%(flight)s: %(a)s and %(b)s are both fixed to meet and kept apart; keep one of the two."),
                flight=flight, a=label(a), b=label(b))


def apply_rules(
    tables: Sequence[Table],
    seed_of: Mapping[CompetitorId, int],
    rules: DrawRules,
    *,
    flight: str = "Main",
    label: Callable[[CompetitorId], str] = str,
) -> list[Table]:
    """The seeded round 1 ``tables`` changed to follow ``rules`` (see the module's docstring).

    ``seed_of`` gives every player's seed (1 is the best). Raises `BracketUserError`, in words the
    TD uses, when the rules contradict each other or cannot all be kept.
    """
    check_rules(rules, seed_of, flight=flight, label=label)
    lines: list[CompetitorId | None] = [player for table in tables for player in table]
    pos = {player: index for index, player in enumerate(lines) if player is not None}
    missing = [player for player in seed_of if player not in pos]
    if missing:
        raise BracketUserError(gettext_noop("%(flight)s: %(players)s not in the draw."),
                               flight=flight, players=tuple(label(p) for p in missing))
    locked: set[CompetitorId] = set()

    def swap(i: int, j: int) -> None:
        lines[i], lines[j] = lines[j], lines[i]
        for index in (i, j):
            if lines[index] is not None:
                pos[lines[index]] = index

    def movable(mover: CompetitorId, target: int) -> bool:
        """Moving `mover` onto line `target` keeps fixed players in place and leaves no empty table."""
        occupant = lines[target]
        if occupant is not None and occupant in locked:
            return False
        old = pos[mover]
        return not (occupant is None and lines[old ^ 1] is None)

    for a, b in rules.fixed:
        if pos[a] ^ 1 == pos[b]:
            locked.update((a, b))
            continue
        high, low = sorted((a, b), key=lambda p: seed_of[p])
        for mover, partner in ((low, high), (high, low)):
            target = pos[partner] ^ 1
            if movable(mover, target):
                swap(pos[mover], target)
                break
        else:
            if lines[pos[a] ^ 1] is None and lines[pos[b] ^ 1] is None:
                raise DrawRuleError("fixed", gettext_noop(
                    "%(flight)s: %(a)s and %(b)s both have a bye in round 1, so they cannot be fixed to meet "
                    "there; move one of them down the seeds first."), flight=flight, a=label(a), b=label(b))
            raise DrawRuleError("fixed", gettext_noop(
                "%(flight)s: %(a)s and %(b)s cannot be fixed to meet: both their opponents are fixed to other "
                "players."), flight=flight, a=label(a), b=label(b))
        locked.update((a, b))

    apart = [frozenset(pair) for pair in rules.apart]

    def clash(table: int) -> bool:
        pair = frozenset(p for p in lines[2 * table:2 * table + 2] if p is not None)
        return len(pair) == 2 and pair in apart

    for a, b in rules.apart:
        if pos[a] ^ 1 != pos[b]:
            continue
        mover = max((a, b), key=lambda p: seed_of[p])
        seed = seed_of[mover]
        candidates = sorted(
            (p for p in pos if p not in (a, b) and p not in locked and lines[pos[p] ^ 1] is not None),
            key=lambda p: (abs(seed_of[p] - seed), seed_of[p] < seed),
        )
        for other in candidates:
            i, j = pos[mover], pos[other]
            if i // 2 == j // 2:
                continue
            swap(i, j)
            if not clash(i // 2) and not clash(j // 2):
                break
            swap(i, j)
        else:
            raise DrawRuleError("apart", gettext_noop(
                "%(flight)s: %(a)s and %(b)s cannot be kept apart in round 1 with the pairings fixed and the "
                "pairs kept apart so far; drop one of those rules."), flight=flight, a=label(a), b=label(b))

    out: list[Table] = []
    for index in range(0, len(lines), 2):
        x, y = lines[index], lines[index + 1]
        out.append((y, None) if x is None else (x, y))
    return out
