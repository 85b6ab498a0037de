"""Loading a flight's rows into `tournaments.formats` and reading the answer back.

A *unit* is what one format object covers: a main knockout with the consolation and last chance
flights its losers feed (one `KnockoutEvent`), or a single flight of another format. Nothing is
written here; the services store what these views say.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext

from analysis.models import PlayerAnalysis, current_analysis
from config.errors import ConflictError
from config.languages import kept_gettext, list_join
from games.models import Player

from . import formats as fm
from .formats._tree import NOBODY, UNKNOWN, Tree
from .formats.draw_rules import DrawRuleError, DrawRules, apply_rules
from .formats._tree import MatchStatus as TreeStatus
from .formats.elimination import ProgressiveBracket
from .models import (
    DECIDED,
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    FlightStatus,
    Pairing,
    PairingStatus,
    ScoringChoice,
)

DE_LOSERS_OFFSET = 50
DE_FINAL_OFFSET = 99
KNOCKOUT_PREFIX = "K"


ROUND_NAMES = {
    "losers": gettext_noop("Losers' round %(round)s"),
    "final": gettext_noop("Grand final"),
    "reset": gettext_noop("Grand final, reset"),
    "winners": gettext_noop("Winners' round %(round)s"),
    "knockout": gettext_noop("Knockout round %(round)s"),
    "round": gettext_noop("Round %(round)s"),
}
"""The names of a format's rounds, translated by `slot_round` (once per language: an event's page
names the round of each of its hundreds of matches)."""


def slot_round(flight: Flight, slot: str, round_no: int, names: dict | None = None) -> tuple[int, str]:
    """The stored round number and its name for a format's slot. `names` keeps the names a loop
    over a flight's slots has made (the same few rounds for its hundreds of slots)."""
    if flight.format == FlightFormat.DOUBLE_ELIMINATION:
        if slot.startswith("L"):
            return DE_LOSERS_OFFSET + round_no, _round_name("losers", round_no, names)
        if slot.startswith("GF"):
            return DE_FINAL_OFFSET + round_no, _round_name("final" if round_no == 1 else "reset", round_no, names)
        return round_no, _round_name("winners", round_no, names)
    if flight.format == FlightFormat.SWISS_KNOCKOUT and slot.startswith(KNOCKOUT_PREFIX):
        return (flight.swiss_rounds or 0) + round_no, _round_name("knockout", round_no, names)
    return round_no, _round_name("round", round_no, names)


def _round_name(kind: str, round_no: int, names: dict | None) -> str:
    if names is None:
        return kept_gettext(ROUND_NAMES[kind]) % {"round": round_no}
    if (kind, round_no) not in names:
        names[kind, round_no] = kept_gettext(ROUND_NAMES[kind]) % {"round": round_no}
    return names[kind, round_no]


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
    out, names = [], {}
    for state in tree.states():
        node = state.node
        slot = prefix + node.slot
        number, name = slot_round(flight, slot, node.round_no, names)
        status = state.status.value
        a, b = _id(state.a), _id(state.b)
        if state.status is TreeStatus.BYE:
            a, b = _id(state.winner), None
        out.append(Slot(slot, number, name, a, b, node.length, status, _id(state.winner)))
    return out


def _progressive_slots(flight: Flight, bracket: ProgressiveBracket) -> list[Slot]:
    out, names = [], {}
    for pairing in bracket.pairings():
        number, name = slot_round(flight, pairing.slot, pairing.round_no, names)
        winner = bracket.winner(pairing.slot)
        state = "bye" if pairing.is_bye else ("played" if winner is not None else "ready")
        out.append(Slot(pairing.slot, number, name, pairing.a, pairing.b, pairing.length, state, winner))
    return out


def _listed_slots(flight: Flight, pairings: Iterable[fm.Pairing], results: dict[str, fm.Result], prefix="") -> list:
    out, names = [], {}
    for p in pairings:
        slot = prefix + p.slot
        number, name = slot_round(flight, slot, p.round_no, names)
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
    by_id = {f.pk: f for f in flights}

    def root_of(f: Flight) -> Flight:
        seen = set()
        while f.feeders and f.pk not in seen:
            seen.add(f.pk)
            f = by_id.get(f.feeders[0]["source_id"], f)
        return f

    root = root_of(flight)
    family = [f for f in flights if f.format == FlightFormat.SINGLE_ELIMINATION and root_of(f).pk == root.pk]
    return sorted(family, key=lambda f: (f.position, f.pk))


def feeder_rules(flight: Flight, flights: Iterable[Flight]) -> list[dict]:
    """A fed flight's feeders with the source flight's current name, for people to read."""
    name_of = {f.pk: f.name for f in flights}
    return [{"source": name_of.get(d["source_id"], ""), **d} for d in flight.feeders or ()]


def player_label(player_id) -> str:
    """A player as a refusal of the formats names him: his name (data, as written), or "player 17"
    in the reader's language when no player has that id. Asked only when a refusal is written."""
    name = (Player.objects.filter(pk=player_id).values_list("name", flat=True).first()
            if isinstance(player_id, int) else None)
    return name if name is not None else _("player %(id)s") % {"id": player_id}


def competitors(entries: Iterable[Entry]) -> list[fm.Competitor]:
    return [fm.Competitor(e.player_id, e.seed) for e in entries if e.seed is not None]


def results_of(pairings: Iterable[Pairing], *, strip: str = "") -> dict[str, fm.Result]:
    out = {}
    for p in pairings:
        if p.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
            slot = p.slot[len(strip):] if strip and p.slot.startswith(strip) else p.slot
            out[slot] = fm.Result(slot, p.winner_id, p.status == PairingStatus.WALKOVER)
    return out


def prs_of(pairings: Iterable[Pairing], *, strip: str = "") -> dict[str, dict[int, float]]:
    """The PRs of the analysed matches among `pairings` (put there by `load`), by slot."""
    out = {}
    for p in pairings:
        prs = getattr(p, "analysed_prs", None)
        if prs and p.status == PairingStatus.FINISHED:
            out[p.slot[len(strip):] if strip and p.slot.startswith(strip) else p.slot] = prs
    return out


def uses_pr(flight: Flight) -> bool:
    """Whether a flight's standings read the analysis: skill points or the PR tie-break."""
    return flight.scoring == ScoringChoice.WIN_AND_SKILL or fm.TieBreak.PR.value in (flight.tie_breaks or ())


def tie_breaks_of(flight: Flight, default):
    if not flight.tie_breaks:
        return tuple(default)
    return tuple(fm.TieBreak(name) for name in flight.tie_breaks)


def _players_of(pairings: Iterable[Pairing]) -> frozenset:
    """The players of stored pairings: once drawn there, a player who withdraws stays (walkover)."""
    return frozenset(x for p in pairings for x in (p.player_a_id, p.player_b_id) if x is not None)


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
    field_ = competitors(entries.get(root.pk, ()))
    if root.format == FlightFormat.SINGLE_ELIMINATION:
        return _knockout_unit(flights, field_, pairings, results, withdrawn)
    flight_results = results.get(root.pk, {})
    stored = pairings.get(root.pk, ())
    if root.format == FlightFormat.DOUBLE_ELIMINATION:
        engine = fm.DoubleElimination(
            field_, first_round=[tuple(pair) for pair in root.first_round], lengths=root.lengths,
            results=flight_results.values(), name=root.name, withdrawn=withdrawn,
            drawn_losers=_players_of(p for p in stored if p.slot.startswith("L")),
        )
        return {root.pk: FlightView(root, engine, _tree_slots(root, engine))}
    if root.format == FlightFormat.ROUND_ROBIN:
        engine = fm.RoundRobin(
            field_, lengths=root.lengths, results=flight_results.values(),
            tie_breaks=tie_breaks_of(root, fm.round_robin.DEFAULT_ROUND_ROBIN_TIE_BREAKS),
            scoring=fm.Scoring(root.scoring), prs=prs_of(stored), name=root.name, label=player_label,
        )
        return {root.pk: FlightView(root, engine, _listed_slots(root, engine.pairings, flight_results))}
    return {root.pk: _swiss_view(root, field_, stored, flight_results, withdrawn)}


def _knockout_unit(flights, field_, pairings, results, withdrawn) -> dict[int, FlightView]:
    """A main knockout and the consolation and last chance flights its losers feed: one event."""
    root = flights[0]
    name_of = {f.pk: f.name for f in flights}
    specs = [
        fm.FlightSpec(
            f.name,
            fm.FlightKind(f.kind) if f.kind in ("main", "consolation", "last_chance") else fm.FlightKind.MAIN,
            tuple(f.lengths),
            tuple(fm.Feeder(name_of.get(d["source_id"], f"flight {d['source_id']}"), int(d["source_round"]),
                            int(d["entry_round"])) for d in f.feeders),
        )
        for f in flights
    ]
    specs[0] = fm.FlightSpec(specs[0].name, fm.FlightKind.MAIN, specs[0].lengths, ())
    event = fm.KnockoutEvent(
        field_,
        specs,
        results={f.name: list(results.get(f.pk, {}).values()) for f in flights},
        first_round=[tuple(pair) for pair in root.first_round],
        withdrawn=withdrawn,
        drawn={f.name: _players_of(pairings.get(f.pk, ())) for f in flights[1:]},
    )
    views = {}
    for f in flights:
        engine = event[f.name]
        slots = _tree_slots(f, engine) if isinstance(engine, Tree) else _progressive_slots(f, engine)
        views[f.pk] = FlightView(f, engine, slots)
    return views


def _swiss_view(root: Flight, field_, pairings, flight_results, withdrawn) -> FlightView:
    """A Swiss flight, or a Swiss whose leaders go on to a knockout (its slots prefixed)."""
    prs = prs_of(pairings)
    stored = [
        fm.Pairing(p.slot, p.round.number, p.player_a_id, p.player_b_id, p.round.length)
        for p in pairings
        if not p.slot.startswith(KNOCKOUT_PREFIX)
    ]
    settings = fm.SwissSettings(
        rounds=root.swiss_rounds,
        out_after_losses=root.out_after_losses,
        tie_breaks=tie_breaks_of(root, fm.swiss.DEFAULT_SWISS_TIE_BREAKS),
        lengths=tuple(root.lengths),
        scoring=fm.Scoring(root.scoring),
    )
    swiss_results = {s: r for s, r in flight_results.items() if not s.startswith(KNOCKOUT_PREFIX)}
    swiss_prs = {s: v for s, v in prs.items() if not s.startswith(KNOCKOUT_PREFIX)}
    if root.format == FlightFormat.SWISS:
        engine = fm.Swiss(field_, settings, pairings=stored, results=swiss_results.values(),
                          withdrawn=withdrawn, prs=swiss_prs, name=root.name, label=player_label)
        return FlightView(root, engine, _listed_slots(root, engine.pairings, swiss_results))
    knockout_results = [
        fm.Result(s[len(KNOCKOUT_PREFIX):], r.winner, r.walkover)
        for s, r in flight_results.items() if s.startswith(KNOCKOUT_PREFIX)
    ]
    knockout_players = {
        player for p in pairings if p.slot.startswith(KNOCKOUT_PREFIX)
        for player in (p.player_a_id, p.player_b_id) if player is not None
    }
    engine = fm.SwissKnockout(
        field_, swiss_rounds=root.swiss_rounds, qualifiers=root.qualifiers, swiss_settings=settings,
        knockout_lengths=root.lengths[root.swiss_rounds:] or root.lengths[-1:],
        swiss_pairings=stored, swiss_results=swiss_results.values(), knockout_results=knockout_results,
        withdrawn=withdrawn, knockout_players=knockout_players, swiss_prs=swiss_prs, label=player_label,
    )
    slots = _listed_slots(root, engine.swiss.pairings, swiss_results)
    if engine.knockout is not None:
        slots += _tree_slots(root, engine.knockout, KNOCKOUT_PREFIX)
    return FlightView(root, engine, slots)


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


# -- reading a unit from the database ------------------------------------------------------------


def unit_of(flight: Flight) -> list[Flight]:
    flights = list(Flight.objects.filter(tournament_id=flight.tournament_id).order_by("position", "id"))
    me = next(f for f in flights if f.pk == flight.pk)
    return unit_flights(me, flights)


READ_ONLY_PAIRING = ("flight_id", "round_id", "slot", "status", "winner_id", "player_a_id", "player_b_id",
                     "match_id", "score_a", "score_b", "table", "round__number", "round__length")
"""The columns a draw is worked out from (and a page shows): enough for rows that are only read."""


def load(flights: list[Flight], *, read_only: bool = False):
    """The entries and stored pairings a unit's draw is built from, and who has withdrawn.

    `read_only` reads only the columns the draw needs, for pages that never save these rows. When a
    flight scores skill or breaks ties by PR, each of its finished pairings whose match GNU
    Backgammon has analysed carries `analysed_prs` (player id -> PR in that match): one more query
    for all of them.
    """
    roots = [f for f in flights if f.takes_entries]
    entries: dict[int, list[Entry]] = defaultdict(list)
    withdrawn = set()
    rows = Entry.objects.filter(flight__in=roots)
    for entry in rows.only("flight_id", "player_id", "seed", "status") if read_only else rows:
        entries[entry.flight_id].append(entry)
        if entry.status == EntryStatus.WITHDRAWN:
            withdrawn.add(entry.player_id)
    pairings: dict[int, list[Pairing]] = defaultdict(list)
    rows = Pairing.objects.filter(flight__in=flights).select_related("round").order_by("id")
    for pairing in rows.only(*READ_ONLY_PAIRING) if read_only else rows:
        pairings[pairing.flight_id].append(pairing)
    analysed = [f.pk for f in flights if uses_pr(f)]
    if analysed:
        prs: dict[int, dict[int, float]] = defaultdict(dict)
        for match_id, player_id, pr in PlayerAnalysis.objects.filter(
            current_analysis("analysis__"), analysis__match__pairing__flight__in=analysed,
        ).values_list("analysis__match_id", "player_id", "pr"):
            prs[match_id][player_id] = pr
        for flight_id in analysed:
            for pairing in pairings.get(flight_id, ()):
                if pairing.match_id in prs:
                    pairing.analysed_prs = prs[pairing.match_id]
    return entries, pairings, frozenset(withdrawn)


def unit_views(flights, entries, pairings, withdrawn, results=None):
    try:
        return build_unit(flights, entries, pairings, results, withdrawn)
    except fm.BracketUserError as error:
        raise ValidationError({"non_field_errors": [str(error)]}) from None


# -- the first draw, before it is made ----------------------------------------------------------


@dataclass(frozen=True)
class DrawPlan:
    """What starting a flight will draw: the seeds and round 1, worked out from the same inputs by
    the preview and by the start, so the TD confirms exactly what he saw."""

    seeded: tuple[fm.Competitor, ...]
    """The players in seed order (seed 1 first), with the ratings shown beside them."""
    tables: tuple[tuple[int, int | None], ...]
    """Round 1: (a, b) per match, b None for a bye; a knockout's in bracket order."""
    first_round: list | None
    """The draw to store and check as the TD's own; None when the format pairs round 1 itself."""
    random_seed: int | None
    moved: bool
    """The TD moved seeds: they are not the order the seeding method gave."""
    rules: DrawRules


def already_started(flight: Flight) -> ConflictError:
    """What a TD is told who confirms (or looks at) a first draw that someone else has made."""
    return ConflictError(_("%(flight)s has already been started by another TD: its draw is made. "
                           "Nothing of yours was drawn; reload the desk to see it.") % {"flight": flight.name})


def _check_seeds(flight: Flight, seeds: list[int], entries: list[Entry], label) -> None:
    """A seed list names each checked-in player once. A player who is not entered is bad input
    (400); a list that is out of date (a check-in or withdrawal since it was shown) is a conflict
    (409)."""
    doubled = sorted({pid for pid in seeds if seeds.count(pid) > 1})
    if doubled:
        raise ValidationError({"seeds": [_("%(players)s listed twice: give each player one seed.")
                                         % {"players": list_join(label(p) for p in doubled)}]})
    status = {e.player_id: e.status for e in entries}
    strangers = [pid for pid in seeds if pid not in status]
    if strangers:
        raise ValidationError({"seeds": [_("Player %(players)s is not entered in %(flight)s.")
                                         % {"players": list_join(strangers), "flight": flight.name}]})
    present = {pid for pid, st in status.items() if st == EntryStatus.CHECKED_IN}
    gone = [pid for pid in seeds if pid not in present]
    new = [pid for pid in present if pid not in set(seeds)]
    if gone or new:
        said = []
        if new:
            said.append(_("%(players)s checked in") % {"players": list_join(label(p) for p in sorted(new, key=label))})
        if gone:
            said.append(_("%(players)s no longer checked in") % {"players": list_join(label(p) for p in gone)})
        raise ConflictError(_("The players of %(flight)s changed since this draw was shown (%(changes)s): "
                              "look at the draw again before you confirm it.")
                            % {"flight": flight.name, "changes": "; ".join(said)})


def check_startable(flight: Flight) -> None:
    """Refuse, in the TD's words, a flight that cannot be drawn now (for the preview and the start)."""
    if flight.status != FlightStatus.DRAFT:
        raise already_started(flight)
    if not flight.takes_entries:
        raise ValidationError({"non_field_errors": [
            _("%(flight)s starts by itself when the losers of its feeder flights arrive.") % {"flight": flight.name}]})


def random_seed_for(flight: Flight, random_seed: int | None) -> int | None:
    """The random number a draw uses: the one given, else the flight's, else a new one (random
    seeding only; None otherwise). The preview shows it and the TD confirms with it."""
    if fm.SeedingMethod(flight.seeding) is not fm.SeedingMethod.RANDOM:
        return random_seed
    if random_seed is not None:
        return random_seed
    return flight.random_seed if flight.random_seed is not None else secrets.randbelow(2**31)


def seeding_ratings(flight: Flight, present: list[int]) -> dict[int, float]:
    """The ratings a draw seeds by (the site's default system, unrounded), for seeding by rating
    only: the preview and the start must order the players from the same numbers."""
    if fm.SeedingMethod(flight.seeding) is not fm.SeedingMethod.RATING or not present:
        return {}
    try:
        from ratings.selectors import rating_map
        from ratings.services import default_system
    except ImportError:
        raise ValidationError({"seeding": [_("Ratings are not available on this server: seed by hand (manual)"
                                             " or draw at random.")]}) from None
    return rating_map(present, system=default_system())


def plan_draw(
    flight: Flight,
    entries: list[Entry],
    ratings: dict[int, float],
    *,
    seeds: list[int] | None = None,
    random_seed: int | None = None,
    rules: DrawRules = DrawRules(),
    label=str,
) -> DrawPlan:
    """Seed `flight`'s checked-in players and draw round 1, without writing anything.

    `seeds` is the TD's own seed order (player ids, seed 1 first), overriding the seeding method;
    `rules` keeps pairs apart or fixes pairings in round 1 (`formats.draw_rules`). A random flight
    needs `random_seed`. The same inputs always give the same plan. Raises `ValidationError` (bad
    input, with the field) or `ConflictError` (a seed list that no longer matches the players).
    """
    present = sorted((e for e in entries if e.status == EntryStatus.CHECKED_IN),
                     key=lambda e: (e.seed is None, e.seed or 0, e.pk))
    if len(present) < 2:
        raise ValidationError({"non_field_errors": [
            ngettext("%(flight)s needs at least two checked-in players to start (%(count)s checked in).",
                     "%(flight)s needs at least two checked-in players to start (%(count)s checked in).", len(present))
            % {"flight": flight.name, "count": len(present)}]})
    method = fm.SeedingMethod(flight.seeding)
    given = [fm.Competitor(e.player_id, n, ratings.get(e.player_id)) for n, e in enumerate(present, start=1)]
    try:
        by_method = fm.seed_competitors(given, method, random_seed=random_seed, label=label)
    except fm.BracketUserError as error:
        if seeds is None:
            raise ValidationError({"seeding": [str(error)]}) from None
        by_method = tuple(given)
    if seeds is None:
        seeded = by_method
    else:
        _check_seeds(flight, list(seeds), entries, label)
        seeded = tuple(fm.Competitor(pid, n, ratings.get(pid)) for n, pid in enumerate(seeds, start=1))
    moved = [c.id for c in seeded] != [c.id for c in by_method]
    seed_of = {c.id: c.seed for c in seeded}
    try:
        if flight.format in (FlightFormat.SINGLE_ELIMINATION, FlightFormat.DOUBLE_ELIMINATION):
            tables = apply_rules(fm.seeded_first_round(seeded), seed_of, rules, flight=flight.name, label=label)
            first_round = [list(t) for t in tables]
        elif flight.format == FlightFormat.ROUND_ROBIN:
            if rules:
                raise DrawRuleError("apart" if rules.apart else "fixed", gettext_noop(
                    "%(flight)s is a round robin: everyone meets everyone, in the order of the Berger tables, "
                    "so no pair can be kept apart or fixed. Move seeds to change who meets whom in round 1."),
                    flight=flight.name)
            engine = fm.RoundRobin(seeded, lengths=flight.lengths, name=flight.name, label=label)
            tables = [(p.a, p.b) for p in engine.rounds[0]]
            first_round = None
        else:
            settings = fm.SwissSettings(rounds=flight.swiss_rounds, out_after_losses=flight.out_after_losses)
            paired = fm.Swiss(seeded, settings, name=flight.name, label=label).pair_next_round()
            tables = [(p.a, p.b) for p in paired]
            first_round = None
            if rules:
                tables = apply_rules(tables, seed_of, rules, flight=flight.name, label=label)
                tables = [t for t in tables if t[1] is not None] + [t for t in tables if t[1] is None]
                first_round = [list(t) for t in tables]
    except DrawRuleError as error:
        raise ValidationError({error.field: [str(error)]}) from None
    except fm.BracketUserError as error:
        raise ValidationError({"non_field_errors": [str(error)]}) from None
    return DrawPlan(seeded, tuple(tuple(t) for t in tables), first_round, random_seed, moved, rules)
