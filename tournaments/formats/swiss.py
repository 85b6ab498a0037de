"""Swiss pairing for backgammon.

There are no colours in backgammon, so a Swiss round only has to decide who plays whom:

* players are ranked by points (the standings' points, skill points included when the flight
  scores them), then by seed; players on the same points form a score group
  and are paired top half against bottom half (in a group of six, 1 v 4, 2 v 5, 3 v 6);
* when a group cannot be paired inside itself (it is odd, or only rematches are left) its
  lowest player floats down to the next group;
* nobody plays the same opponent twice while a pairing without a rematch exists: the search
  backtracks over the whole field, in the order above, until it finds one, within a bound on
  the work done; only when none exists (or the bound is hit) are rematches allowed, and then as
  late in the order as possible;
* with an odd field the bye goes to the lowest-ranked player of the lowest score group who has
  not had one; nobody gets two byes while someone who has had none is still in;
* optionally a player is out on his k-th loss ("out on the third loss").
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .base import Competitor, CompetitorId, Pairing, Result, check_unique_ids, round_length
from .errors import BracketUserError, gettext_noop, ngettext
from .standings import MatchPRs, Scoring, Standing, TieBreak, records, standings

DEFAULT_SWISS_TIE_BREAKS = (
    TieBreak.BUCHHOLZ,
    TieBreak.MEDIAN_BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.HEAD_TO_HEAD,
)

BYE_POINTS = 1
"""A Swiss bye is worth a win."""

SEARCH_BOUND = 200_000
"""The most pairing steps tried before rematches are allowed (a safety bound for huge fields)."""


@dataclass(frozen=True, slots=True)
class SwissSettings:
    """How a Swiss flight is run."""

    rounds: int | None = None
    """The number of rounds; None to go on while two or more players are still in."""
    out_after_losses: int | None = None
    """A player is out on this loss (3 for "out on the third loss"); None for a plain Swiss."""
    tie_breaks: tuple[TieBreak, ...] = DEFAULT_SWISS_TIE_BREAKS
    """The tie-breaks after points, in order."""
    lengths: tuple[int, ...] = ()
    """Match length for each round; rounds past the end keep the last length."""
    scoring: Scoring = Scoring.WINS
    """How a match is scored: the win only, or the win and the skill point."""


class Swiss:
    """A Swiss flight: its players, the rounds paired so far and their results.

    ``pairings`` are every round already paired (by this class or by hand), ``results`` the
    winners reported, ``withdrawn`` the players who left, ``prs`` the PRs of the matches analysed
    so far (for skill points and the PR tie-break); that is all the state there is.
    """

    def __init__(
        self,
        competitors: Sequence[Competitor],
        settings: SwissSettings = SwissSettings(),
        *,
        pairings: Iterable[Pairing] = (),
        results: Iterable[Result] = (),
        withdrawn: Iterable[CompetitorId] = (),
        prs: MatchPRs | None = None,
        name: str = "Swiss",
        label: Callable[[CompetitorId], str] = str,
    ) -> None:
        if len(competitors) < 2:
            raise BracketUserError(gettext_noop("%(flight)s: a Swiss needs at least two players."), flight=name)
        self.name = name
        self.label = label
        """How a refusal names a player (his name; the id by default)."""
        self.settings = settings
        self.competitors = tuple(sorted(competitors, key=lambda c: c.seed))
        self._by_id = check_unique_ids(self.competitors, label)
        self.pairings = tuple(pairings)
        self.results = tuple(results)
        self.withdrawn = frozenset(withdrawn)
        self.prs = dict(prs or {})
        self._records = records(self.competitors, self.pairings, self.results, name, self.prs, label)
        self._points = {pid: r.points(settings.scoring, BYE_POINTS) for pid, r in self._records.items()}
        self.rounds_paired = max((p.round_no for p in self.pairings), default=0)
        reported = {r.slot for r in self.results}
        self._missing = [p.slot for p in self.pairings if not p.is_bye and p.slot not in reported]
        self._played = {frozenset(p.players) for p in self.pairings if not p.is_bye}

    # -- who is still in -----------------------------------------------------------------

    def points(self, player: CompetitorId) -> float:
        """A player's points so far (wins, byes and, when scored, skill): the standings' points."""
        return self._points[player]

    def is_out(self, player: CompetitorId) -> bool:
        """True when the player withdrew or reached the losses that put him out."""
        limit = self.settings.out_after_losses
        return player in self.withdrawn or (
            limit is not None and self._records[player].losses >= limit
        )

    def active(self) -> tuple[CompetitorId, ...]:
        """The players who will be paired next round, best first."""
        players = [c.id for c in self.competitors if not self.is_out(c.id)]
        return tuple(sorted(players, key=lambda p: (-self.points(p), self._by_id[p].seed)))

    @property
    def round_complete(self) -> bool:
        """True when every match paired so far has a result."""
        return not self._missing

    @property
    def is_finished(self) -> bool:
        """True when the last round is played, or fewer than two players are still in."""
        if not self.round_complete:
            return False
        if self.settings.rounds is not None and self.rounds_paired >= self.settings.rounds:
            return True
        return len(self.active()) < 2

    def ready(self) -> tuple[Pairing, ...]:
        """The matches paired and not yet reported."""
        missing = set(self._missing)
        return tuple(p for p in self.pairings if p.slot in missing)

    # -- pairing -------------------------------------------------------------------------

    def pair_next_round(self) -> tuple[Pairing, ...]:
        """The pairings of the next round (byes included)."""
        round_no = self._check_can_pair()
        players = list(self.active())
        bye, tables = self._pair(players)
        return self._number(round_no, tables, bye)

    def check_round(self, pairings: Sequence[Pairing]) -> tuple[Pairing, ...]:
        """Check a round paired by hand against the rules used to pair it; returns it unchanged."""
        round_no = self._check_can_pair()
        active = self.active()
        seen: set[CompetitorId] = set()
        byes = []
        for pairing in pairings:
            if pairing.round_no != round_no:
                raise BracketUserError(gettext_noop("%(flight)s: the next round is round %(next)s, not %(given)s."),
                                       flight=self.name, next=round_no, given=pairing.round_no)
            for player in pairing.players:
                if player not in self._by_id:
                    raise BracketUserError(gettext_noop("%(flight)s: %(player)s is not entered."),
                                           flight=self.name, player=self.label(player))
                if player not in active:
                    raise BracketUserError(gettext_noop("%(flight)s: %(player)s is out and cannot be paired."),
                                           flight=self.name, player=self.label(player))
                if player in seen:
                    raise BracketUserError(gettext_noop("%(flight)s: %(player)s is paired twice."),
                                           flight=self.name, player=self.label(player))
                seen.add(player)
            if pairing.is_bye:
                byes.append(pairing.a)
        left_out = tuple(self.label(p) for p in active if p not in seen)
        if left_out:
            raise BracketUserError(gettext_noop("%(flight)s: %(players)s not paired."),
                                   flight=self.name, players=left_out)
        if len(byes) > 1:
            raise BracketUserError(gettext_noop("%(flight)s: only one player may have a bye in a round."),
                                   flight=self.name)
        if byes and self._had_bye(byes[0]) and any(not self._had_bye(p) for p in active):
            raise BracketUserError(
                gettext_noop("%(flight)s: %(player)s has already had a bye; give it to a player who has not."),
                flight=self.name, player=self.label(byes[0]),
            )
        rematches = [p for p in pairings if not p.is_bye and frozenset(p.players) in self._played]
        if rematches:
            _, tables = self._pair(list(active))
            if not any(frozenset(t) in self._played for t in tables):
                first = rematches[0]
                raise BracketUserError(
                    gettext_noop("%(flight)s: %(a)s and %(b)s have already played, and this round can be paired "
                                 "without a rematch."),
                    flight=self.name, a=self.label(first.a), b=self.label(first.b),
                )
        return tuple(pairings)

    def _check_can_pair(self) -> int:
        if not self.round_complete:
            raise BracketUserError(
                ngettext("%(flight)s: round %(round)s is not finished (%(missing)s result missing).",
                         "%(flight)s: round %(round)s is not finished (%(missing)s results missing).",
                         len(self._missing)),
                flight=self.name, round=self.rounds_paired, missing=len(self._missing),
            )
        if self.is_finished:
            raise BracketUserError(gettext_noop("%(flight)s is finished: there is no round to pair."),
                                   flight=self.name)
        return self.rounds_paired + 1

    def _had_bye(self, player: CompetitorId) -> bool:
        return self._records[player].byes > 0

    def _pair(self, players: list[CompetitorId]) -> tuple[CompetitorId | None, list[tuple]]:
        points = {p: self.points(p) for p in players}
        budget = [SEARCH_BOUND]
        if len(players) % 2 == 0:
            tables = _search(players, points, self._played, budget, rematches=False)
            if tables is None:
                tables = _search(players, points, self._played, [SEARCH_BOUND], rematches=True)
            return None, tables
        fewest = min(self._records[p].byes for p in players)
        candidates = [p for p in reversed(players) if self._records[p].byes == fewest]
        for bye in candidates:
            rest = [p for p in players if p != bye]
            tables = _search(rest, points, self._played, budget, rematches=False)
            if tables is not None:
                return bye, tables
            if budget[0] <= 0:
                break
        bye = candidates[0]
        rest = [p for p in players if p != bye]
        return bye, _search(rest, points, self._played, [SEARCH_BOUND], rematches=True)

    def _number(self, round_no: int, tables: list[tuple], bye: CompetitorId | None) -> tuple[Pairing, ...]:
        length = round_length(self.settings.lengths, round_no)
        pairings = [
            Pairing(f"R{round_no}-{number}", round_no, a, b, length)
            for number, (a, b) in enumerate(tables, start=1)
        ]
        if bye is not None:
            pairings.append(Pairing(f"R{round_no}-{len(tables) + 1}", round_no, bye, None, length))
        return tuple(pairings)

    # -- standings -----------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Rank, points, wins, losses and tie-breaks for every player."""
        return standings(
            self.competitors,
            self.pairings,
            self.results,
            tie_breaks=self.settings.tie_breaks,
            bye_points=BYE_POINTS,
            flight=self.name,
            label=self.label,
            scoring=self.settings.scoring,
            prs=self.prs,
        )


def _preferences(remaining: list, points: dict) -> list:
    """Opponents for the first player, best first: his score group top half v bottom half,
    then the players below in order."""
    first = remaining[0]
    rest = remaining[1:]
    same = 0
    while same < len(rest) and points[rest[same]] == points[first]:
        same += 1
    group = rest[:same]
    half = (same + 1) // 2
    ordered = group[half - 1:] + group[: half - 1][::-1] if group else []
    return ordered + rest[same:]


def _search(players: list, points: dict, played: set, budget: list, *, rematches: bool):
    """Pair ``players`` (best first) in the preferred order; None if it cannot be done.

    Without ``rematches`` no pair may have met before; with it, rematches are tried only after
    every new opponent, which always succeeds.
    """
    if len(players) // 2 + 50 > sys.getrecursionlimit():
        sys.setrecursionlimit(len(players) // 2 + 1000)
    return _extend(players, points, played, budget, rematches)


def _extend(remaining: list, points: dict, played: set, budget: list, rematches: bool):
    if not remaining:
        return []
    budget[0] -= 1
    if budget[0] < 0 and not rematches:
        return None
    first = remaining[0]
    options = _preferences(remaining, points)
    fresh = [o for o in options if frozenset((first, o)) not in played]
    if rematches:
        fresh += [o for o in options if frozenset((first, o)) in played]
    for opponent in fresh:
        rest = [p for p in remaining[1:] if p != opponent]
        tail = _extend(rest, points, played, budget, rematches)
        if tail is not None:
            return [(first, opponent)] + tail
        if budget[0] < 0 and not rematches:
            return None
    return None
