"""Lists for the API and the pages: events, flights, entries, rounds, pairings and reports as
querysets with what their rows show joined, the published ratings of entered players, and the
disputes a TD has to rule on."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from games.models import Match
from games.people import related_names

from ..models import (
    ORGANISER_NAMES,
    Entry,
    Flight,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
    Round,
    Tournament,
)


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
    return (Pairing.objects.select_related("flight__tournament", "round").only(*MATCH_PAGES_PAIRING)
            .filter(match_id=match.pk).first())


MATCH_PAGES_PAIRING = ("id", "slot", "status", "walkover_reason", "match_id", "flight__name", "flight__tournament__name",
                       "flight__tournament__slug", "round__number")
"""What the match pages read of a pairing (templates/games/_match_head.html, match_enter.html): its
other columns are neither read nor compiled into the query, on a page a slip's QR code opens."""


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


def dispute_queue(tournament: Tournament) -> QuerySet[ResultReport]:
    """The reports a TD has to rule on, oldest first."""
    return report_list().filter(pairing__flight__tournament=tournament, status=ReportStatus.DISPUTED).order_by(
        "submitted_at", "id")
