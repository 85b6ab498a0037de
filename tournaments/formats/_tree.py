"""A bracket as a fixed tree of matches, each fed by entrants, winners or losers of others.

Single and double elimination are both such trees. The tree is built once from the draw;
results are then poured in and every match is worked out in order: waiting (a player still
unknown), ready, played, a bye (one side empty), or void (both sides empty). An empty side comes
from a bye line in round 1, from a bye further on, or from a player who lost by walkover and so
does not go on to the next bracket.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .base import (
    CompetitorId,
    Pairing,
    Placing,
    Result,
    index_results,
    placings_from_exits,
)
from .errors import BracketUserError, gettext_noop


class _Nobody:
    """An empty side of a match: a bye line, or a player who withdrew."""

    def __repr__(self) -> str:
        return "NOBODY"


class _Unknown:
    """A side not known yet: the match feeding it is not decided."""

    def __repr__(self) -> str:
        return "UNKNOWN"


NOBODY = _Nobody()
UNKNOWN = _Unknown()


class FeedKind(enum.Enum):
    """Where a side of a match comes from."""

    ENTRANT = "entrant"
    """A player placed on a line of the draw (or nobody, on a bye line)."""
    WINNER = "winner"
    """The winner of another match."""
    LOSER = "loser"
    """The loser of another match (double elimination)."""


@dataclass(frozen=True, slots=True)
class Feed:
    """One side of a match and where it comes from."""

    kind: FeedKind
    ref: object  # a competitor id (or NOBODY) for an entrant, a slot otherwise


class MatchStatus(enum.Enum):
    """Where a match of a bracket stands."""

    WAITING = "waiting"
    """At least one player is not known yet."""
    READY = "ready"
    """Both players are known and the match can be played now."""
    PLAYED = "played"
    """The match has a result."""
    BYE = "bye"
    """Only one player: he goes through without playing."""
    VOID = "void"
    """No player on either side; the match does not take place."""


@dataclass(frozen=True, slots=True)
class Node:
    """A match of the tree before any result: its slot, round, feeds and placing stage."""

    slot: str
    round_no: int
    stage: int
    feeds: tuple[Feed, Feed]
    length: int | None = None
    reset_of: str | None = None  # a bracket-reset final, played only if side b won that match


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match of the tree once the results so far are known."""

    node: Node
    status: MatchStatus
    a: object
    b: object
    winner: object
    loser: object
    walkover: bool = False


class Tree:
    """Results applied to a tree of matches; the shared engine of the knockout brackets."""

    def __init__(
        self,
        name: str,
        nodes: Sequence[Node],
        results: Iterable[Result],
        final_slots: Sequence[str],
        gone: Iterable[object] = (),
    ) -> None:
        self.name = name
        self._gone = frozenset(gone)
        self._nodes = tuple(nodes)
        self._final_slots = tuple(final_slots)
        self._results = index_results(results, name)
        slots = {node.slot for node in self._nodes}
        unknown = sorted(set(self._results) - slots)
        if unknown:
            raise BracketUserError(gettext_noop("%(flight)s has no match %(slot)s."),
                                   flight=name, slot=tuple(unknown))
        self._loser_goes_on = {
            node.feeds[i].ref
            for node in self._nodes
            for i in (0, 1)
            if node.feeds[i].kind is FeedKind.LOSER and node.reset_of is None
        }
        self._states: dict[str, MatchState] = {}
        for node in self._nodes:
            self._states[node.slot] = self._work_out(node)

    # -- working out ---------------------------------------------------------------------

    def _side(self, feed: Feed) -> object:
        if feed.kind is FeedKind.ENTRANT:
            return feed.ref
        state = self._states[feed.ref]
        return state.winner if feed.kind is FeedKind.WINNER else state.loser

    def _work_out(self, node: Node) -> MatchState:
        if node.reset_of is not None:
            first = self._states[node.reset_of]
            if first.status in (MatchStatus.WAITING, MatchStatus.READY):
                return self._decide(node, UNKNOWN, UNKNOWN)
            if first.status is MatchStatus.PLAYED and first.winner == first.b and not first.walkover:
                return self._decide(node, first.a, first.b)
            return self._decide(node, NOBODY, NOBODY)
        a = self._side(node.feeds[0])
        b = self._side(node.feeds[1])
        return self._decide(node, a, b)

    def _decide(self, node: Node, a: object, b: object) -> MatchState:
        result = self._results.get(node.slot)
        if a is UNKNOWN or b is UNKNOWN:
            if result is not None:
                raise BracketUserError(
                    gettext_noop("%(flight)s %(slot)s: a result was given, but the players of this match are not "
                                 "known yet."),
                    flight=self.name, slot=node.slot,
                )
            return MatchState(node, MatchStatus.WAITING, a, b, UNKNOWN, UNKNOWN)
        if a is NOBODY or b is NOBODY:
            if result is not None:
                raise BracketUserError(gettext_noop("%(flight)s %(slot)s is a bye: there is no match to report."),
                                       flight=self.name, slot=node.slot)
            if a is NOBODY and b is NOBODY:
                return MatchState(node, MatchStatus.VOID, a, b, NOBODY, NOBODY)
            player = b if a is NOBODY else a
            return MatchState(node, MatchStatus.BYE, player, NOBODY, player, NOBODY)
        if result is None:
            return MatchState(node, MatchStatus.READY, a, b, UNKNOWN, UNKNOWN)
        if result.winner not in (a, b):
            raise BracketUserError(
                gettext_noop("%(flight)s %(slot)s is %(a)s against %(b)s; %(winner)s did not play it."),
                flight=self.name, slot=node.slot, a=a, b=b, winner=result.winner,
            )
        loser = b if result.winner == a else a
        # A walkover loser has withdrawn, and so has a loser in `gone`: neither goes on to
        # another bracket; his place there is empty.
        passed_on = NOBODY if result.walkover or loser in self._gone else loser
        return MatchState(
            node, MatchStatus.PLAYED, a, b, result.winner, passed_on, result.walkover
        )

    # -- reading -------------------------------------------------------------------------

    def state(self, slot: str) -> MatchState:
        """The state of one match."""
        try:
            return self._states[slot]
        except KeyError:
            raise BracketUserError(gettext_noop("%(flight)s has no match %(slot)s."),
                                   flight=self.name, slot=slot) from None

    def states(self) -> tuple[MatchState, ...]:
        """Every match, in the order they were built (round by round)."""
        return tuple(self._states.values())

    @staticmethod
    def _pairing(state: MatchState) -> Pairing:
        b = None if state.b is NOBODY else state.b
        node = state.node
        return Pairing(node.slot, node.round_no, state.a, b, node.length)

    def pairings(self) -> tuple[Pairing, ...]:
        """Every match whose players are known: played, ready, and byes."""
        return tuple(
            self._pairing(s)
            for s in self._states.values()
            if s.status in (MatchStatus.READY, MatchStatus.PLAYED, MatchStatus.BYE)
        )

    def ready(self) -> tuple[Pairing, ...]:
        """The matches that can be played now: both players known, no result yet."""
        return tuple(
            self._pairing(s) for s in self._states.values() if s.status is MatchStatus.READY
        )

    def played(self) -> tuple[Pairing, ...]:
        """The matches with a result (walkovers included)."""
        return tuple(
            self._pairing(s) for s in self._states.values() if s.status is MatchStatus.PLAYED
        )

    def byes(self) -> tuple[Pairing, ...]:
        """The byes: players who go through a round without playing."""
        return tuple(
            self._pairing(s) for s in self._states.values() if s.status is MatchStatus.BYE
        )

    def winner(self, slot: str) -> CompetitorId | None:
        """The player who goes on from a match (the bye holder for a bye), if known."""
        winner = self.state(slot).winner
        return None if winner is UNKNOWN or winner is NOBODY else winner

    def loser(self, slot: str) -> CompetitorId | None:
        """The player who lost a match (also by walkover), if it has been played."""
        state = self.state(slot)
        if state.status is not MatchStatus.PLAYED:
            return None
        return state.b if state.winner == state.a else state.a

    def rounds(self) -> tuple[int, ...]:
        """The round numbers of this bracket."""
        return tuple(sorted({node.round_no for node in self._nodes}))

    def _round_states(self, round_no: int) -> list[MatchState]:
        return [s for s in self._states.values() if s.node.round_no == round_no]

    def round_complete(self, round_no: int) -> bool:
        """True when every match of the round is decided (played, a bye, or void)."""
        return all(s.status not in (MatchStatus.WAITING, MatchStatus.READY)
                   for s in self._round_states(round_no))

    def losers_of_round(self, round_no: int) -> tuple[CompetitorId, ...]:
        """The players who lost a match they played in the round; walkover losers are left out."""
        return tuple(
            s.loser for s in self._round_states(round_no)
            if s.status is MatchStatus.PLAYED and not s.walkover
        )

    @property
    def champion(self) -> CompetitorId | None:
        """The winner of the bracket, once decided."""
        for slot in reversed(self._final_slots):
            state = self._states[slot]
            if state.status is MatchStatus.VOID:
                continue
            return self.winner(slot)
        return None

    @property
    def is_finished(self) -> bool:
        """True when no match is waiting or ready."""
        return all(s.status not in (MatchStatus.WAITING, MatchStatus.READY)
                   for s in self._states.values())

    def placings(self) -> tuple[Placing, ...]:
        """Final places, champion first, then tie bands by the stage at which players went out."""
        if not self.is_finished:
            raise BracketUserError(gettext_noop("%(flight)s is not finished: places are not known yet."),
                                   flight=self.name)
        exits: dict[CompetitorId, int] = {}
        for state in self._states.values():
            if state.status is not MatchStatus.PLAYED:
                continue
            loser = self.loser(state.node.slot)
            goes_on = not state.walkover and (
                state.node.slot in self._loser_goes_on or self._reset_follows(state.node.slot)
            )
            if not goes_on:
                exits[loser] = state.node.stage
        return placings_from_exits(self.champion, exits)

    def _reset_follows(self, slot: str) -> bool:
        return any(
            s.node.reset_of == slot and s.status is not MatchStatus.VOID
            for s in self._states.values()
        )
