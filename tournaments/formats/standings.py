"""Standings for formats where everyone keeps playing: Swiss and round robin.

A backgammon match has a winner, so a player's points are his wins, plus the points a bye is
worth in the format. Some federations also score skill: a second point per match for the
player who played it better by the analysis (`Scoring.WIN_AND_SKILL`). Players level on points
are separated by tie-breaks in the order the TD chose; players still level after every
tie-break share a rank and are listed by seed.

The analysis comes in as `MatchPRs`: for each analysed match (by slot), each player's PR
(Performance Rating: equity lost per decision x 500; lower is better).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .base import Competitor, CompetitorId, Pairing, Result, check_unique_ids, index_results
from .errors import BracketUserError, gettext_noop


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
    PR = "pr"
    """The average PR over the player's analysed matches in this flight; lower is better, and a
    player with no analysed match ranks after those with one."""


class Scoring(enum.Enum):
    """How a match is scored."""

    WINS = "wins"
    """One point for the win; a bye is worth the format's bye points."""
    WIN_AND_SKILL = "win_and_skill"
    """One point for the win and one for skill: the skill point goes to the player whose PR in
    that match is at least `SKILL_MARGIN` lower, else half to each (half each too when the match
    was not analysed). A bye is worth the format's bye points plus a half; a walkover gives its
    winner the win and a half, and the player who did not play nothing."""


SKILL_MARGIN = 1.0
"""How much lower a player's PR in a match must be for him to take the whole skill point."""

MatchPRs = Mapping[str, Mapping[CompetitorId, float]]
"""Each analysed match's PR per player, by slot: ``{"R1-2": {17: 5.4, 23: 9.1}}``."""


def skill_points(pairing: Pairing, prs: Mapping[CompetitorId, float] | None) -> dict[CompetitorId, float]:
    """The skill point of one played match: 1 to the clearly better player, else 0.5 each."""
    a, b = pairing.a, pairing.b
    if not prs or a not in prs or b not in prs:
        return {a: 0.5, b: 0.5}
    # PRs are stored to many digits: a margin of exactly SKILL_MARGIN counts, whatever the rounding.
    if prs[b] - prs[a] >= SKILL_MARGIN - 1e-9:
        return {a: 1.0, b: 0.0}
    if prs[a] - prs[b] >= SKILL_MARGIN - 1e-9:
        return {a: 0.0, b: 1.0}
    return {a: 0.5, b: 0.5}


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the standings."""

    rank: int
    competitor: CompetitorId
    points: float
    wins: int
    losses: int
    byes: int
    tie_breaks: tuple[tuple[TieBreak, float | None], ...]
    """Each tie-break's value; the PR is None for a player with no analysed match."""

    def tie_break(self, kind: TieBreak) -> float | None:
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
    skill: float = 0.0
    """Skill points from matches played and walkovers won (byes are counted apart)."""
    prs: list = field(default_factory=list)
    """His PR in each analysed match."""

    def points(self, scoring: Scoring, bye_points: float) -> float:
        points = self.wins + bye_points * self.byes
        if scoring is Scoring.WIN_AND_SKILL:
            points += self.skill + 0.5 * self.byes
        return points

    @property
    def pr(self) -> float | None:
        """His average PR over his analysed matches, or None without one."""
        return math.fsum(self.prs) / len(self.prs) if self.prs else None


def records(
    competitors: Sequence[Competitor],
    pairings: Iterable[Pairing],
    results: Iterable[Result],
    flight: str,
    prs: MatchPRs | None = None,
    label: Callable[[CompetitorId], str] = str,
) -> dict[CompetitorId, _Record]:
    """Each player's wins, losses, byes, opponents, skill points and PRs from the pairings, their
    results and the analysed matches' PRs (a refusal names a player by `label`)."""
    prs = prs or {}
    by_id = check_unique_ids(competitors, label)
    indexed = index_results(results, flight)
    table = {c.id: _Record(c) for c in competitors}
    seen: set[str] = set()
    for pairing in pairings:
        if pairing.slot in seen:
            raise BracketUserError(gettext_noop("%(flight)s: two matches are numbered %(slot)s."),
                                   flight=flight, slot=pairing.slot)
        seen.add(pairing.slot)
        for player in pairing.players:
            if player not in by_id:
                raise BracketUserError(gettext_noop("%(flight)s %(slot)s: %(player)s is not entered."),
                                       flight=flight, slot=pairing.slot, player=label(player))
        if pairing.is_bye:
            if pairing.slot in indexed:
                raise BracketUserError(gettext_noop("%(flight)s %(slot)s is a bye: there is no match to report."),
                                       flight=flight, slot=pairing.slot)
            table[pairing.a].byes += 1
            continue
        result = indexed.get(pairing.slot)
        if result is None:
            continue
        if result.winner not in pairing.players:
            raise BracketUserError(
                gettext_noop("%(flight)s %(slot)s is %(a)s against %(b)s; %(winner)s did not play it."),
                flight=flight, slot=pairing.slot, a=label(pairing.a), b=label(pairing.b), winner=label(result.winner),
            )
        loser = pairing.b if result.winner == pairing.a else pairing.a
        table[result.winner].wins += 1
        table[result.winner].beaten.append(loser)
        table[loser].losses += 1
        table[loser].lost_to.append(result.winner)
        if result.walkover:
            table[result.winner].skill += 0.5
            continue
        analysed = prs.get(pairing.slot)
        for player, skill in skill_points(pairing, analysed).items():
            table[player].skill += skill
        if analysed and all(player in analysed for player in pairing.players):
            for player in pairing.players:
                table[player].prs.append(float(analysed[player]))
    unknown = sorted(set(indexed) - seen)
    if unknown:
        raise BracketUserError(gettext_noop("%(flight)s has no match %(slot)s."), flight=flight, slot=unknown[0])
    return table


def standings(
    competitors: Sequence[Competitor],
    pairings: Iterable[Pairing],
    results: Iterable[Result],
    *,
    tie_breaks: Sequence[TieBreak],
    bye_points: float = 1,
    flight: str = "Swiss",
    scoring: Scoring = Scoring.WINS,
    prs: MatchPRs | None = None,
    label: Callable[[CompetitorId], str] = str,
) -> tuple[Standing, ...]:
    """The standings: points first, then the tie-breaks in the given order.

    ``prs`` (the analysed matches' PRs by slot) count for `Scoring.WIN_AND_SKILL` and
    `TieBreak.PR`; without them every match is scored as not analysed.
    """
    if len(set(tie_breaks)) != len(tie_breaks):
        raise BracketUserError(gettext_noop("A tie-break is listed twice."))
    table = records(competitors, pairings, results, flight, prs, label)
    points = {pid: r.points(scoring, bye_points) for pid, r in table.items()}
    values: dict[TieBreak, dict[CompetitorId, float | None]] = {}
    order: dict[TieBreak, dict[CompetitorId, float]] = {}
    for kind in tie_breaks:
        if kind is TieBreak.HEAD_TO_HEAD:
            values[kind] = {}
            continue
        if kind is TieBreak.PR:
            values[kind] = {pid: record.pr for pid, record in table.items()}
            # Lower is better and none ranks last: split on the negated PR, rounded so that two
            # equal averages summed in another order stay equal.
            order[kind] = {pid: -math.inf if pr is None else -round(pr, 9) for pid, pr in values[kind].items()}
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
        groups = _split(groups, order.get(kind, values[kind]))

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
