"""Loading a flight's rows into `tournaments.formats` and reading the answer back.

A *unit* is what one format object covers: a main knockout with the consolation and last chance
flights its losers feed (one `KnockoutEvent`), or a single flight of another format. Nothing is
written here; the services store what these views say.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from . import formats as fm
from .formats._tree import MatchStatus as TreeStatus
from .formats._tree import NOBODY, UNKNOWN, Tree
from .formats.elimination import ProgressiveBracket
from .models import DECIDED, Entry, Flight, FlightFormat, Pairing, PairingStatus

DE_LOSERS_OFFSET = 50
DE_FINAL_OFFSET = 99
KNOCKOUT_PREFIX = "K"


def slot_round(flight: Flight, slot: str, round_no: int) -> tuple[int, str]:
    """The stored round number and its name for a format's slot."""
    if flight.format == FlightFormat.DOUBLE_ELIMINATION:
        if slot.startswith("L"):
            return DE_LOSERS_OFFSET + round_no, f"Losers' round {round_no}"
        if slot.startswith("GF"):
            return DE_FINAL_OFFSET + round_no, "Grand final" if round_no == 1 else "Grand final, reset"
        return round_no, f"Winners' round {round_no}"
    if flight.format == FlightFormat.SWISS_KNOCKOUT and slot.startswith(KNOCKOUT_PREFIX):
        number = (flight.swiss_rounds or 0) + round_no
        return number, f"Knockout round {round_no}"
    return round_no, f"Round {round_no}"


@dataclass(frozen=True)
class Slot:
    """A match of a flight as the format sees it now (players may be unknown: None)."""

    slot: str
    round_number: int
    round_name: str
    a: int | None
    b: int | None
    length: int | None
    state: str  # waiting, ready, played, bye, void
    winner: int | None = None


@dataclass
class FlightView:
    flight: Flight
    engine: object
    slots: list[Slot] = field(default_factory=list)

    @property
    def drawn(self) -> list[Slot]:
        """The matches whose players are known (played, ready, byes)."""
        return [s for s in self.slots if s.state in ("ready", "played", "bye")]

    @property
    def finished(self) -> bool:
        return bool(self.engine is not None and self.engine.is_finished)

    @property
    def champion(self) -> int | None:
        if not self.finished:
            return None
        engine = self.engine
        if isinstance(engine, (Tree, ProgressiveBracket, fm.SwissKnockout)):
            return engine.champion
        lines = engine.standings()
        return lines[0].competitor if lines and (len(lines) < 2 or lines[1].rank > 1) else None

    def round_complete(self, number: int) -> bool:
        mine = [s for s in self.slots if s.round_number == number]
        if isinstance(self.engine, ProgressiveBracket):
            return self.engine.round_complete(number)
        return bool(mine) and all(s.state not in ("waiting", "ready") for s in mine)


def _id(value):
    return None if value is None or value is NOBODY or value is UNKNOWN else value


def _tree_slots(flight: Flight, tree: Tree, prefix: str = "") -> list[Slot]:
    out = []
    for state in tree.states():
        node = state.node
        slot = prefix + node.slot
        number, name = slot_round(flight, slot, node.round_no)
        status = state.status.value
        a, b = _id(state.a), _id(state.b)
        if state.status is TreeStatus.BYE:
            a, b = _id(state.winner), None
        out.append(Slot(slot, number, name, a, b, node.length, status, _id(state.winner)))
    return out


def _progressive_slots(flight: Flight, bracket: ProgressiveBracket) -> list[Slot]:
    out = []
    for pairing in bracket.pairings():
        number, name = slot_round(flight, pairing.slot, pairing.round_no)
        winner = bracket.winner(pairing.slot)
        state = "bye" if pairing.is_bye else ("played" if winner is not None else "ready")
        out.append(Slot(pairing.slot, number, name, pairing.a, pairing.b, pairing.length, state, winner))
    return out


def _listed_slots(flight: Flight, pairings: Iterable[fm.Pairing], results: dict[str, fm.Result], prefix="") -> list:
    out = []
    for p in pairings:
        slot = prefix + p.slot
        number, name = slot_round(flight, slot, p.round_no)
        if p.is_bye:
            out.append(Slot(slot, number, name, p.a, None, p.length, "bye", p.a))
            continue
        result = results.get(p.slot)
        out.append(Slot(slot, number, name, p.a, p.b, p.length, "played" if result else "ready",
                        result.winner if result else None))
    return out


def unit_flights(flight: Flight, flights: list[Flight]) -> list[Flight]:
    """The flights one format object covers with `flight`: its knockout family, or itself."""
    if flight.format != FlightFormat.SINGLE_ELIMINATION:
        return [flight]
    by_name = {f.name: f for f in flights}

    def root_of(f: Flight) -> Flight:
        seen = set()
        while f.feeders and f.name not in seen:
            seen.add(f.name)
            f = by_name.get(f.feeders[0]["source"], f)
        return f

    root = root_of(flight)
    family = [f for f in flights if f.format == FlightFormat.SINGLE_ELIMINATION and root_of(f).pk == root.pk]
    return sorted(family, key=lambda f: (f.position, f.pk))


def competitors(entries: Iterable[Entry]) -> list[fm.Competitor]:
    return [fm.Competitor(e.player_id, e.seed) for e in entries if e.seed is not None]


def results_of(pairings: Iterable[Pairing], *, strip: str = "") -> dict[str, fm.Result]:
    out = {}
    for p in pairings:
        if p.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
            slot = p.slot[len(strip):] if strip and p.slot.startswith(strip) else p.slot
            out[slot] = fm.Result(slot, p.winner_id, p.status == PairingStatus.WALKOVER)
    return out


def tie_breaks_of(flight: Flight, default):
    if not flight.tie_breaks:
        return tuple(default)
    return tuple(fm.TieBreak(name) for name in flight.tie_breaks)


def build_unit(
    flights: list[Flight],
    entries: dict[int, list[Entry]],
    pairings: dict[int, list[Pairing]],
    results: dict[int, dict[str, fm.Result]] | None = None,
    withdrawn: frozenset = frozenset(),
) -> dict[int, FlightView]:
    """One view per flight of a unit. `results` replaces the stored results when given."""
    if results is None:
        results = {f.pk: results_of(pairings.get(f.pk, ())) for f in flights}
    root = flights[0]
    if root.status == "draft":
        return {f.pk: FlightView(f, None) for f in flights}
    fmt = root.format
    field_ = competitors(entries.get(root.pk, ()))
    if fmt == FlightFormat.SINGLE_ELIMINATION:
        specs = [
            fm.FlightSpec(
                f.name,
                fm.FlightKind(f.kind) if f.kind in ("main", "consolation", "last_chance") else fm.FlightKind.MAIN,
                tuple(f.lengths),
                tuple(fm.Feeder(d["source"], int(d["source_round"]), int(d["entry_round"])) for d in f.feeders),
            )
            for f in flights
        ]
        specs[0] = fm.FlightSpec(specs[0].name, fm.FlightKind.MAIN, specs[0].lengths, ())
        event = fm.KnockoutEvent(
            field_,
            specs,
            results={f.name: list(results.get(f.pk, {}).values()) for f in flights},
            first_round=[tuple(pair) for pair in root.first_round],
        )
        views = {}
        for f in flights:
            engine = event[f.name]
            slots = _tree_slots(f, engine) if isinstance(engine, Tree) else _progressive_slots(f, engine)
            views[f.pk] = FlightView(f, engine, slots)
        return views
    flight_results = results.get(root.pk, {})
    if fmt == FlightFormat.DOUBLE_ELIMINATION:
        engine = fm.DoubleElimination(
            field_, first_round=[tuple(pair) for pair in root.first_round], lengths=root.lengths,
            results=flight_results.values(), name=root.name,
        )
        return {root.pk: FlightView(root, engine, _tree_slots(root, engine))}
    if fmt == FlightFormat.ROUND_ROBIN:
        engine = fm.RoundRobin(
            field_, lengths=root.lengths, results=flight_results.values(),
            tie_breaks=tie_breaks_of(root, fm.round_robin.DEFAULT_ROUND_ROBIN_TIE_BREAKS), name=root.name,
        )
        return {root.pk: FlightView(root, engine, _listed_slots(root, engine.pairings, flight_results))}
    stored = [
        fm.Pairing(p.slot, p.round.number, p.player_a_id, p.player_b_id, p.round.length)
        for p in pairings.get(root.pk, ())
        if not p.slot.startswith(KNOCKOUT_PREFIX)
    ]
    settings = fm.SwissSettings(
        rounds=root.swiss_rounds,
        out_after_losses=root.out_after_losses,
        tie_breaks=tie_breaks_of(root, fm.swiss.DEFAULT_SWISS_TIE_BREAKS),
        lengths=tuple(root.lengths),
    )
    swiss_results = {s: r for s, r in flight_results.items() if not s.startswith(KNOCKOUT_PREFIX)}
    if fmt == FlightFormat.SWISS:
        engine = fm.Swiss(field_, settings, pairings=stored, results=swiss_results.values(),
                          withdrawn=withdrawn, name=root.name)
        return {root.pk: FlightView(root, engine, _listed_slots(root, engine.pairings, swiss_results))}
    knockout_results = [
        fm.Result(s[len(KNOCKOUT_PREFIX):], r.winner, r.walkover)
        for s, r in flight_results.items() if s.startswith(KNOCKOUT_PREFIX)
    ]
    knockout_players = {
        player for p in pairings.get(root.pk, ()) if p.slot.startswith(KNOCKOUT_PREFIX)
        for player in (p.player_a_id, p.player_b_id) if player is not None
    }
    engine = fm.SwissKnockout(
        field_, swiss_rounds=root.swiss_rounds, qualifiers=root.qualifiers, swiss_settings=settings,
        knockout_lengths=root.lengths[root.swiss_rounds:] or root.lengths[-1:],
        swiss_pairings=stored, swiss_results=swiss_results.values(), knockout_results=knockout_results,
        withdrawn=withdrawn, knockout_players=knockout_players,
    )
    slots = _listed_slots(root, engine.swiss.pairings, swiss_results)
    if engine.knockout is not None:
        slots += _tree_slots(root, engine.knockout, KNOCKOUT_PREFIX)
    return {root.pk: FlightView(root, engine, slots)}


def swiss_engine(view: FlightView):
    """The Swiss that pairs the next round of this flight, if it is a Swiss (stage)."""
    engine = view.engine
    if isinstance(engine, fm.Swiss):
        return engine
    if isinstance(engine, fm.SwissKnockout) and engine.knockout is None:
        return engine.swiss
    return None


def decided(pairing: Pairing) -> bool:
    return pairing.status in DECIDED
