"""Single elimination, and the consolation and last chance flights fed by its losers.

The main flight is a seeded knockout: the bracket is the smallest power of two that holds the
field, the byes go to the top seeds, and seeds are placed so that 1 and 2 can meet only in the
final, 1-4 only in the semi-finals, and so on.

A consolation (or last chance) flight is progressive: its entrants arrive round by round as
losers of other flights. Feeder rules say which losers enter and in which round. Because a
round's entrants are known only once the rounds feeding it are over (walkovers do not feed),
the flight is drawn one round at a time from the players then present:

* while more entrants are still to come, as many matches as possible are played (one bye if
  the field is odd);
* in the last round that takes entrants, and after it, the field is brought to a power of two
  in a single round (with byes, like the first round of a knockout), and halves from then on;
* byes go to the best-seeded players who have not had one yet in this flight; the others play
  best remaining against worst remaining. Seeds are the players' seeds in the event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ._tree import NOBODY, Feed, FeedKind, Node, Tree
from .base import (
    Competitor,
    CompetitorId,
    FlightKind,
    Pairing,
    Placing,
    Result,
    check_unique_ids,
    index_results,
    placings_from_exits,
    round_length,
)
from .errors import BracketUserError, gettext_noop
from .seeding import bracket_order, bracket_size

FirstRound = Sequence[tuple[CompetitorId, CompetitorId | None]]
"""A hand-made first round: (a, b) per match in bracket order, b None for a bye."""


def seeded_first_round(competitors: Sequence[Competitor]) -> list[tuple[CompetitorId, CompetitorId | None]]:
    """Round 1 of a seeded knockout: byes to the top seeds, 1 v 16, 8 v 9, ... in bracket order."""
    ordered = sorted(competitors, key=lambda c: c.seed)
    size = bracket_size(len(ordered))
    lines = [ordered[seed - 1].id if seed <= len(ordered) else None for seed in bracket_order(size)]
    first_round = []
    for i in range(0, size, 2):
        a, b = lines[i], lines[i + 1]
        first_round.append((a, b) if a is not None else (b, a))
    return first_round


def check_first_round(
    competitors: Sequence[Competitor], first_round: FirstRound, flight: str = "Main",
    label: Callable[[CompetitorId], str] = str,
) -> None:
    """Refuse a hand-made first round that does not place every player exactly once (a refusal
    names a player by `label`)."""
    by_id = check_unique_ids(competitors, label)
    expected = bracket_size(len(competitors)) // 2
    if len(first_round) != expected:
        raise BracketUserError(
            gettext_noop("%(flight)s: a draw for %(players)s players has %(expected)s first-round matches "
                         "(byes included); this one has %(given)s."),
            flight=flight, players=len(competitors), expected=expected, given=len(first_round),
        )
    seen: set[CompetitorId] = set()
    for number, (a, b) in enumerate(first_round, start=1):
        if a is None:
            raise BracketUserError(gettext_noop("%(flight)s %(slot)s: a match needs at least one player."),
                                   flight=flight, slot=f"R1-{number}")
        for player in (a, b):
            if player is None:
                continue
            if player not in by_id:
                raise BracketUserError(gettext_noop("%(flight)s %(slot)s: %(player)s is not entered."),
                                       flight=flight, slot=f"R1-{number}", player=label(player))
            if player in seen:
                raise BracketUserError(gettext_noop("%(flight)s: %(player)s is drawn twice."),
                                       flight=flight, player=label(player))
            seen.add(player)
    missing = tuple(label(c.id) for c in competitors if c.id not in seen)
    if missing:
        raise BracketUserError(gettext_noop("%(flight)s: the draw leaves out %(players)s."),
                               flight=flight, players=missing)


class SingleElimination(Tree):
    """A knockout bracket and the results played in it so far.

    ``competitors`` carry their seeds; without ``first_round`` the draw is the standard seeded
    one, with it the TD's own first round (checked). ``lengths`` gives the match length of each
    round. Results are keyed by slot "R<round>-<match>".
    """

    def __init__(
        self,
        competitors: Sequence[Competitor],
        *,
        first_round: FirstRound | None = None,
        lengths: Sequence[int] = (),
        results: Iterable[Result] = (),
        name: str = "Main",
        label: Callable[[CompetitorId], str] = str,
    ) -> None:
        if len(competitors) < 2:
            raise BracketUserError(gettext_noop("%(flight)s: a knockout needs at least two players."), flight=name)
        check_unique_ids(competitors, label)
        if first_round is None:
            first_round = seeded_first_round(competitors)
        else:
            check_first_round(competitors, first_round, name, label)
        self.competitors = tuple(sorted(competitors, key=lambda c: c.seed))
        self.first_round = tuple(tuple(pair) for pair in first_round)
        self.lengths = tuple(lengths)
        nodes = elimination_nodes(self.first_round, self.lengths, prefix="R")
        self.rounds_count = nodes[-1].round_no
        super().__init__(name, nodes, results, final_slots=[nodes[-1].slot])

    def with_results(self, results: Iterable[Result]) -> SingleElimination:
        """The same draw with another list of results."""
        return SingleElimination(
            self.competitors,
            first_round=self.first_round,
            lengths=self.lengths,
            results=results,
            name=self.name,
        )


def elimination_nodes(
    first_round: Sequence[tuple[object, object]],
    lengths: Sequence[int],
    *,
    prefix: str,
    stage_of_round=lambda round_no: round_no,
) -> list[Node]:
    """The matches of a knockout tree from its first round; winners of matches 2i-1, 2i meet."""
    nodes: list[Node] = []
    previous: list[str] = []
    for number, (a, b) in enumerate(first_round, start=1):
        slot = f"{prefix}1-{number}"
        feeds = (
            Feed(FeedKind.ENTRANT, NOBODY if a is None else a),
            Feed(FeedKind.ENTRANT, NOBODY if b is None else b),
        )
        nodes.append(Node(slot, 1, stage_of_round(1), feeds, round_length(lengths, 1)))
        previous.append(slot)
    round_no = 1
    while len(previous) > 1:
        round_no += 1
        current = []
        for number in range(1, len(previous) // 2 + 1):
            slot = f"{prefix}{round_no}-{number}"
            feeds = (
                Feed(FeedKind.WINNER, previous[2 * number - 2]),
                Feed(FeedKind.WINNER, previous[2 * number - 1]),
            )
            nodes.append(
                Node(slot, round_no, stage_of_round(round_no), feeds, round_length(lengths, round_no))
            )
            current.append(slot)
        previous = current
    return nodes


@dataclass(frozen=True, slots=True)
class Feeder:
    """Losers of round ``source_round`` of flight ``source`` enter in round ``entry_round``."""

    source: str
    source_round: int
    entry_round: int


@dataclass(frozen=True, slots=True)
class _Match:
    pairing: Pairing
    winner: CompetitorId | None = None
    walkover: bool = False


@dataclass(slots=True)
class _Round:
    round_no: int
    matches: list[_Match] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return all(m.winner is not None for m in self.matches)


class ProgressiveBracket:
    """A consolation or last chance flight whose players arrive round by round.

    ``entrants`` maps a round number to the players entering in it, for every entry round whose
    feeding rounds are over; ``entry_rounds`` lists every round that takes entrants, known or
    not yet. The flight is drawn as far as the results allow (see the module text for the
    rule) and stops at the first round it cannot draw yet.
    """

    def __init__(
        self,
        name: str,
        *,
        entry_rounds: Iterable[int],
        entrants: Mapping[int, Sequence[Competitor]],
        lengths: Sequence[int] = (),
        results: Iterable[Result] = (),
        kind: FlightKind = FlightKind.CONSOLATION,
    ) -> None:
        self.name = name
        self.kind = kind
        self.lengths = tuple(lengths)
        self.entry_rounds = frozenset(entry_rounds)
        unexpected = sorted(set(entrants) - self.entry_rounds)
        if unexpected:
            raise BracketUserError(gettext_noop("%(flight)s takes no entrants in round %(round)s."),
                                   flight=name, round=unexpected[0])
        self._entrants = {r: tuple(sorted(cs, key=lambda c: c.seed)) for r, cs in entrants.items()}
        check_unique_ids([c for cs in self._entrants.values() for c in cs])
        self._results = index_results(results, name)
        self.rounds: list[_Round] = []
        self.champion: CompetitorId | None = None
        self.is_finished = False
        self._exits: dict[CompetitorId, int] = {}
        self._draw()
        drawn = {m.pairing.slot for r in self.rounds for m in r.matches}
        unknown = sorted(set(self._results) - drawn)
        if unknown:
            raise BracketUserError(
                gettext_noop("%(flight)s has no match %(slot)s drawn yet; results can only be given for drawn "
                             "matches."),
                flight=name, slot=unknown[0],
            )

    def _draw(self) -> None:
        last_entry = max(self.entry_rounds, default=0)
        survivors: list[Competitor] = []
        had_bye: set[CompetitorId] = set()
        round_no = 0
        while True:
            round_no += 1
            if round_no in self.entry_rounds and round_no not in self._entrants:
                return  # waiting for the rounds that feed this one
            field = survivors + list(self._entrants.get(round_no, ()))
            more_to_come = round_no < last_entry
            if not more_to_come and len(field) <= 1:
                self.champion = field[0].id if field else None
                self.is_finished = True
                return
            current = _Round(round_no)
            self.rounds.append(current)
            if not field:
                continue
            matches = self._matches_to_play(len(field), more_to_come)
            byes = len(field) - 2 * matches
            by_seed = sorted(field, key=lambda c: c.seed)
            bye_holders = sorted(by_seed, key=lambda c: (c.id in had_bye, c.seed))[:byes]
            players = [c for c in by_seed if c not in bye_holders]
            tables = [(c, None) for c in bye_holders]
            tables += [(players[i], players[-1 - i]) for i in range(matches)]
            tables.sort(key=lambda t: t[0].seed)
            length = round_length(self.lengths, round_no)
            survivors = []
            for number, (a, b) in enumerate(tables, start=1):
                slot = f"R{round_no}-{number}"
                pairing = Pairing(slot, round_no, a.id, None if b is None else b.id, length)
                if b is None:
                    had_bye.add(a.id)
                    current.matches.append(_Match(pairing, a.id))
                    survivors.append(a)
                    continue
                result = self._results.get(slot)
                if result is None:
                    current.matches.append(_Match(pairing))
                    continue
                if result.winner not in (a.id, b.id):
                    raise BracketUserError(
                        gettext_noop("%(flight)s %(slot)s is %(a)s against %(b)s; %(winner)s did not play it."),
                        flight=self.name, slot=slot, a=a.id, b=b.id, winner=result.winner,
                    )
                winner, loser = (a, b) if result.winner == a.id else (b, a)
                current.matches.append(_Match(pairing, winner.id, result.walkover))
                survivors.append(winner)
                self._exits[loser.id] = round_no
            if not current.complete:
                return

    @staticmethod
    def _matches_to_play(field_size: int, more_to_come: bool) -> int:
        if more_to_come:
            return field_size // 2
        power = 1
        while power * 2 <= field_size:
            power *= 2
        return field_size // 2 if power == field_size else field_size - power

    # -- reading -------------------------------------------------------------------------

    def pairings(self) -> tuple[Pairing, ...]:
        """Every drawn match, byes included."""
        return tuple(m.pairing for r in self.rounds for m in r.matches)

    def ready(self) -> tuple[Pairing, ...]:
        """The matches that can be played now."""
        return tuple(m.pairing for r in self.rounds for m in r.matches if m.winner is None)

    def played(self) -> tuple[Pairing, ...]:
        """The matches with a result (walkovers included)."""
        return tuple(
            m.pairing for r in self.rounds for m in r.matches
            if m.winner is not None and not m.pairing.is_bye
        )

    def byes(self) -> tuple[Pairing, ...]:
        """The byes drawn so far."""
        return tuple(m.pairing for r in self.rounds for m in r.matches if m.pairing.is_bye)

    def entrants(self, round_no: int) -> tuple[CompetitorId, ...]:
        """The players who entered the flight in a round (known once its feeders are over)."""
        return tuple(c.id for c in self._entrants.get(round_no, ()))

    def _match(self, slot: str) -> _Match:
        for r in self.rounds:
            for m in r.matches:
                if m.pairing.slot == slot:
                    return m
        raise BracketUserError(gettext_noop("%(flight)s has no match %(slot)s drawn."), flight=self.name, slot=slot)

    def winner(self, slot: str) -> CompetitorId | None:
        """The player who goes on from a match, if known."""
        return self._match(slot).winner

    def loser(self, slot: str) -> CompetitorId | None:
        """The player who lost a match, if it has been played."""
        m = self._match(slot)
        if m.winner is None or m.pairing.is_bye:
            return None
        return m.pairing.b if m.winner == m.pairing.a else m.pairing.a

    def round_complete(self, round_no: int) -> bool:
        """True when the round is drawn and decided, or the flight ended before it."""
        if round_no <= len(self.rounds):
            return self.rounds[round_no - 1].complete
        return self.is_finished

    def losers_of_round(self, round_no: int) -> tuple[CompetitorId, ...]:
        """The players who lost a match they played in the round (walkover losers left out)."""
        if round_no > len(self.rounds):
            return ()
        return tuple(
            self.loser(m.pairing.slot)
            for m in self.rounds[round_no - 1].matches
            if m.winner is not None and not m.pairing.is_bye and not m.walkover
        )

    def placings(self) -> tuple[Placing, ...]:
        """Final places: champion, then tie bands by the round in which players went out."""
        if not self.is_finished:
            raise BracketUserError(gettext_noop("%(flight)s is not finished: places are not known yet."),
                                   flight=self.name)
        return placings_from_exits(self.champion, dict(self._exits))


@dataclass(frozen=True, slots=True)
class FlightSpec:
    """One flight of a knockout event: its name, kind, match lengths and feeder rules.

    The main flight has no feeders; every other flight names earlier flights as feeders.
    """

    name: str
    kind: FlightKind = FlightKind.MAIN
    lengths: tuple[int, ...] = ()
    feeders: tuple[Feeder, ...] = ()


class KnockoutEvent:
    """A main knockout with its consolation and last chance flights, worked out from results.

    Everything is derived from the seeded ``competitors``, the flight specs, the main flight's
    first round (the seeded draw unless given), the players who withdrew and the results per
    flight; nothing else needs to be kept between calls.

    A withdrawn player does not enter a fed flight, unless he is one of ``drawn[name]``: the
    players already drawn in that flight, who stay in it (and lose by walkover) instead of the
    flight being drawn again without them.
    """

    def __init__(
        self,
        competitors: Sequence[Competitor],
        flights: Sequence[FlightSpec],
        *,
        results: Mapping[str, Iterable[Result]] | None = None,
        first_round: FirstRound | None = None,
        withdrawn: Iterable[CompetitorId] = (),
        drawn: Mapping[str, Iterable[CompetitorId]] | None = None,
    ) -> None:
        results = results or {}
        if not flights or flights[0].kind is not FlightKind.MAIN or flights[0].feeders:
            raise BracketUserError(gettext_noop("An event starts with its main flight, which has no feeders."))
        names = [spec.name for spec in flights]
        if len(set(names)) != len(names):
            raise BracketUserError(gettext_noop("Two flights have the same name; name every flight differently."))
        unknown = sorted(set(results) - set(names))
        if unknown:
            raise BracketUserError(gettext_noop("There is no flight called %(flight)s."), flight=unknown[0])
        by_id = check_unique_ids(competitors)
        withdrawn = frozenset(withdrawn)
        drawn = {name: frozenset(players) for name, players in (drawn or {}).items()}
        self.specs = tuple(flights)
        self.flights: dict[str, SingleElimination | ProgressiveBracket] = {}
        main = flights[0]
        self.flights[main.name] = SingleElimination(
            competitors,
            first_round=first_round,
            lengths=main.lengths,
            results=results.get(main.name, ()),
            name=main.name,
        )
        for spec in flights[1:]:
            if not spec.feeders:
                raise BracketUserError(gettext_noop("%(flight)s needs at least one feeder rule."), flight=spec.name)
            entrants: dict[int, list[Competitor]] = {}
            waiting: set[int] = set()
            for feeder in spec.feeders:
                source = self.flights.get(feeder.source)
                if source is None:
                    raise BracketUserError(
                        gettext_noop("%(flight)s is fed by %(source)s, which is not an earlier flight of this event."),
                        flight=spec.name, source=feeder.source,
                    )
                if feeder.entry_round < 1 or feeder.source_round < 1:
                    raise BracketUserError(gettext_noop("%(flight)s: rounds are numbered from 1."), flight=spec.name)
                if not source.round_complete(feeder.source_round):
                    waiting.add(feeder.entry_round)
                    continue
                entrants.setdefault(feeder.entry_round, []).extend(
                    by_id[player]
                    for player in source.losers_of_round(feeder.source_round)
                    if player not in withdrawn or player in drawn.get(spec.name, ())
                )
            for round_no in waiting:
                entrants.pop(round_no, None)
            self.flights[spec.name] = ProgressiveBracket(
                spec.name,
                entry_rounds={f.entry_round for f in spec.feeders},
                entrants=entrants,
                lengths=spec.lengths,
                results=results.get(spec.name, ()),
                kind=spec.kind,
            )

    def __getitem__(self, name: str) -> SingleElimination | ProgressiveBracket:
        try:
            return self.flights[name]
        except KeyError:
            raise BracketUserError(gettext_noop("There is no flight called %(flight)s."), flight=name) from None

    def ready(self) -> dict[str, tuple[Pairing, ...]]:
        """The matches that can be played now, per flight."""
        return {name: flight.ready() for name, flight in self.flights.items()}

    @property
    def is_finished(self) -> bool:
        """True when every flight is finished."""
        return all(flight.is_finished for flight in self.flights.values())
