"""Reads: lists with a fixed number of queries, brackets, standings, placings, exports."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from config.exports import SafeCsvWriter
from games.models import Match
from games.people import related_names

from . import draws, services
from . import formats as fm
from .models import (
    ORGANISER_NAMES,
    Entry,
    EntryStatus,
    Flight,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
    Round,
    Tournament,
)
from .permissions import require_td


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.prefetch_related("organisers", *ORGANISER_NAMES).annotate(
        flight_count=Count("flights", distinct=True), entry_count=Count("entries", distinct=True)
    ).order_by("-start_date", "-id")


def flight_list() -> QuerySet[Flight]:
    return Flight.objects.select_related("tournament", "champion").order_by("tournament", "position", "id")


def entry_list() -> QuerySet[Entry]:
    # A flight's stored draw is large: rows that only need the flight's name leave it behind.
    return (Entry.objects.select_related("player", "flight", "tournament").defer("flight__first_round")
            .order_by("flight__position", "seed", "id"))


def round_list() -> QuerySet[Round]:
    return Round.objects.select_related("flight").defer("flight__first_round").annotate(
        pairing_count=Count("pairings"),
        open_count=Count("pairings", filter=Q(pairings__status__in=["pending", "playing"])),
    ).order_by("flight__position", "number")


def pairing_list() -> QuerySet[Pairing]:
    return Pairing.objects.select_related(
        "flight", "flight__tournament", "round", "player_a", "player_b", "winner", "match"
    ).defer("flight__first_round").order_by("flight__position", "round__number", "id")


def pairings_for_slips(tournament, round_id: int | None = None) -> QuerySet[Pairing]:
    """The matches of `tournament` whose slips the desk prints: not decided, two players (of one
    round when `round_id` is given)."""
    found = pairing_list().filter(flight__tournament=tournament,
                                  status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]).exclude(player_b__isnull=True)
    return found.filter(round_id=round_id) if round_id is not None else found


def pairings_without_a_table(tournament) -> QuerySet[Pairing]:
    """The matches of `tournament` waiting to be called: not started, two players, no table."""
    return pairing_list().filter(flight__tournament=tournament, status=PairingStatus.PENDING,
                                 player_b__isnull=False, table="")


def pairing_of_match(match) -> Pairing | None:
    """The pairing `match` decides, with its event, flight and round (one query), or None for a
    match played outside any event. For the match pages, which belong to games."""
    return (Pairing.objects.select_related("flight__tournament", "round").defer("flight__first_round")
            .filter(match_id=match.pk).first())


def match_pages_context(match) -> dict:
    """What games' match pages show of a match's event: `pairing` (`games.pages`)."""
    return {"pairing": pairing_of_match(match)}


def event_matches(tournament: Tournament) -> QuerySet[Match]:
    """The matches of an event's pairings, as a subquery for other apps' reads (the analysis's PR table)."""
    return Match.objects.filter(pairing__flight__tournament=tournament).values("pk")


def report_list() -> QuerySet[ResultReport]:
    return ResultReport.objects.select_related(
        "pairing", "pairing__flight", "winner", "submitted_by", "submitted_for", "confirmed_by", "disputed_by",
        *(path for who in ("submitted_by", "confirmed_by", "disputed_by") for path in related_names(who)),
    ).defer("pairing__flight__first_round").order_by("pairing_id", "version")


def desk_board(tournament: Tournament, *, decided_limit: int = 40) -> dict:
    """What the TD's desk shows for one event, in nine queries whatever the size of the field.

    Rows carry only the columns the desk prints (the round's number and length and the score so
    far come as annotations); each row's flight is the one object read once (no join per row),
    which keeps a 256-player event's desk cheap to build.
    """
    flights = list(Flight.objects.filter(tournament=tournament).select_related("champion").defer("first_round")
               .order_by("position", "id"))
    by_id = {f.pk: f for f in flights}
    for f in flights:
        f.tournament = tournament
    # Counts for every flight; rows (and ratings) only for the flights still taking entries: a
    # started flight's list is fetched when the TD opens it.
    entry_counts: dict[int, dict[str, int]] = {}
    for flight_id, status, n in (Entry.objects.filter(tournament=tournament).values_list("flight_id", "status")
                                 .annotate(n=Count("id")).order_by()):
        entry_counts.setdefault(flight_id, {})[status] = n
    entries = list(Entry.objects.filter(tournament=tournament, flight__status="draft").select_related("player")
                   .only("flight_id", "player_id", "status", "seed", "player__name", "player__country",
                         "player__club")
                   .order_by("flight__position", "seed", "id"))
    rounds = list(Round.objects.filter(flight__tournament=tournament).annotate(
        pairing_count=Count("pairings"),
        open_count=Count("pairings", filter=Q(pairings__status__in=["pending", "playing"])),
    ).order_by("flight__position", "number"))
    lean = ("flight_id", "round_id", "slot", "status", "score_a", "score_b", "table", "version", "match_id",
            "player_a__name", "player_b__name", "decided_at", "walkover_reason", "winner_id")
    pairings = (Pairing.objects.filter(flight__tournament=tournament).select_related("player_a", "player_b")
                .annotate(round_number=F("round__number"), round_length=F("round__length"),
                          match_score_a=F("match__score_a"), match_score_b=F("match__score_b")))
    open_pairings = list(pairings.filter(status__in=["pending", "playing"], player_b__isnull=False)
                         .only(*lean).order_by("flight__position", "round__number", "id"))
    decided = list(pairings.filter(status__in=["finished", "walkover"]).only(*lean)
                   .order_by("-decided_at", "-id")[:decided_limit])
    reports = list(report_list().filter(
        pairing__flight__tournament=tournament, status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED]
    ).select_related("pairing__player_a", "pairing__player_b"))
    disputed = [r.pairing_id for r in reports if r.status == ReportStatus.DISPUTED]
    versions: dict[int, list[ResultReport]] = {}
    for r in (ResultReport.objects.filter(pairing_id__in=disputed).select_related("submitted_by", "submitted_for")
              .order_by("pairing_id", "version") if disputed else []):
        versions.setdefault(r.pairing_id, []).append(r)
    for row in open_pairings + decided:
        row.flight = by_id[row.flight_id]
    ratings = entry_ratings([e.player_id for e in entries])
    return {"flights": flights, "entries": entries, "entry_counts": entry_counts, "rounds": rounds,
            "open_pairings": open_pairings,
            "decided": decided, "reports": reports, "versions": versions, "ratings": ratings}


DESK_ROW = ("flight_id", "round_id", "slot", "status", "score_a", "score_b", "table", "version", "match_id",
            "player_a__name", "player_b__name", "decided_at", "walkover_reason", "winner_id")
"""The columns of a row of the desk's match queue."""


def desk_save_changes(tournament: Tournament, *, saved: int, newest: int, recent: int) -> dict:
    """What a Save at the desk changed, for its answer, in three queries whatever the size of the
    event: the saved pairing and the matches made since pairing `newest` (the bracket's advance),
    the open matches of each round counted by their state at the desk, and the `recent` latest
    results.

    `open_by_round` maps a round's id to its open matches by state ("call", "table", "playing",
    "reported", "disputed"), as the desk's queue counts them; `flight_of_round` gives each of
    those rounds' flight.
    """
    rows = list(Pairing.objects.filter(flight__tournament=tournament, player_b__isnull=False)
                .filter(Q(pk=saved) | Q(pk__gt=newest)).select_related("flight", "player_a", "player_b")
                .annotate(round_number=F("round__number"), round_length=F("round__length"),
                          match_score_a=F("match__score_a"), match_score_b=F("match__score_b"))
                .only(*DESK_ROW, "flight__name", "flight__position", "flight__format", "flight__status")
                .order_by("id"))
    reports = ResultReport.objects.filter(pairing=OuterRef("pk"))
    disputed = Exists(reports.filter(status=ReportStatus.DISPUTED))
    reported = Exists(reports.filter(status=ReportStatus.PENDING)) & ~disputed
    quiet = ~Exists(reports.filter(status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED]))
    counted = (Pairing.objects.filter(flight__tournament=tournament, status__in=[PairingStatus.PENDING,
                                                                                 PairingStatus.PLAYING],
                                      player_b__isnull=False)
               .values("flight_id", "round_id").order_by()
               .annotate(n_disputed=Count("id", filter=disputed), n_reported=Count("id", filter=reported),
                         n_playing=Count("id", filter=quiet & Q(status=PairingStatus.PLAYING)),
                         n_table=Count("id", filter=quiet & Q(status=PairingStatus.PENDING) & ~Q(table="")),
                         n_call=Count("id", filter=quiet & Q(status=PairingStatus.PENDING, table=""))))
    open_by_round, flight_of_round = {}, {}
    for line in counted:
        flight_of_round[line["round_id"]] = line["flight_id"]
        open_by_round[line["round_id"]] = {state: line[f"n_{state}"]
                                           for state in ("call", "table", "playing", "reported", "disputed")}
    latest = list(Pairing.objects.filter(flight__tournament=tournament,
                                         status__in=[PairingStatus.FINISHED, PairingStatus.WALKOVER])
                  .select_related("flight", "player_a", "player_b")
                  .only(*DESK_ROW, "flight__name").order_by("-decided_at", "-id")[:recent])
    return {"rows": rows, "open_by_round": open_by_round, "flight_of_round": flight_of_round, "latest": latest}


def desk_open_rows(tournament: Tournament) -> list[Pairing]:
    """The event's open matches as rows of the desk's queue, in its order, each marked
    `has_report` when a report waits on it (one query): the tables a Save frees are offered anew."""
    waiting = ResultReport.objects.filter(pairing=OuterRef("pk"),
                                          status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED])
    return list(Pairing.objects.filter(flight__tournament=tournament, player_b__isnull=False,
                                       status__in=[PairingStatus.PENDING, PairingStatus.PLAYING])
                .select_related("flight", "player_a", "player_b")
                .annotate(round_number=F("round__number"), round_length=F("round__length"),
                          match_score_a=F("match__score_a"), match_score_b=F("match__score_b"),
                          has_report=Exists(waiting))
                .only(*DESK_ROW, "flight__name", "flight__position")
                .order_by("flight__position", "round__number", "id"))


def entry_ratings(player_ids: list[int]) -> dict[int, int]:
    """The published rating of each entered player in the site's default system, the one the
    rating list shows (for the entry list, the draw and seeding by rating)."""
    if not player_ids:
        return {}
    try:
        from ratings.selectors import rating_map
        from ratings.services import default_system
    except ImportError:
        return {}
    return {pid: round(value) for pid, value in rating_map(player_ids, system=default_system()).items()}


def projector_board(tournament: Tournament) -> dict:
    """For the screen in the playing hall: each running flight's latest round with its tables and
    results, and the standings of the Swiss and round robin flights."""
    flights = [f for f in Flight.objects.filter(tournament=tournament).defer("first_round").order_by("position", "id")
               if f.status != "draft"]
    latest = {}
    for rnd in Round.objects.filter(flight__tournament=tournament).exclude(status="pending").order_by("number"):
        latest[rnd.flight_id] = rnd
    pairings = (Pairing.objects.filter(round__in=list(latest.values())).select_related("player_a", "player_b")
                .only("flight_id", "round_id", "slot", "status", "table", "score_a", "score_b", "winner_id",
                      "player_a__name", "player_b__name").order_by("id")) if latest else []
    by_flight: dict[int, list[Pairing]] = {}
    for p in pairings:
        by_flight.setdefault(p.flight_id, []).append(p)
    rounds, tables = [], []
    for f in flights:
        rnd = latest.get(f.pk)
        if rnd is None:
            continue
        rows = sorted(by_flight.get(f.pk, []), key=lambda p: (not p.table, int(p.table) if p.table.isdigit() else 0,
                                                              p.pk))
        rounds.append({"flight": f, "round": rnd, "pairings": rows})
    for f in flights:
        if f.format in ("swiss", "round_robin", "swiss_knockout"):
            lines = standings(f)
            if lines:
                tables.append({"flight": f, "lines": lines[:32]})
    return {"rounds": rounds, "standings": tables}


def dispute_queue(tournament: Tournament) -> QuerySet[ResultReport]:
    """The reports a TD has to rule on, oldest first."""
    return report_list().filter(pairing__flight__tournament=tournament, status=ReportStatus.DISPUTED).order_by(
        "submitted_at", "id")


# -- worked out from the formats --------------------------------------------------------------


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


# -- exports -----------------------------------------------------------------------------------


def entries_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["flight", "seed", "player_id", "name", "country", "club", "status", "late"])
    for e in entry_list().filter(tournament=tournament):
        writer.writerow([e.flight.name, e.seed or "", e.player_id, e.player.name, e.player.country, e.player.club,
                         e.status, "yes" if e.late else "no"])
    return out.getvalue()


def results_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["flight", "round", "slot", "length", "player_a", "player_b", "score_a", "score_b", "winner",
                     "status", "match_id"])
    for p in pairing_list().filter(flight__tournament=tournament):
        writer.writerow([
            p.flight.name, p.round.number, p.slot, p.round.length or "", p.player_a.name,
            p.player_b.name if p.player_b_id else "(bye)",
            "" if p.score_a is None else p.score_a, "" if p.score_b is None else p.score_b,
            p.winner.name if p.winner_id else "", p.status, p.match_id or "",
        ])
    return out.getvalue()


def results_export_csv(tournament: Tournament) -> str:
    """An event's finished matches as the results file `import_results` reads (`games.results`):
    played_on, the players, the length, the final score, the event, and a `source_id` per match
    (event, flight, slot), so that importing the file again adds nothing. Walkovers and byes were
    not played and are left out."""
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["played_on", "player_a", "player_b", "length", "score_a", "score_b", "event", "source_id"])
    finished = (pairing_list().filter(flight__tournament=tournament, status=PairingStatus.FINISHED,
                                      score_a__isnull=False, score_b__isnull=False)
                .select_related("match").order_by("flight__position", "round__number", "id"))
    for p in finished:
        played = p.match.played_on if p.match_id else (p.decided_at or timezone.now())
        writer.writerow([played.isoformat(), p.player_a.name, p.player_b.name, p.round.length or 1,
                         p.score_a, p.score_b, tournament.name, f"{tournament.slug}/{p.flight.name}/{p.slot}"])
    return out.getvalue()


_ICS_CONTROL = dict.fromkeys([*range(0, 9), *range(10, 32), 127])


def _ics_text(value: str) -> str:
    """TEXT of RFC 5545 (3.3.11): backslash, semicolon and comma escaped, a line break (CRLF, LF or
    CR) written as \\n, other control characters (not allowed in TEXT) left out."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    value = value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return value.translate(_ICS_CONTROL)


def _fold(line: str) -> str:
    """RFC 5545 3.1: lines longer than 75 octets continue on the next line after a space."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return line
    parts, current = [], b""
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > (75 if not parts else 74):
            parts.append(current.decode("utf-8"))
            current = b""
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def schedule_ics(tournament: Tournament, host: str = "crawford") -> str:
    """The event and its announced rounds as an iCalendar (RFC 5545) calendar."""
    stamp = timezone.now().astimezone(dt_timezone.utc)
    stamp_text = stamp.strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Crawford//Tournament schedule//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{_ics_text(tournament.name)}"]
    lines += [
        "BEGIN:VEVENT",
        f"UID:tournament-{tournament.pk}@{host}",
        f"DTSTAMP:{stamp_text}",
        f"DTSTART;VALUE=DATE:{tournament.start_date:%Y%m%d}",
        f"DTEND;VALUE=DATE:{tournament.end_date + timedelta(days=1):%Y%m%d}",
        f"SUMMARY:{_ics_text(tournament.name)}",
    ]
    if tournament.venue:
        lines.append(f"LOCATION:{_ics_text(tournament.venue)}")
    lines.append("END:VEVENT")
    for rnd in round_list().filter(flight__tournament=tournament, starts_at__isnull=False):
        start: datetime = rnd.starts_at.astimezone(stamp.tzinfo)
        lines += [
            "BEGIN:VEVENT",
            f"UID:round-{rnd.pk}@{host}",
            f"DTSTAMP:{stamp_text}",
            f"DTSTART:{start:%Y%m%dT%H%M%SZ}",
            f"DTEND:{start + timedelta(hours=2):%Y%m%dT%H%M%SZ}",
            "SUMMARY:" + _ics_text(gettext("%(event)s: %(flight)s round %(round)s") % {
                "event": tournament.name, "flight": rnd.flight.name, "round": rnd.number}),
        ]
        if rnd.length:
            # Translators: the matches of a round; the number is their length in points.
            lines.append("DESCRIPTION:" + _ics_text(ngettext("%(length)s-point matches", "%(length)s-point matches",
                                                             rnd.length) % {"length": rnd.length}))
        if tournament.venue:
            lines.append(f"LOCATION:{_ics_text(tournament.venue)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(line) for line in lines) + "\r\n"


def draw_preview(*, flight: Flight, by, seeds: list[int] | None = None, random_seed: int | None = None,
                 apart=(), fixed=()) -> dict:
    """What starting `flight` with these inputs will draw, without drawing it: the seed list with
    ratings, round 1 (byes included) and the flights fed by its losers. `services.flight_start` with
    the same inputs (and the `random_seed` and `version` given back here) makes exactly this draw.

    A random flight without a `random_seed` gets a new one here (or keeps the one it has): the TD
    confirms with the number he saw. Only a TD of the event may look (the seeds are not public yet).
    """
    require_td(by, flight.tournament)
    draws.check_startable(flight)
    entries = list(Entry.objects.filter(flight=flight).select_related("player")
                   .only("flight_id", "player_id", "seed", "status", "player__name", "player__country",
                         "player__club").order_by("id"))
    random_seed = draws.random_seed_for(flight, random_seed)
    present = [e.player_id for e in entries if e.status == EntryStatus.CHECKED_IN]
    seeding = draws.seeding_ratings(flight, present)  # what the start seeds by, unrounded
    ratings = {pid: round(value) for pid, value in seeding.items()} if seeding else entry_ratings(present)
    players = {e.player_id: e.player for e in entries}
    plan = draws.plan_draw(flight, entries, seeding, seeds=seeds, random_seed=random_seed,
                           rules=fm.DrawRules.of(apart=apart or (), fixed=fixed or ()),
                           label=lambda pid: players[pid].name if pid in players else draws.player_label(pid))
    seed_of = {c.id: c.seed for c in plan.seeded}

    def player(pid):
        if pid is None:
            return None
        p = players[pid]
        return {"id": pid, "name": p.name, "country": p.country, "club": p.club, "seed": seed_of[pid],
                "rating": ratings.get(pid)}

    siblings = list(Flight.objects.filter(tournament_id=flight.tournament_id).only("id", "name", "feeders"))
    feeds = [
        {"flight": f.name, "source_round": int(d["source_round"]), "entry_round": int(d["entry_round"])}
        for f in siblings for d in f.feeders or () if d.get("source_id") == flight.pk
    ]
    length = flight.lengths[0] if flight.lengths else None
    return {
        "flight": flight.pk,
        "name": flight.name,
        "format": flight.format,
        "version": flight.version,
        "seeding": flight.seeding,
        "random_seed": plan.random_seed,
        "moved": plan.moved,
        "seeds": [player(c.id) for c in plan.seeded],
        "round": [{"slot": f"R1-{n}", "length": length, "player_a": player(a), "player_b": player(b), "bye": b is None}
                  for n, (a, b) in enumerate(plan.tables, start=1)],
        "apart": [list(pair) for pair in plan.rules.apart],
        "fixed": [list(pair) for pair in plan.rules.fixed],
        "feeds": feeds,
        "absent": [{"id": e.player_id, "name": e.player.name} for e in entries if e.status == EntryStatus.REGISTERED],
    }


def claims_by_event(user, tournaments) -> dict[int, int]:
    """How many open claims on each event's players this login may decide, by event id: one query
    for the TD's whole list of events."""
    from .permissions import claims_to_decide

    if not tournaments:
        return {}
    field = "player__tournament_entries__tournament"
    return dict(claims_to_decide(user).filter(**{f"{field}__in": [t.pk for t in tournaments]})
                .values_list(field).annotate(n=Count("id", distinct=True)).order_by())


def desk_players_side(tournament: Tournament, user, flights: list[Flight], entry_counts: dict, now=None) -> dict:
    """What the players do without the TD, for his desk: the claims on this event's players that this
    login may decide, and each flight's registration and check-in windows with their places. One
    query, two when a flight has a window, whatever the size of the field."""
    from .models import WaitingEntry
    from .permissions import check_in_window_is_open, claims_to_decide

    now = now or timezone.now()
    claims = list(claims_to_decide(user).filter(player__tournament_entries__tournament=tournament).distinct()
                  .order_by("created_at", "id"))
    taking = [f for f in flights if f.status == "draft" and f.takes_entries
              and (f.registration_closes or f.check_in_closes)]
    waiting = dict(WaitingEntry.objects.filter(flight__in=taking).values_list("flight_id")
                   .annotate(n=Count("id")).order_by()) if taking else {}
    windows = []
    for f in flights:
        if f.status != "draft" or not f.takes_entries:
            continue
        registration = bool(f.registration_closes and now < f.registration_closes)
        check_in = check_in_window_is_open(f, now)
        if registration or check_in or f.registration_closes or f.check_in_closes:
            tally = entry_counts.get(f.pk, {})
            windows.append({"flight": f, "registration": registration, "check_in": check_in,
                            "taken": sum(n for status, n in tally.items() if status != "withdrawn"),
                            "checked_in": tally.get("checked_in", 0), "waiting": waiting.get(f.pk, 0)})
    return {
        "claims": claims,
        "windows": windows,
        "counts": {"claims": len(claims), "registration": sum(w["registration"] for w in windows),
                   "check_in": sum(w["check_in"] for w in windows)},
    }
