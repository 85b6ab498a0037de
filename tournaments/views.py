"""Public pages that draw on every app (home, player, events) and the TD's desk.

Views read through selectors (or the fixed-count queries in the `_read_*` helpers below) and
write only through `tournaments.services` and `games.services`.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.middleware.csrf import get_token
from django.utils.html import escape
from django.utils.safestring import mark_safe

from config.errors import ConflictError
from games import selectors as game_selectors
from games import services as game_services
from games.engine.errors import ScoringError
from games.models import Match, MatchStatus, Player
from ratings import selectors as rating_selectors
from ratings.models import Rating, SystemChoice
from ratings.views import runs_context

from . import draws, selectors, services
from .forms import DisputeForm, EventForm, FlightForm, FlightSettingsForm, NewPlayerForm, PlayerSearchForm, ScoreForm
from .models import (
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
    Tournament,
    TournamentStatus,
)
from .permissions import is_td, player_id_of

SYSTEMS = dict(SystemChoice.choices)


# -- home ----------------------------------------------------------------------------------------


def home(request):
    today = timezone.localdate()
    events = list(
        Tournament.objects.filter(
            Q(status=TournamentStatus.RUNNING) | Q(status=TournamentStatus.OPEN, end_date__gte=today)
        ).order_by("start_date", "id")[:12]
    )
    finished = list(Tournament.objects.filter(status=TournamentStatus.FINISHED).order_by("-end_date", "-id")[:5])
    top = list(rating_selectors.rating_list(system=SystemChoice.CRAWFORD, provisional=False)[:10])
    if not top:  # a young list: everybody is still provisional
        top = list(rating_selectors.rating_list(system=SystemChoice.CRAWFORD)[:10])
    # The newest results by the played_on index alone, then their players and events by id.
    latest = list(
        Match.objects.filter(status__in=[MatchStatus.FINISHED, MatchStatus.FORFEITED])
        .order_by("-played_on").values_list("pk", flat=True)[:15]
    )
    recent = sorted(
        Match.objects.filter(pk__in=latest).select_related("player_a", "player_b", "winner",
                                                           "pairing__flight__tournament"),
        key=lambda m: (m.played_on, m.pk), reverse=True,
    )
    return render(request, "home.html", {
        "running": [e for e in events if e.status == TournamentStatus.RUNNING],
        "upcoming": [e for e in events if e.status != TournamentStatus.RUNNING],
        "finished": finished,
        "top": top,
        "recent": recent,
    })


# -- player --------------------------------------------------------------------------------------


HEAD_TO_HEAD = 60
"""Opponents listed head to head on a player's page, the most played first."""


def rating_chart(changes: list, *, width: int = 640, height: int = 220, pad: int = 36) -> dict | None:
    """Coordinates of a rating-history line (and its ± band) for an inline SVG."""
    if not changes:
        return None
    values = [changes[0].rating_before] + [c.rating_after for c in changes]
    devs = [changes[0].deviation_before] + [c.deviation_after for c in changes]
    has_band = all(d is not None for d in devs)
    lows = [v - d for v, d in zip(values, devs, strict=True)] if has_band else values
    highs = [v + d for v, d in zip(values, devs, strict=True)] if has_band else values
    low, high = min(lows), max(highs)
    if high - low < 20:
        low, high = low - 10, high + 10
    span = high - low
    n = len(values) - 1 or 1

    def xy(i, v):
        return round(pad + (width - pad - 8) * i / n, 1), round(8 + (height - 8 - pad) * (high - v) / span, 1)

    line = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in enumerate(values)))
    band = ""
    if has_band:
        top = [xy(i, v) for i, v in enumerate(highs)]
        bottom = [xy(i, v) for i, v in enumerate(lows)][::-1]
        band = " ".join(f"{x},{y}" for x, y in top + bottom)
    ticks = []
    for k in range(5):
        value = low + span * k / 4
        ticks.append({"y": xy(0, value)[1], "label": f"{value:.0f}"})
    last = xy(len(values) - 1, values[-1])
    return {
        "width": width, "height": height, "pad": pad, "line": line, "band": band, "ticks": ticks,
        "first": values[0], "last": values[-1], "high": max(values), "low": min(values), "count": len(changes),
        "last_x": last[0], "last_y": last[1], "axis_y": height - pad, "right": width - 8,
        "first_date": changes[0].played_on, "last_date": changes[-1].played_on,
    }


def _read_player_page(player: Player, system: str) -> dict:
    """Everything on a player's page in six queries, however long his record."""
    ratings = {
        r.system: r
        for r in Rating.objects.filter(
            Q(system="fibs", run_id=rating_selectors.published_run("fibs"))
            | Q(system="crawford", run_id=rating_selectors.published_run("crawford")),
            player=player,
        )
    }
    changes = list(rating_selectors.rating_history(player_id=player.pk, system=system).only(
        "sequence", "played_on", "opponent_id", "opponent__name", "length", "won", "expected", "rating_before",
        "rating_after", "deviation_before", "deviation_after"))
    pairings = list(
        Pairing.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("flight__tournament", "round", "player_a", "player_b", "match", "winner")
        .order_by("-flight__tournament__start_date", "flight__tournament_id", "flight__position", "round__number",
                  "id")
    )
    loose = list(
        game_selectors.matches_of_player(player).filter(pairing__isnull=True).select_related("winner")[:30]
    )
    record = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player), status__in=[MatchStatus.FINISHED,
                                                                                   MatchStatus.FORFEITED])
        .values_list("player_a_id", "player_a__name", "player_b_id", "player_b__name", "winner_id", "length")
    )
    head = {}
    for a_id, a_name, b_id, b_name, winner_id, length in record:
        other, name = (b_id, b_name) if a_id == player.pk else (a_id, a_name)
        row = head.setdefault(other, {"id": other, "name": name, "won": 0, "lost": 0, "points": 0})
        if winner_id == player.pk:
            row["won"] += 1
        else:
            row["lost"] += 1
        row["points"] += length
    events = OrderedDict()
    for p in pairings:
        tournament = p.flight.tournament
        entry = events.setdefault(tournament.pk, {"tournament": tournament, "rows": [], "won": 0, "lost": 0})
        mine_a = p.player_a_id == player.pk
        opponent = p.player_b if mine_a else p.player_a
        won = p.winner_id == player.pk if p.winner_id else None
        if won is True and p.player_b_id:
            entry["won"] += 1
        elif won is False:
            entry["lost"] += 1
        score = ""
        if p.score_a is not None and p.score_b is not None:
            score = f"{p.score_a}–{p.score_b}" if mine_a else f"{p.score_b}–{p.score_a}"
        entry["rows"].append({"pairing": p, "opponent": opponent, "won": won, "score": score})
    upcoming = [{"pairing": p, "opponent": p.player_b if p.player_a_id == player.pk else p.player_a}
                for p in pairings if p.player_b_id and p.status in (PairingStatus.PENDING, PairingStatus.PLAYING)
                and p.flight.tournament.status == TournamentStatus.RUNNING]
    return {
        "upcoming": upcoming,
        "ratings": [(key, label, ratings.get(key)) for key, label in SYSTEMS.items()],
        "changes": changes,
        "events": list(events.values()),
        "loose": loose,
        "head_to_head": sorted(head.values(), key=lambda r: (-(r["won"] + r["lost"]), r["name"]))[:HEAD_TO_HEAD],
        "opponents": len(head),
    }


def player_detail(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    system = request.GET.get("system") if request.GET.get("system") in SYSTEMS else SystemChoice.CRAWFORD.value
    data = _read_player_page(player, system)
    return render(request, "tournaments/player.html", dict(
        data,
        player=player,
        system=system,
        system_label=SYSTEMS[system],
        chart=rating_chart(data["changes"]),
        recent_changes=data["changes"][-15:][::-1],
        other_systems=[(k, v) for k, v in SYSTEMS.items()],
    ))


# -- events (public) -----------------------------------------------------------------------------

KNOCKOUT_FORMATS = {FlightFormat.SINGLE_ELIMINATION, FlightFormat.DOUBLE_ELIMINATION}
TABLE_FORMATS = {FlightFormat.SWISS, FlightFormat.ROUND_ROBIN, FlightFormat.SWISS_KNOCKOUT}
TIE_BREAK_WORDS = {
    "buchholz": "Buchholz (opponents' points)",
    "median_buchholz": "Median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "head_to_head": "Head to head",
    "wins": "Wins",
    "point_difference": "Point difference",
    "points_for": "Points won",
}


def event_list(request):
    events = list(selectors.tournament_list())
    return render(request, "tournaments/event_list.html", {
        "nav": "events",
        "running": [e for e in events if e.status == TournamentStatus.RUNNING],
        "upcoming": [e for e in events if e.status in (TournamentStatus.OPEN, TournamentStatus.DRAFT)],
        "finished": [e for e in events if e.status == TournamentStatus.FINISHED],
    })


def _feeder_words(flight: Flight) -> str:
    return "; ".join(
        f"losers of {d.get('source')} round {d.get('source_round')} enter in round {d.get('entry_round')}"
        for d in flight.feeders or []
    )


def _unit_brackets(flights: list[Flight], views: dict, pairings: dict, seeds: dict[int, int]) -> dict[int, dict]:
    """Every flight's bracket from the event's views (`selectors.event_views`).

    The same shape as `selectors.bracket`, read for the whole event in one more query (names).
    """
    stored = {(p.flight_id, p.slot): p for rows in pairings.values() for p in rows}
    ids = {x for v in views.values() for s in v.slots for x in (s.a, s.b, s.winner)} - {None}
    names = {p.pk: p for p in Player.objects.filter(pk__in=ids).only("id", "name", "country")}

    def player(pid, seeded=seeds):
        if pid is None or pid not in names:
            return None
        return {"id": pid, "name": names[pid].name, "country": names[pid].country, "seed": seeded.get(pid)}

    player_url, match_url = _address_of("player"), _address_of("match")
    out = {}
    for flight in flights:
        view = views.get(flight.pk)
        knockout_seeds = selectors.knockout_seeds(view)
        columns: dict[int, dict] = {}
        for s in view.slots if view else []:
            if s.state == "void":
                continue
            column = columns.setdefault(s.round_number, {"round": s.round_number, "name": s.round_name,
                                                          "length": s.length, "slots": []})
            row = stored.get((flight.pk, s.slot))
            seeded = knockout_seeds if knockout_seeds and s.slot.startswith(draws.KNOCKOUT_PREFIX) else seeds
            column["slots"].append({
                "slot": s.slot, "id": f"slot-{flight.pk}-{s.slot}", "match": row.match_id if row else None,
                "player_a": player(s.a, seeded), "player_b": player(s.b, seeded), "bye": s.state == "bye",
                "state": {"waiting": "pending", "ready": "ready", "played": "played", "bye": "bye"}[s.state],
                "status": row.status if row else "waiting",
                "score": [row.score_a, row.score_b] if row and row.score_a is not None else None,
                "winner": s.winner,
            })
        rounds = [columns[n] for n in sorted(columns)]
        for column in rounds:
            column["bracket_html"] = mark_safe("".join(_slot_html(s, column, match_url) for s in column["slots"]))
            column["list_html"] = mark_safe("".join(_list_html(s, player_url, match_url) for s in column["slots"]))
        out[flight.pk] = {"rounds": rounds, "champion": player(view.champion) if view else None}
    return out


def _address_of(name: str):
    """`pk -> address` for a URL that takes one number, reversed once instead of for every cell."""
    marker = "2147483647"
    head, tail = reverse(name, args=[int(marker)]).split(marker)
    head, tail = escape(head), escape(tail)
    return lambda pk: f"{head}{pk}{tail}"


def _player_link(p: dict | None, player_url, fallback: str = "to be decided") -> str:
    if p is None:
        return fallback
    seed = f' <span class="meta">({p["seed"]})</span>' if p["seed"] else ""
    return f'<a href="{player_url(p["id"])}">{escape(p["name"])}</a>{seed}'


def _slot_line(s: dict, p: dict | None, score, bye: bool = False) -> str:
    won = " won" if p and s["winner"] == p["id"] else ""
    if bye:
        who = "<em>bye</em>"
    elif p:
        who = f"{p['seed']}. {escape(p['name'])}" if p["seed"] else escape(p["name"])
    else:
        who = "—"
    return f'<span class="who{won}"><span>{who}</span><span>{"" if score is None else score}</span></span>'


def _slot_html(s: dict, column: dict, match_url) -> str:
    """One box of the drawn bracket: a link (to the score sheet, or to the same match in the list)."""
    a, b = s["player_a"], s["player_b"]
    href = match_url(s["match"]) if s["match"] else f"#{escape(s['id'])}"
    a_name = a["name"] if a else "to be decided"
    b_name = "bye" if s["bye"] else (b["name"] if b else "to be decided")
    said = f"{column['name']}, {a_name}: bye" if s["bye"] else f"{column['name']}, {a_name} v {b_name}"
    if s["score"]:
        said += f", {s['score'][0]}–{s['score'][1]}"
    elif s["state"] == "pending":
        said += ", pending"
    note = " · bye" if s["bye"] else " · playing" if s["status"] == "playing" else (
        " · pending" if s["state"] == "pending" else "")
    score = s["score"] or [None, None]
    return (f'<a class="slot {s["state"]}" href="{href}" aria-label="{escape(said)}"><span class="label">'
            f'{escape(s["slot"])}{note}</span>{_slot_line(s, a, score[0])}{_slot_line(s, b, score[1], s["bye"])}</a>')


def _list_html(s: dict, player_url, match_url) -> str:
    """The same match in the round-by-round list."""
    a, b = s["player_a"], s["player_b"]
    if s["bye"]:
        body = f"{escape(a['name']) if a else ''} has a bye."
    elif not a or not b:
        body = (f'{escape(s["slot"])}: {escape(a["name"]) if a else "to be decided"} v '
                f'{escape(b["name"]) if b else "to be decided"} <span class="badge pending">pending</span>')
    else:
        verb = ("beat" if s["winner"] == a["id"] else "lost to") if s["winner"] else "v"
        if s["score"]:
            score = f"{s['score'][0]}–{s['score'][1]}"
            result = f'<a href="{match_url(s["match"])}">{score}</a>' if s["match"] else score
        elif s["status"] == "playing":
            sheet = f' <a href="{match_url(s["match"])}">score sheet</a>' if s["match"] else ""
            result = f'<span class="badge live">playing</span>{sheet}'
        elif s["status"] == "walkover":
            result = "(walkover)"
        else:
            result = '<span class="badge pending">to play</span>'
        body = f"{_player_link(a, player_url)} {verb} {_player_link(b, player_url)} {result}"
    return f'<li id="{escape(s["id"])}">{body}</li>'


def _entries_html(flight: Flight, entries: list[Entry], player_url) -> str:
    """A flight's entry list: seed, name (a link), country and club, withdrawn or checked in."""
    items = []
    for e in entries:
        seed = f'<span class="meta">{e.seed}.</span> ' if e.seed else ""
        meta = escape(e.player.country)
        if e.player.club:
            meta += f" · {escape(e.player.club)}"
        if e.status == EntryStatus.WITHDRAWN:
            meta += " · withdrawn"
        elif e.status == EntryStatus.CHECKED_IN and flight.status == "draft":
            meta += " · checked in"
        items.append(f'<li>{seed}<a href="{player_url(e.player_id)}">{escape(e.player.name)}</a> '
                     f'<span class="meta">{meta}</span></li>')
    return mark_safe("".join(items))


def _read_event(tournament: Tournament) -> dict:
    """The flights of an event with their draws, standings and entries.

    A fixed number of queries per flight, whatever the number of players.
    """
    flights = list(selectors.flight_list().filter(tournament=tournament))
    entries = defaultdict(list)
    for entry in Entry.objects.filter(tournament=tournament).select_related("player").only(
            "flight_id", "player_id", "seed", "status", "player__name", "player__country", "player__club",
    ).order_by("flight__position", "seed", "id"):
        entries[entry.flight_id].append(entry)
    views, pairings = selectors.event_views(flights)
    seeds = {e.player_id: e.seed for rows in entries.values() for e in rows if e.seed is not None}
    brackets = _unit_brackets(flights, views, pairings, seeds)
    player_url = _address_of("player")
    out = []
    for flight in flights:
        bracket = brackets[flight.pk]
        view = views.get(flight.pk)
        standings = (selectors.standings(flight, view) if view and flight.format in TABLE_FORMATS
                     and flight.status != "draft" else [])
        tie_breaks = []
        if standings:
            tie_breaks = list(standings[0]["tie_breaks"].keys())
            for line in standings:
                line["tie_values"] = [line["tie_breaks"][k] for k in tie_breaks]
        out.append({
            "flight": flight,
            "feeders": _feeder_words(flight),
            "entries": entries.get(flight.pk, []),
            "entries_html": _entries_html(flight, entries.get(flight.pk, []), player_url),
            "checked_in": sum(1 for e in entries.get(flight.pk, []) if e.status == EntryStatus.CHECKED_IN),
            "bracket": bracket,
            "graphic": flight.format in KNOCKOUT_FORMATS or flight.format == FlightFormat.SWISS_KNOCKOUT,
            "standings": standings,
            "tie_breaks": [TIE_BREAK_WORDS.get(k, k.replace("_", " ").capitalize()) for k in tie_breaks],
            "placings": selectors.placings(flight, view) if view and flight.status == "finished" else [],
        })
    return {"flights": out, "live": tournament.status == TournamentStatus.RUNNING}


FLIGHTS_KEPT_SECONDS = 60 * 60
"""How long a drawn version of an event's flights stays in the cache when nobody asks for it."""


def _flights_key(tournament: Tournament) -> str:
    """The cache key of an event's drawn flights: everything they are drawn from has a say in it.

    The event's results version, raised by every tournaments service that changes a flight, an
    entry or a result, in the same transaction as the change; the latest change to any player
    (names, countries and clubs are shown) and to the event or its flights through the admin, by
    their history rows. One query, each part an index lookup.
    """
    history = {
        "players": Player.history.model.objects.order_by("-history_id"),
        "event": Tournament.history.model.objects.filter(id=OuterRef("pk")).order_by("-history_id"),
        "flights": Flight.history.model.objects.filter(tournament_id=OuterRef("pk")).order_by("-history_id"),
    }
    stamp = Tournament.objects.filter(pk=tournament.pk).values_list(
        "version", *(Subquery(rows.values("history_id")[:1]) for rows in history.values())
    ).first()
    return "event-flights:{}:{}".format(tournament.pk, ":".join(str(part) for part in stamp or ()))


def _flight_sections(tournament: Tournament) -> str:
    """The event's flights as HTML, drawn once per version of its results."""
    key = _flights_key(tournament)
    html = cache.get(key)
    if html is None:
        html = render_to_string("tournaments/_flight_sections.html", _read_event(tournament))
        cache.set(key, html, FLIGHTS_KEPT_SECONDS)
    return mark_safe(html)


def event_detail(request, slug: str):
    tournament = get_object_or_404(Tournament.objects.prefetch_related("organisers"), slug=slug)
    return render(request, "tournaments/event.html", {
        "tournament": tournament, "nav": "events", "is_td": is_td(request.user, tournament),
        "live": tournament.status == TournamentStatus.RUNNING, "flight_sections": _flight_sections(tournament),
    })


def event_live(request, slug: str):
    """The part of the event page that changes while it runs, for the page to poll."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/_flights.html", {
        "tournament": tournament, "live": tournament.status == TournamentStatus.RUNNING,
        "flight_sections": _flight_sections(tournament),
    })


# -- the TD's desk -------------------------------------------------------------------------------


def _error_text(error: Exception) -> str:
    if isinstance(error, ScoringError):
        return error.message
    if isinstance(error, ValidationError):
        if hasattr(error, "message_dict"):
            return " ".join(text for texts in error.message_dict.values() for text in texts)
        return " ".join(error.messages)
    return str(error)


def _form_errors(form, error: ValidationError | ScoringError) -> None:
    """Put a service's refusal next to the field it names, or above the form."""
    if isinstance(error, ScoringError):
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return
    for name, texts in getattr(error, "message_dict", {"non_field_errors": error.messages}).items():
        for text in texts:
            form.add_error(name if name in form.fields else None, text)


REFUSALS = (ValidationError, ScoringError, ConflictError, PermissionDenied)


@login_required(login_url="login")
def desk(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(by=request.user, **data)
        except (ValidationError, ScoringError) as error:
            _form_errors(form, error)
        except PermissionDenied as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{tournament.name} created. Add its flights next.")
            return redirect("desk-event", slug=tournament.slug)
    events = selectors.tournament_list()
    if not request.user.is_staff:
        events = events.filter(organisers=request.user)
    return render(request, "tournaments/desk.html", {
        "nav": "desk", "events": list(events), "form": form,
        "may_create": request.user.is_staff or request.user.has_perm("tournaments.add_tournament"),
    }, status=400 if form.errors else 200)


def _td_event(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_td(request.user, tournament):
        raise PermissionDenied(f"Only a TD of {tournament.name} may use its desk.")
    return tournament


def _report_typed_score(request, pairing: Pairing) -> ResultReport | None:
    """Report the final score typed in a pairing's form (fields prefixed `p<id>-`); None, with a
    message, when a field is missing. The services' refusals are raised to the caller."""
    form = ScoreForm(request.POST, prefix=f"p{pairing.pk}")
    if not form.is_valid():
        messages.error(request, f"{pairing.slot}: give both players' points.")
        return None
    data = form.cleaned_data
    return services.result_report(pairing=pairing, by=request.user, score_a=data["score_a"],
                                  score_b=data["score_b"], note=data["note"], expected_version=data["version"])


def _desk_action(request, tournament: Tournament, forms_: dict):
    """Carry out one POSTed desk action through the services. Returns a response or None."""
    action = request.POST.get("action", "")
    user = request.user
    back = redirect(f"{reverse('desk-event', args=[tournament.slug])}#{request.POST.get('anchor', '')}")

    def flight():
        return get_object_or_404(Flight, pk=request.POST.get("flight"), tournament=tournament)

    def entry():
        return get_object_or_404(Entry.objects.select_related("player", "flight__tournament"),
                                 pk=request.POST.get("entry"), tournament=tournament)

    def pairing():
        return get_object_or_404(Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"),
                                 pk=request.POST.get("pairing"), flight__tournament=tournament)

    try:
        if action == "flight":
            form = forms_["flight"] = FlightForm(request.POST, prefix="flight")
            if not form.is_valid():
                return None
            data = form.cleaned_data
            try:
                made = services.flight_create(tournament=tournament, by=user, **data)
            except (ValidationError, ScoringError) as error:
                _form_errors(form, error)
                return None
            messages.success(request, f"Flight {made.name} added.")
        elif action == "enter":
            player = get_object_or_404(Player, pk=request.POST.get("player"))
            made = services.entry_add(flight=flight(), player=player, by=user)
            messages.success(request, f"{player.name} entered in {made.flight.name}.")
        elif action == "new_player":
            form = forms_["new_player"] = NewPlayerForm(request.POST, prefix="new")
            if not form.is_valid():
                return None
            target = flight()
            try:
                player = game_services.player_create(by=user, **form.cleaned_data)
            except ValidationError as error:
                _form_errors(form, error)
                return None
            services.entry_add(flight=target, player=player, by=user)
            messages.success(request, f"{player.name} added as a new player and entered in {target.name}.")
        elif action == "check_in":
            made = services.entry_check_in(entry=entry(), by=user)
            messages.success(request, f"{made.player.name} checked in.")
        elif action == "check_in_all":
            target = flight()
            waiting = list(Entry.objects.filter(flight=target, status=EntryStatus.REGISTERED).select_related(
                "player", "flight__tournament"))
            for item in waiting:
                services.entry_check_in(entry=item, by=user)
            messages.success(request, f"{len(waiting)} player{'s' if len(waiting) != 1 else ''} checked in.")
        elif action == "withdraw":
            made = services.entry_withdraw(entry=entry(), by=user, reason="withdrawn at the desk")
            messages.success(request, f"{made.player.name} withdrawn.")
        elif action == "settings":
            target = flight()
            form = FlightSettingsForm(request.POST, prefix=f"f{target.pk}")
            if not form.is_valid():
                messages.error(request, f"{target.name}: " + " ".join(
                    f"{form.fields[name].label}: {' '.join(texts)}" if name in form.fields else " ".join(texts)
                    for name, texts in form.errors.items()))
                return back
            data = {name: value for name, value in form.cleaned_data.items() if form.add_prefix(name) in request.POST}
            services.flight_update(flight=target, by=user, expected_version=data.pop("version", None), **data)
            messages.success(request, f"{target.name}: settings saved.")
        elif action == "start_flight":
            target = flight()
            services.flight_start(flight=target, by=user, expected_version=int(request.POST.get("version", -1)))
            messages.success(request, f"{target.name} started: the first round is drawn.")
        elif action == "start_round":
            target = flight()
            made = services.round_start(flight=target, by=user, expected_version=int(request.POST.get("version", -1)))
            messages.success(request, f"{target.name} round {made.number} started.")
        elif action == "sheet":
            target = pairing()
            if target.match_id is None:
                target = services.pairing_start(pairing=target, by=user)
            return redirect("match-enter", pk=target.match_id)
        elif action == "score":
            target = pairing()
            made = _report_typed_score(request, target)
            if made is not None:
                messages.success(request, f"{target.slot}: {target.player_a.name} {made.score_a}–{made.score_b} "
                                          f"{target.player_b.name} recorded.")
        elif action == "confirm":
            report = get_object_or_404(ResultReport.objects.select_related("pairing__flight__tournament"),
                                       pk=request.POST.get("report"), pairing__flight__tournament=tournament)
            services.result_confirm(report=report, by=user)
            messages.success(request, f"{report.pairing.slot}: result confirmed.")
        else:
            messages.error(request, "Unknown action.")
    except REFUSALS as error:
        messages.error(request, _error_text(error))
    return back


def _hidden(name: str, value) -> str:
    return f'<input type="hidden" name="{name}" value="{escape(value)}">'


def _desk_match_rows(pairings: list[Pairing], token: str) -> str:
    """The "matches to play" rows of the desk: two forms each, built here rather than in the
    template because a big event has a hundred of them and the desk must stay quick."""
    csrf = _hidden("csrfmiddlewaretoken", token)
    rows = []
    for p in pairings:
        a, b, slot = escape(p.player_a.name), escape(p.player_b.name), escape(p.slot)
        meta = f"{p.round.length} pt"
        if p.table:
            meta += f" · table {escape(p.table)}"
        if p.status == PairingStatus.PLAYING:
            meta += ' · <span class="badge live">playing</span>'
        so_far = (f'<br><span class="meta">{p.match.score_a}–{p.match.score_b} so far</span>'
                  if p.match_id else "")
        forms_ = (f'<form method="post" class="inline-form">{csrf}{_hidden("action", "sheet")}'
                  f'{_hidden("pairing", p.pk)}<button type="submit">Score sheet</button></form>')
        if not p.match_id or not (p.match.score_a or p.match.score_b):
            field = f"p{p.pk}"
            forms_ += (
                f'<form method="post" class="row" aria-label="Final score of {slot}">{csrf}'
                f'{_hidden("action", "score")}{_hidden("pairing", p.pk)}{_hidden("anchor", f"pairing-{p.pk}")}'
                f'{_hidden(f"{field}-version", p.version)}'
                f'<div class="field"><label for="{field}-a">{a}</label><input type="number" id="{field}-a" '
                f'name="{field}-score_a" min="0" max="999" required></div>'
                f'<div class="field"><label for="{field}-b">{b}</label><input type="number" id="{field}-b" '
                f'name="{field}-score_b" min="0" max="999" required></div>'
                f'<div class="field"><button type="submit" class="secondary">Save score</button></div></form>'
            )
        rows.append(f'<tr id="pairing-{p.pk}"><td>{escape(p.flight.name)} {slot}<br><span class="meta">{meta}</span>'
                    f'</td><td>{a}<br>{b}{so_far}</td><td>{forms_}</td></tr>')
    return mark_safe("\n".join(rows))


def _desk_entry_items(flight: Flight, entries: list[Entry], token: str) -> dict:
    """A flight's entries as list items (with a check-in button while it is a draft) and as the
    options of the withdraw menu."""
    csrf = _hidden("csrfmiddlewaretoken", token)
    items, options = [], []
    for e in entries:
        name = escape(e.player.name)
        seed = f"{e.seed}. " if e.seed else ""
        button = ""
        if flight.status == "draft" and e.status == EntryStatus.REGISTERED:
            button = (f'<form method="post" class="inline-form">{csrf}{_hidden("action", "check_in")}'
                      f'{_hidden("entry", e.pk)}{_hidden("anchor", f"flight-{flight.pk}")}<button type="submit" '
                      f'class="secondary" aria-label="Check in {name}">Check in</button></form>')
        items.append(f'<li>{seed}{name} <span class="meta">{escape(e.player.country)} · '
                     f'{escape(e.get_status_display().lower())}</span>{button}</li>')
        if e.status != EntryStatus.WITHDRAWN:
            options.append(f'<option value="{e.pk}">{name}</option>')
    return {"items": mark_safe("".join(items)), "options": mark_safe("".join(options))}


def desk_event(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    forms_ = {}
    if request.method == "POST":
        response = _desk_action(request, tournament, forms_)
        if response is not None:
            return response
    search = PlayerSearchForm(request.GET or None)
    found = []
    if search.is_valid() and search.cleaned_data["q"]:
        found = list(game_selectors.player_list(search=search.cleaned_data["q"])[:15])
    board = selectors.desk_board(tournament)
    flights, open_pairings, decided, reports = (board["flights"], board["open_pairings"], board["decided"],
                                                board["reports"])
    entries = defaultdict(list)
    for item in board["entries"]:
        entries[item.flight_id].append(item)
    rounds = defaultdict(list)
    for rnd in board["rounds"]:
        rounds[rnd.flight_id].append(rnd)
    token = get_token(request)
    flight_rows = []
    for f in flights:
        mine = entries.get(f.pk, [])
        flight_rows.append({
            "flight": f,
            "entries": mine,
            "registered": sum(1 for e in mine if e.status == EntryStatus.REGISTERED),
            "checked_in": sum(1 for e in mine if e.status == EntryStatus.CHECKED_IN),
            "rounds": rounds.get(f.pk, []),
            "open": sum(1 for p in open_pairings if p.flight_id == f.pk),
            "html": _desk_entry_items(f, mine, token),
            "settings": FlightSettingsForm.for_flight(f) if f.status == "draft" and f.takes_entries else None,
        })
    context = {
        "nav": "desk",
        "tournament": tournament,
        "flights": flight_rows,
        "flight_form": forms_.get("flight") or FlightForm(prefix="flight"),
        "new_player_form": forms_.get("new_player") or NewPlayerForm(prefix="new"),
        "search": search,
        "found": found,
        "open_pairings": open_pairings,
        "open_rows": _desk_match_rows(open_pairings, token),
        "decided": decided,
        "pending_reports": [r for r in reports if r.status == ReportStatus.PENDING],
        "disputes": [r for r in reports if r.status == ReportStatus.DISPUTED],
        "draft_flights": [f for f in flights if f.status == "draft" and f.takes_entries],
    }
    context.update(runs_context())
    return render(request, "tournaments/desk_event.html", context, status=400 if forms_ else 200)


def desk_slips(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    pairings = selectors.pairing_list().filter(
        flight__tournament=tournament, status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
    ).exclude(player_b__isnull=True)
    round_id = request.GET.get("round")
    if round_id and round_id.isdigit():
        pairings = pairings.filter(round_id=int(round_id))
    return render(request, "tournaments/slips.html", {
        "tournament": tournament, "pairings": list(pairings), "nav": "desk", "rows": range(1, 16),
    })


def desk_correct(request, slug: str, pk: int):
    """A TD rules on a result: a dispute or a correction, with its downstream effect shown first."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    pairing = get_object_or_404(
        Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b", "winner", "match"),
        pk=pk, flight__tournament=tournament,
    )
    form = ScoreForm(request.POST or None, initial={"version": pairing.version, "score_a": pairing.score_a,
                                                    "score_b": pairing.score_b})
    preview = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["score_a"] == data["score_b"]:
            form.add_error("score_b", "A match has a winner: the scores cannot be equal.")
        else:
            winner_id = pairing.player_a_id if data["score_a"] > data["score_b"] else pairing.player_b_id
            if request.POST.get("previewed") == f"{data['score_a']}-{data['score_b']}":
                try:
                    services.result_override(
                        pairing=pairing, by=request.user, score_a=data["score_a"], score_b=data["score_b"],
                        note=data["note"], apply_downstream=True, expected_version=data["version"],
                    )
                except REFUSALS as error:
                    form.add_error(None, _error_text(error))
                else:
                    messages.success(request, f"{pairing.slot} ruled: {pairing.player_a.name} {data['score_a']}–"
                                              f"{data['score_b']} {pairing.player_b.name}.")
                    return redirect("desk-event", slug=tournament.slug)
            if not form.errors:
                try:
                    preview = selectors.correction_preview(pairing=pairing, winner_id=winner_id)
                except REFUSALS as error:
                    form.add_error(None, _error_text(error))
    names = {}
    if preview:
        ids = {pid for item in preview["affected"] for pid in (item["players"] + (item["becomes"] or [])) if pid}
        names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        for item in preview["affected"]:
            item["names"] = [names.get(pid, "bye") if pid else "bye" for pid in item["players"]]
            item["becomes_names"] = [names.get(pid, "to be decided") if pid else "to be decided"
                                     for pid in (item["becomes"] or [])]
    reports = list(pairing.reports.select_related("submitted_by", "winner").order_by("-version"))
    return render(request, "tournaments/desk_correct.html", {
        "nav": "desk", "tournament": tournament, "pairing": pairing, "form": form, "preview": preview,
        "reports": reports,
    }, status=400 if form.errors else 200)


# -- a player's own matches ----------------------------------------------------------------------


def _my_action(request, player: Player):
    """Carry out one POSTed action of a player on his own match, through the services."""
    action = request.POST.get("action", "")
    user = request.user
    back = redirect(f"{reverse('my-matches')}#{request.POST.get('anchor', '')}")
    mine = Q(player_a=player) | Q(player_b=player)

    def report():
        return get_object_or_404(ResultReport.objects.select_related(
            "pairing__flight__tournament", "pairing__player_a", "pairing__player_b"),
            Q(pairing__player_a=player) | Q(pairing__player_b=player), pk=request.POST.get("report"))

    try:
        if action == "report":
            pairing = get_object_or_404(
                Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"), mine,
                pk=request.POST.get("pairing"))
            made = _report_typed_score(request, pairing)
            if made is not None:
                waits = " It counts when your opponent confirms it." if made.status == ReportStatus.PENDING else ""
                messages.success(request, f"{pairing.player_a.name} {made.score_a}–{made.score_b} "
                                          f"{pairing.player_b.name} reported.{waits}")
        elif action == "confirm":
            made = services.result_confirm(report=report(), by=user)
            messages.success(request, f"{made.pairing.slot}: result confirmed.")
        elif action == "dispute":
            target = report()
            form = DisputeForm(request.POST, prefix=f"r{target.pk}")
            if not form.is_valid():
                messages.error(request, " ".join(form.errors["reason"]))
                return back
            # An empty reason is the service's to refuse: the rule lives there.
            services.result_dispute(report=target, by=user, reason=form.cleaned_data["reason"])
            messages.success(request, f"{target.pairing.slot}: disputed. The TD will rule on it.")
        else:
            messages.error(request, "Unknown action.")
    except REFUSALS as error:
        messages.error(request, _error_text(error))
    return back


@login_required(login_url="login")
def my_matches(request):
    """The matches of the player this login belongs to: what to play next, reporting a result,
    and answering the opponent's report (confirm, or dispute for the TD to rule)."""
    player_id = player_id_of(request.user)
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    if player is None:
        return render(request, "tournaments/my_matches.html", {"nav": "me", "player": None})
    if request.method == "POST":
        return _my_action(request, player)
    mine = Q(player_a=player) | Q(player_b=player)
    pairings = list(
        Pairing.objects.filter(mine, status__in=[PairingStatus.PENDING, PairingStatus.PLAYING],
                               player_b__isnull=False)
        .select_related("flight__tournament", "round", "player_a", "player_b", "match")
        .order_by("flight__tournament__start_date", "flight__position", "round__number", "id")
    )
    reports = {}
    for r in (ResultReport.objects.filter(pairing__in=pairings, status__in=[ReportStatus.PENDING,
                                                                              ReportStatus.DISPUTED])
              .order_by("pairing_id", "version")):
        reports[r.pairing_id] = r  # the latest version
    rows = []
    for p in pairings:
        r = reports.get(p.pk)
        rows.append({
            "pairing": p,
            "opponent": p.player_b if p.player_a_id == player.pk else p.player_a,
            "report": r,
            "mine": r is not None and r.submitted_for_id == player.pk,
            "answer": r is not None and r.status == ReportStatus.PENDING and r.submitted_for_id != player.pk,
        })
    return render(request, "tournaments/my_matches.html", {"nav": "me", "player": player, "rows": rows})
