"""Reads worked out from the formats: a flight's views (its unit's engines over the stored draw
and results), its bracket, standings and places, and what a changed winner would undo."""

from __future__ import annotations

from .. import draws, services
from ..models import Entry, EntryStatus, Flight, Pairing


def flight_views(flight: Flight) -> dict[int, draws.FlightView]:
    flights = draws.unit_of(flight)
    entries, pairings, withdrawn = draws.load(flights)
    return draws.unit_views(flights, entries, pairings, withdrawn)


def event_views(flights: list[Flight]) -> tuple[dict[int, draws.FlightView], dict[int, list[Pairing]]]:
    """Every drawn flight of one event, with its stored pairings: two queries for the whole event,
    each unit (a knockout and the flights it feeds) built once."""
    entries, pairings, _ = draws.load(flights, read_only=True)
    views: dict[int, draws.FlightView] = {}
    for flight in flights:
        if flight.status == "draft" or flight.pk in views:
            continue
        unit = draws.unit_flights(flight, flights)
        withdrawn = frozenset(e.player_id for f in unit for e in entries.get(f.pk, ())
                              if e.status == EntryStatus.WITHDRAWN)
        views.update(draws.unit_views(unit, entries, pairings, withdrawn))
    return views, pairings


def knockout_seeds(view: draws.FlightView | None) -> dict[int, int]:
    """In a Swiss then knockout whose knockout is drawn, each qualifier's knockout seed (his Swiss
    rank); empty otherwise."""
    knockout = getattr(getattr(view, "engine", None), "knockout", None)
    return {c.id: c.seed for c in knockout.competitors} if knockout is not None else {}


def _names(player_ids) -> dict[int, dict]:
    from games.models import Player

    return {p.pk: {"id": p.pk, "name": p.name, "country": p.country}
            for p in Player.objects.filter(pk__in=[i for i in player_ids if i is not None])}


def bracket(flight: Flight) -> dict:
    """The flight for drawing: rounds as columns, each slot with its players (or a bye, or not
    known yet), its state and its winner."""
    if flight.status == "draft":
        return {"flight": flight.pk, "name": flight.name, "format": flight.format, "rounds": [], "champion": None}
    view = flight_views(flight)[flight.pk]
    stored = {p.slot: p for p in Pairing.objects.filter(flight=flight)}
    seeds = dict(Entry.objects.filter(flight__tournament=flight.tournament, seed__isnull=False)
                 .values_list("player_id", "seed"))
    # A fed flight that received a single entrant has a champion who is in no drawn slot.
    ids = {x for s in view.slots for x in (s.a, s.b, s.winner)} | {view.champion}
    names = _names(ids)

    knockout = knockout_seeds(view)

    def player(pid, slot=""):
        if pid is None:
            return None
        seeded = knockout if knockout and slot.startswith(draws.KNOCKOUT_PREFIX) else seeds
        return {**names[pid], "seed": seeded.get(pid)}

    columns: dict[int, dict] = {}
    for s in view.slots:
        if s.state == "void":
            continue
        column = columns.setdefault(s.round_number, {"round": s.round_number, "name": s.round_name,
                                                      "length": s.length, "slots": []})
        row = stored.get(s.slot)
        column["slots"].append({
            "slot": s.slot,
            "pairing": row.pk if row else None,
            "player_a": player(s.a, s.slot),
            "player_b": player(s.b, s.slot),
            "bye": s.state == "bye",
            "state": {"waiting": "pending", "ready": "ready", "played": "played", "bye": "bye"}[s.state],
            "status": row.status if row else "waiting",
            "score": [row.score_a, row.score_b] if row and row.score_a is not None else None,
            "winner": s.winner,
            "table": row.table if row else "",
        })
    return {
        "flight": flight.pk,
        "name": flight.name,
        "format": flight.format,
        "rounds": [columns[n] for n in sorted(columns)],
        "champion": player(view.champion),
    }


def standings(flight: Flight, view: draws.FlightView | None = None) -> list[dict]:
    """Swiss and round robin standings with their tie-breaks (from `view` when it is at hand)."""
    view = view or flight_views(flight).get(flight.pk)
    if view is None or view.engine is None:
        return []
    engine = view.engine
    swiss = getattr(engine, "swiss", None)
    engine = swiss or engine
    if not hasattr(engine, "standings"):
        return []
    lines = engine.standings()
    names = _names([line.competitor for line in lines])
    return [
        {"rank": line.rank, "player": names[line.competitor], "points": line.points, "wins": line.wins,
         "losses": line.losses, "byes": line.byes,
         "tie_breaks": {kind.value: value for kind, value in line.tie_breaks}}
        for line in lines
    ]


def placings(flight: Flight, view: draws.FlightView | None = None) -> list[dict]:
    """Final places of a finished flight: "1", "2", "3-4", ... (from `view` when it is at hand)."""
    view = view or flight_views(flight).get(flight.pk)
    if view is None or not view.finished:
        return []
    engine = view.engine
    if hasattr(engine, "placings"):
        places = [(p.competitor, p.first, p.last) for p in engine.placings()]
    elif getattr(engine, "knockout", None) is not None:
        places = [(p.competitor, p.first, p.last) for p in engine.knockout.placings()]
    else:
        places = []
        lines = engine.standings()
        for line in lines:
            tied = [other for other in lines if other.rank == line.rank]
            places.append((line.competitor, line.rank, line.rank + len(tied) - 1))
    names = _names([p[0] for p in places])
    return [{"player": names[pid], "place": str(first) if first == last else f"{first}-{last}",
             "first": first, "last": last} for pid, first, last in places]


def correction_preview(*, pairing: Pairing, winner_id: int) -> dict:
    """What a new winner of `pairing` would undo downstream (nothing is written)."""
    affected = services.correction_affected(pairing=pairing, winner_id=winner_id)
    return {
        "pairing": pairing.pk,
        "slot": pairing.slot,
        "winner_now": pairing.winner_id,
        "winner_after": winner_id,
        "needs_confirmation": any(a["started"] for a in affected),
        "affected": affected,
    }
