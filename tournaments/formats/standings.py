"""Standings for formats where everyone keeps playing: Swiss and round robin.

A backgammon match has a winner, so a player's points are his wins, plus the points a bye is
worth in the format. Players level on points are separated by tie-breaks in the order the TD
chose; players still level after every tie-break share a rank and are listed by seed.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .base import Competitor, CompetitorId, Pairing, Result, check_unique_ids, index_results
from .errors import BracketUserError


class TieBreak(enum.Enum):
    """A way to separate players level on points."""

    BUCHHOLZ = "buchholz"
    """The sum of the points of every opponent played (a bye adds nothing)."""
    MEDIAN_BUCHHOLZ = "median_buchholz"
    """Buchholz without the best and the worst opponent, for players with three or more."""
    SONNEBORN_BERGER = "sonneborn_berger"
    """The sum of the points of every opponent beaten."""
    HEAD_TO_HEAD = "head_to_head"
    """Wins against the other players still level at that point of the order."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the standings."""

    rank: int
    competitor: CompetitorId
    points: float
    wins: int
    losses: int
    byes: int
    tie_breaks: tuple[tuple[TieBreak, float], ...]

    def tie_break(self, kind: TieBreak) -> float:
        """The value of one tie-break."""
        return dict(self.tie_breaks)[kind]


@dataclass(slots=True)
class _Record:
    competitor: Competitor
    wins: int = 0
    losses: int = 0
    byes: int = 0
    beaten: list = field(default_factory=list)
    lost_to: list = field(default_factory=list)


def records(
    competitors: Sequence[Competitor],
    pairings: Iterable[Pairing],
    results: Iterable[Result],
    flight: str,
) -> dict[CompetitorId, _Record]:
    """Each player's wins, losses, byes and opponents from the pairings and their results."""
    by_id = check_unique_ids(competitors)
    indexed = index_results(results, flight)
    table = {c.id: _Record(c) for c in competitors}
    seen: set[str] = set()
    for pairing in pairings:
        if pairing.slot in seen:
            raise BracketUserError(f"{flight}: two matches are numbered {pairing.slot}.")
        seen.add(pairing.slot)
        for player in pairing.players:
            if player not in by_id:
                raise BracketUserError(f"{flight} {pairing.slot}: {player} is not entered.")
        if pairing.is_bye:
            if pairing.slot in indexed:
                raise BracketUserError(f"{flight} {pairing.slot} is a bye: there is no match to report.")
            table[pairing.a].byes += 1
            continue
        result = indexed.get(pairing.slot)
        if result is None:
            continue
        if result.winner not in pairing.players:
            raise BracketUserError(
                f"{flight} {pairing.slot} is {pairing.a} against {pairing.b}; "
                f"{result.winner} did not play it."
            )
        loser = pairing.b if result.winner == pairing.a else pairing.a
        table[result.winner].wins += 1
        table[result.winner].beaten.append(loser)
        table[loser].losses += 1
        table[loser].lost_to.append(result.winner)
    unknown = sorted(set(indexed) - seen)
    if unknown:
        raise BracketUserError(f"{flight} has no match {unknown[0]}.")
    return table


def standings(
    competitors: Sequence[Competitor],
    pairings: Iterable[Pairing],
    results: Iterable[Result],
    *,
    tie_breaks: Sequence[TieBreak],
    bye_points: float = 1,
    flight: str = "Swiss",
) -> tuple[Standing, ...]:
    """The standings: points first, then the tie-breaks in the given order."""
    if len(set(tie_breaks)) != len(tie_breaks):
        raise BracketUserError("A tie-break is listed twice.")
    table = records(competitors, pairings, results, flight)
    points = {pid: r.wins + bye_points * r.byes for pid, r in table.items()}
    values: dict[TieBreak, dict[CompetitorId, float]] = {}
    for kind in tie_breaks:
        if kind is TieBreak.HEAD_TO_HEAD:
            values[kind] = {}
            continue
        values[kind] = {}
        for pid, record in table.items():
            opponents = [points[o] for o in record.beaten + record.lost_to]
            if kind is TieBreak.BUCHHOLZ:
                value = sum(opponents)
            elif kind is TieBreak.MEDIAN_BUCHHOLZ:
                ordered = sorted(opponents)
                value = sum(ordered[1:-1]) if len(ordered) >= 3 else sum(ordered)
            else:
                value = sum(points[o] for o in record.beaten)
            values[kind][pid] = value

    groups: list[list[CompetitorId]] = [sorted(table, key=lambda pid: -points[pid])]
    groups = _split(groups, points)
    for kind in tie_breaks:
        if kind is TieBreak.HEAD_TO_HEAD:
            for group in groups:
                members = set(group)
                for pid in group:
                    values[kind][pid] = sum(1 for o in table[pid].beaten if o in members)
        groups = _split(groups, values[kind])

    lines: list[Standing] = []
    rank = 1
    for group in groups:
        for pid in sorted(group, key=lambda p: table[p].competitor.seed):
            record = table[pid]
            lines.append(
                Standing(
                    rank=rank,
                    competitor=pid,
                    points=points[pid],
                    wins=record.wins,
                    losses=record.losses,
                    byes=record.byes,
                    tie_breaks=tuple((kind, values[kind][pid]) for kind in tie_breaks),
                )
            )
        rank += len(group)
    return tuple(lines)


def _split(groups: list[list[CompetitorId]], value: dict[CompetitorId, float]) -> list[list]:
    """Split each group of level players by a value, highest first."""
    split: list[list[CompetitorId]] = []
    for group in groups:
        by_value: dict[float, list[CompetitorId]] = {}
        for pid in group:
            by_value.setdefault(value[pid], []).append(pid)
        split.extend(by_value[v] for v in sorted(by_value, reverse=True))
    return split
