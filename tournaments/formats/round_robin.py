"""Round robin with Berger tables.

Players take the numbers of the Berger table in seed order. An odd field gets one more number,
the bye: whoever meets it that round sits out (and scores nothing for it, since every player
sits out once). Round r of a table of n numbers (n even) is round 1 with every number but n
moved on by (r - 1) * n / 2 places among 1..n-1, which is how the published tables run:
for six numbers, round 1 is 1-6 2-5 3-4 and round 2 is 6-4 5-3 1-2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .base import Competitor, CompetitorId, Pairing, Result, check_unique_ids, round_length
from .errors import BracketUserError, gettext_noop
from .standings import MatchPRs, Scoring, Standing, TieBreak, records, standings

DEFAULT_ROUND_ROBIN_TIE_BREAKS = (TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER)


def berger_table(size: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``size`` numbers (even): rounds of (number, number) pairs."""
    if size < 2 or size % 2:
        raise ValueError(f"a Berger table has an even number of places, not {size}")
    half = size // 2
    base = [(1, size)] + [(i, size + 1 - i) for i in range(2, half + 1)]
    table = []
    for round_no in range(1, size):
        shift = (round_no - 1) * half

        def move(number: int) -> int:
            return number if number == size else (number - 1 + shift) % (size - 1) + 1

        pairs = [(move(a), move(b)) for a, b in base]
        if round_no % 2 == 0:
            pairs[0] = (pairs[0][1], pairs[0][0])
        table.append(pairs)
    return table


class RoundRobin:
    """Every player meets every other once; the state is the field and the results."""

    def __init__(
        self,
        competitors: Sequence[Competitor],
        *,
        lengths: Sequence[int] = (),
        results: Iterable[Result] = (),
        tie_breaks: Sequence[TieBreak] = DEFAULT_ROUND_ROBIN_TIE_BREAKS,
        scoring: Scoring = Scoring.WINS,
        prs: MatchPRs | None = None,
        name: str = "Round robin",
        label: Callable[[CompetitorId], str] = str,
    ) -> None:
        if len(competitors) < 2:
            raise BracketUserError(gettext_noop("%(flight)s: a round robin needs at least two players."),
                                   flight=name)
        check_unique_ids(competitors, label)
        self.name = name
        self.label = label
        self.competitors = tuple(sorted(competitors, key=lambda c: c.seed))
        self.tie_breaks = tuple(tie_breaks)
        self.scoring = scoring
        self.prs = dict(prs or {})
        self.results = tuple(results)
        size = len(self.competitors) + len(self.competitors) % 2
        number = {i: c.id for i, c in enumerate(self.competitors, start=1)}
        rounds = []
        for round_no, pairs in enumerate(berger_table(size), start=1):
            length = round_length(lengths, round_no)
            games = []
            byes = []
            for a, b in pairs:
                if a in number and b in number:
                    games.append((number[a], number[b]))
                else:
                    byes.append(number[a] if a in number else number[b])
            tables = [
                Pairing(f"R{round_no}-{t}", round_no, a, b, length)
                for t, (a, b) in enumerate(games, start=1)
            ]
            tables += [
                Pairing(f"R{round_no}-{len(games) + 1}", round_no, bye, None, length)
                for bye in byes
            ]
            rounds.append(tuple(tables))
        self.rounds = tuple(rounds)
        self.pairings = tuple(p for r in self.rounds for p in r)
        self._records = records(self.competitors, self.pairings, self.results, name, self.prs, label)
        reported = {r.slot for r in self.results}
        self._missing = [p for p in self.pairings if not p.is_bye and p.slot not in reported]

    def ready(self) -> tuple[Pairing, ...]:
        """Matches without a result yet (a round robin's matches are all known up front)."""
        return tuple(self._missing)

    @property
    def is_finished(self) -> bool:
        """True when every match has a result."""
        return not self._missing

    def standings(self) -> tuple[Standing, ...]:
        """Points (wins, and skill when scored), then the tie-breaks in order; a bye scores no win."""
        return standings(
            self.competitors,
            self.pairings,
            self.results,
            tie_breaks=self.tie_breaks,
            bye_points=0,
            flight=self.name,
            label=self.label,
            scoring=self.scoring,
            prs=self.prs,
        )

    def opponents(self, player: CompetitorId) -> tuple[CompetitorId, ...]:
        """Everyone the player meets, in round order."""
        return tuple(
            p.b if p.a == player else p.a
            for p in self.pairings
            if not p.is_bye and player in p.players
        )
