"""What the TD's desk reads, in a fixed number of queries whatever the size of the field: the
desk's board, what a Save changed, the open matches, the projector's board, the draw a start
would make, the claims to decide and the players' registration and check-in windows."""

from __future__ import annotations

from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone

from .. import draws
from .. import formats as fm
from ..models import Entry, EntryStatus, Flight, Pairing, PairingStatus, ReportStatus, ResultReport, Round, Tournament
from ..permissions import require_td
from .brackets import standings
from .lists import entry_ratings, report_list


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
    from ..permissions import claims_to_decide

    if not tournaments:
        return {}
    field = "player__tournament_entries__tournament"
    return dict(claims_to_decide(user).filter(**{f"{field}__in": [t.pk for t in tournaments]})
                .values_list(field).annotate(n=Count("id", distinct=True)).order_by())


def desk_players_side(tournament: Tournament, user, flights: list[Flight], entry_counts: dict, now=None) -> dict:
    """What the players do without the TD, for his desk: the claims on this event's players that this
    login may decide, and each flight's registration and check-in windows with their places. One
    query, two when a flight has a window, whatever the size of the field."""
    from ..models import WaitingEntry
    from ..permissions import check_in_window_is_open, claims_to_decide

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
