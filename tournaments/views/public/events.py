"""The event list, an event's page, the part of it that changes while the event runs (polled)
and that part alone for another site's iframe. The flights are drawn once per version of the
event's results and kept in the cache (`flights.read_event` draws them)."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override

from games.models import Player

from ... import selectors
from ...models import ORGANISER_NAMES, Entry, EntryStatus, Flight, Tournament, TournamentStatus, WaitingEntry
from ...permissions import is_td, player_id_of
from ...services import registration
from .flights import read_event


def event_list(request):
    events = list(selectors.tournament_list())
    return render(request, "tournaments/event_list.html", {
        "nav": "events",
        "running": [e for e in events if e.status == TournamentStatus.RUNNING],
        "upcoming": [e for e in events if e.status in (TournamentStatus.OPEN, TournamentStatus.DRAFT)],
        "finished": [e for e in events if e.status == TournamentStatus.FINISHED],
    })


FLIGHTS_KEPT_SECONDS = 60 * 60
"""How long a drawn version of an event's flights stays in the cache when nobody asks for it."""


@lru_cache(maxsize=1)
def _history_models() -> tuple:
    """The history models of players, events and flights, looked up once: `Model.history` makes a
    new manager class each time it is read."""
    return Player.history.model, Tournament.history.model, Flight.history.model


def _flights_key(tournament: Tournament) -> str:
    """The cache key of an event's drawn flights: everything they are drawn from has a say in it.

    The event's results version, raised by every tournaments service that changes a flight, an
    entry or a result, in the same transaction as the change; the latest change to any player
    (names, countries and clubs are shown) and to the event or its flights through the admin, by
    their history rows. One query, each part an index lookup.
    """
    players, events, flights = _history_models()
    history = {
        "players": players.objects.order_by("-history_id"),
        "event": events.objects.filter(id=OuterRef("pk")).order_by("-history_id"),
        "flights": flights.objects.filter(tournament_id=OuterRef("pk")).order_by("-history_id"),
    }
    stamp = Tournament.objects.filter(pk=tournament.pk).values_list(
        "version", *(Subquery(rows.values("history_id")[:1]) for rows in history.values())
    ).first()
    # In each language apart: the flights are drawn with the reader's words.
    return "event-flights:{}:{}:{}".format(translation.get_language() or "", tournament.pk,
                                           ":".join(str(part) for part in stamp or ()))


def _flight_sections(tournament: Tournament) -> str:
    """The event's flights as HTML, drawn once per version of its results."""
    key = _flights_key(tournament)
    html = cache.get(key)
    if html is None:
        html = render_to_string("tournaments/_flight_sections.html", read_event(tournament))
        cache.set(key, html, FLIGHTS_KEPT_SECONDS)
    return mark_safe(html)


def _event_description(tournament: Tournament) -> str:
    dates = long_date(tournament.start_date)
    if tournament.end_date and tournament.end_date != tournament.start_date:
        dates += " – " + long_date(tournament.end_date)
    where = f" · {tournament.venue}" if tournament.venue else ""
    return _("Backgammon: %(dates)s%(where)s · %(status)s. Brackets, standings and results.") % {
        "dates": dates, "where": where, "status": tournament.get_status_display()}


def long_date(day) -> str:
    """A day as the reader's language writes it in full ("5 November 2026" in English)."""
    return date_format(day, pgettext("long date format", "j F Y"))


def _draft_flights(request, tournament: Tournament) -> dict:
    """The flights not yet drawn that take entries, with their online registration and check-in
    windows and places taken; the visitor's own registration when he is a player. One query for
    a visitor, two more for a player."""
    if tournament.status == TournamentStatus.FINISHED:
        return {"draft_flights": [], "registration": []}
    flights = [f for f in Flight.objects.filter(tournament=tournament, status="draft").annotate(
        taken=Count("entries", filter=~Q(entries__status=EntryStatus.WITHDRAWN), distinct=True),
        waiting_count=Count("waiting", distinct=True),
    ).only("id", "name", "status", "feeders", "position", "check_in_opens", "check_in_closes", "registration_closes",
           "registration_cap").order_by("position") if not f.feeders]
    mine, waiting = {}, {}
    player_id = player_id_of(request.user) if request.user.is_authenticated else None
    if player_id and flights:
        mine = dict(Entry.objects.filter(flight__in=flights, player_id=player_id).exclude(
            status=EntryStatus.WITHDRAWN).values_list("flight_id", "status"))
        for flight_id, pid in WaitingEntry.objects.filter(flight__in=flights).values_list("flight_id", "player_id"):
            waiting.setdefault(flight_id, []).append(pid)
    now = timezone.now()
    rows = [{
        "flight": f, "open": registration.registration_is_open(f, now),
        "mine": mine.get(f.pk), "place": (waiting.get(f.pk, []).index(player_id) + 1
                                          if player_id in waiting.get(f.pk, []) else None),
        "player": bool(player_id),
    } for f in flights if f.registration_closes]
    return {"draft_flights": flights if is_td(request.user, tournament) else [], "registration": rows}


def event_detail(request, slug: str):
    tournament = get_object_or_404(Tournament.objects.prefetch_related("organisers", *ORGANISER_NAMES), slug=slug)
    return render(request, "tournaments/event.html", {
        "directors": tournament.director_names(),
        "tournament": tournament, "nav": "events", "is_td": is_td(request.user, tournament),
        "live": tournament.status == TournamentStatus.RUNNING, "flight_sections": _flight_sections(tournament),
        "description": _event_description(tournament), "refresh": refresh_seconds(),
        "now": timezone.now(),
        **_draft_flights(request, tournament),
        "canonical": request.build_absolute_uri(reverse("event", args=[tournament.slug])),
    })


def refresh_seconds() -> int:
    """How often a running event's page asks for its changes (`EVENT_REFRESH_SECONDS`, 20)."""
    return settings.EVENT_REFRESH_SECONDS


STOP_POLLING = 286
"""htmx stops polling an element whose update answers this status (the event is over)."""


def event_live(request, slug: str):
    """The part of the event page that changes while it runs, for the page to poll and morph in."""
    tournament = get_object_or_404(Tournament, slug=slug)
    live = tournament.status == TournamentStatus.RUNNING
    response = render(request, "tournaments/_flights.html", {
        "tournament": tournament, "live": live, "flight_sections": _flight_sections(tournament),
    })
    if not live:
        response.status_code = STOP_POLLING
    response["Cache-Control"] = "no-cache"
    return response


@xframe_options_exempt
@csp_override({**settings.SECURE_CSP, "frame-ancestors": ["*"]})
def event_embed(request, slug: str):
    """The event's live part alone, without the site's header and footer, for another site's iframe."""
    tournament = get_object_or_404(Tournament, slug=slug)
    response = render(request, "tournaments/embed.html", {
        "tournament": tournament, "live": tournament.status == TournamentStatus.RUNNING,
        "flight_sections": _flight_sections(tournament), "refresh": refresh_seconds(),
        "canonical": request.build_absolute_uri(reverse("event", args=[tournament.slug])),
    })
    return response
