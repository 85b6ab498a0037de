"""Public pages that draw on every app: home, player, events.

Views read through selectors (or the fixed-count queries in the `_read_*` helpers below) and
write nothing.
"""

from __future__ import annotations

import math
from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from types import SimpleNamespace

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.defaultfilters import floatformat
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override

from games import selectors as game_selectors
from games.models import Match, MatchStatus, Player
from ratings import selectors as rating_selectors
from ratings import services as rating_services
from ratings.models import Rating
from ratings.ranks import established_ratings
from ratings.views import rank_of

from .. import draws, selectors
from ..formats.elimination import ProgressiveBracket
from ..models import (
    ORGANISER_NAMES,
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    Pairing,
    PairingStatus,
    Tournament,
    TournamentStatus,
    WaitingEntry,
)
from ..permissions import is_td, player_id_of
from ..services import registration
from ..templating import localized_dates
from ..templatetags.tournaments import isolated
from . import bracket
from .bracket import escape

def _systems() -> dict[str, str]:
    """The rating systems this site shows (skill only where it is enabled)."""
    return rating_services.system_labels()


# -- home ----------------------------------------------------------------------------------------


def home(request):
    today = timezone.localdate()
    events = list(
        Tournament.objects.filter(
            Q(status=TournamentStatus.RUNNING) | Q(status=TournamentStatus.OPEN, end_date__gte=today)
        ).order_by("start_date", "id")[:12]
    )
    finished = list(Tournament.objects.filter(status=TournamentStatus.FINISHED).order_by("-end_date", "-id")[:5])
    system = rating_services.default_system()
    top = list(rating_selectors.rating_list(system=system, provisional=False)[:10])
    if not top:  # a young list: everybody is still provisional
        top = list(rating_selectors.rating_list(system=system)[:10])
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
    # Each result's words, written as blocktranslate writes them (the names escaped, the translation
    # not), each message translated once for the fifteen.
    beat, points = _("%(winner)s beat %(loser)s"), _("%(length)s pt")
    for match in recent:
        winner, loser = ((match.player_b, match.player_a) if match.winner_id == match.player_b_id
                         else (match.player_a, match.player_b))
        match.beat_words = mark_safe(beat % {"winner": conditional_escape(winner.name),
                                             "loser": conditional_escape(loser.name)})
        match.length_words = mark_safe(points % {"length": match.length}) if match.length else ""
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
LOOSE_MATCHES = 30
"""Matches outside events listed on a player's page, the newest first."""


def rating_chart(changes: list, *, width: int = 420, height: int = 220, pad: int = 40) -> dict | None:
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
    dates = localized_dates([changes[0].played_on] + [c.played_on for c in changes],
                            pgettext("short date format", "j M Y"))  # as the reader's language writes a day short
    points = ";".join(f"{x},{y},{v:.0f},{d}"
                      for (x, y), v, d in zip((xy(i, v) for i, v in enumerate(values)), values, dates, strict=True))
    return {
        "points": points,
        "width": width, "height": height, "pad": pad, "line": line, "band": band, "ticks": ticks,
        "first": values[0], "last": values[-1], "high": max(values), "low": min(values), "count": len(changes),
        "last_x": last[0], "last_y": last[1], "axis_y": height - pad, "right": width - 8,
        "first_date": changes[0].played_on, "last_date": changes[-1].played_on,
    }


_CHANGE_FIELDS = ("sequence", "match_id", "played_on", "opponent_id", "opponent__name", "length", "won", "expected",
                  "rating_before", "rating_after", "deviation_before", "deviation_after")


@dataclass(slots=True)
class _Change:
    """One rating change as the player page prints it: the fields it reads, without a model
    instance (and its opponent's) per row, which a long record has by the hundred."""

    sequence: int
    match_id: int | None
    played_on: object
    opponent_id: int | None
    opponent_name: str | None
    length: int
    won: bool
    expected: float
    rating_before: float
    rating_after: float
    deviation_before: float | None
    deviation_after: float | None

    @property
    def opponent(self) -> SimpleNamespace | None:
        return None if self.opponent_id is None else SimpleNamespace(pk=self.opponent_id, name=self.opponent_name)

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


def _read_player_page(player: Player, system: str) -> dict:
    """Everything on a player's page in a fixed number of queries, however long his record: his
    record is summed up in the database (`games.selectors.player_record`), not row by row here."""
    shown = _systems()
    published = Q()
    for name in shown:  # every enabled system's published rating, in one query
        published |= Q(system=name, run_id=rating_selectors.published_run(name))
    ratings = {r.system: r for r in Rating.objects.filter(published, player=player)}
    changes = [_Change(*row) for row in rating_selectors.rating_history(player_id=player.pk, system=system)
               .values_list(*_CHANGE_FIELDS)]
    mine = ratings.get(system)
    established = established_ratings(system)
    rank = rank_of(established, mine.rating) if mine and not mine.provisional else None
    pairings = list(
        Pairing.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("flight__tournament", "round", "player_a", "player_b", "match", "winner")
        .order_by("-flight__tournament__start_date", "flight__tournament_id", "flight__position", "round__number",
                  "id")
    )
    # The newest thirty matches outside events, read side by side down each side's index (newest
    # first, stopping at thirty) rather than sorting all of his matches, then merged.
    outside = ~Exists(Pairing.objects.filter(match=OuterRef("pk")))
    loose = sorted(
        (match for side in ("player_a", "player_b")
         for match in Match.objects.filter(outside, **{side: player}).select_related("player_a", "player_b")
         .order_by("-played_on", "-id")[:LOOSE_MATCHES]),
        key=lambda match: (match.played_on, match.pk), reverse=True,
    )[:LOOSE_MATCHES]
    record = game_selectors.player_record(player.pk, opponents=HEAD_TO_HEAD)
    change_of = {c.match_id: c for c in changes}
    events = OrderedDict()
    for p in pairings:
        tournament = p.flight.tournament
        entry = events.setdefault(tournament.pk, {"tournament": tournament, "rows": [], "won": 0, "lost": 0,
                                                  "walkovers": 0})
        mine_a = p.player_a_id == player.pk
        opponent = p.player_b if mine_a else p.player_a
        won = p.winner_id == player.pk if p.winner_id else None
        if p.status == PairingStatus.WALKOVER:  # not a match won or lost over the board: counted apart
            entry["walkovers"] += 1
        elif won is True and p.player_b_id:
            entry["won"] += 1
        elif won is False:
            entry["lost"] += 1
        score = ""
        if p.score_a is not None and p.score_b is not None:
            score = f"{p.score_a}–{p.score_b}" if mine_a else f"{p.score_b}–{p.score_a}"
        change = change_of.get(p.match_id) if p.match_id else None
        entry["rows"].append({"pairing": p, "opponent": opponent, "won": won, "score": score,
                              "change": change.rating_after - change.rating_before if change else None})
        if change:
            entry.setdefault("rated", []).append(change)
    for entry in events.values():
        entry["performance"] = performance_rating(entry.pop("rated", []))
    upcoming = [{"pairing": p, "opponent": p.player_b if p.player_a_id == player.pk else p.player_a}
                for p in pairings if p.player_b_id and p.status in (PairingStatus.PENDING, PairingStatus.PLAYING)
                and p.flight.tournament.status == TournamentStatus.RUNNING]
    return {
        "upcoming": upcoming,
        "ratings": [(key, label, ratings.get(key)) for key, label in shown.items()],
        "changes": changes,
        "events": list(events.values()),
        "loose": loose,
        "head_to_head": record.head_to_head,
        "opponents": record.opponents,
        "by_length": record.by_length,
        "peak": max(changes, key=lambda c: c.rating_after) if changes else None,
        "rank": rank,
        "established": len(established),
        "better_than": (round(100 * (len(established) - rank) / len(established))
                        if rank and len(established) > 1 else None),
    }


def _opponent_rating(change) -> float:
    """The opponent's rating as the update saw it, read back from the expected score (FIBS scale)."""
    expected = min(max(change.expected, 1e-9), 1 - 1e-9)
    return change.rating_before + 2000 / math.sqrt(max(change.length, 1)) * math.log10(1 / expected - 1)


def performance_rating(changes: list) -> int | None:
    """The rating at which a player's expected wins in these matches equal his wins (lengths
    weigh as in the FIBS formula), within 800 points of his opponents' average."""
    if not changes:
        return None
    opponents = [(_opponent_rating(c), max(c.length, 1)) for c in changes]
    wins = sum(1 for c in changes if c.won)
    average = sum(r for r, _length in opponents) / len(opponents)
    low, high = average - 800, average + 800

    def expected(rating):
        return sum(1 / (1 + 10 ** ((r - rating) * math.sqrt(n) / 2000)) for r, n in opponents)

    for _step in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if expected(middle) < wins else (low, middle)
    return round((low + high) / 2)


CHART_RANGES = {"3m": (gettext_lazy("3 months"), 92), "1y": (gettext_lazy("1 year"), 366),
                "all": (gettext_lazy("All"), None)}
"""The time ranges of a player's rating chart, counted back from his latest rated match."""


def player_detail(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    systems = _systems()
    system = request.GET.get("system") if request.GET.get("system") in systems else rating_services.default_system()
    data = _read_player_page(player, system)
    span = request.GET.get("range") if request.GET.get("range") in CHART_RANGES else "all"
    shown = data["changes"]
    if CHART_RANGES[span][1] and shown:
        since = shown[-1].played_on - timedelta(days=CHART_RANGES[span][1])
        shown = [c for c in shown if c.played_on >= since]
    return render(request, "tournaments/player.html", dict(
        data,
        record=_player_record(player, system, data),
        player=player,
        system=system,
        system_label=systems[system],
        chart=rating_chart(shown),
        span=span,
        ranges=[(key, label) for key, (label, _days) in CHART_RANGES.items()],
        recent_changes=data["changes"][-15:][::-1],
        other_systems=list(systems.items()),
    ))


def _share(part: int, whole: int) -> str:
    """`part` of `whole` in whole percent, rounded as Django's `widthratio` rounds."""
    return str(round(part / whole * 100)) if whole else "0"


def _player_record(player: Player, system: str, data: dict):
    """A player's events, other matches, results by length and head to head, drawn by Jinja2
    (`templates/jinja2/player/record.html`): a long record's rows cost a Django template loop
    each, and their words a look-up in the catalogs each. The plurals are written here."""
    for entry in data["events"]:
        entry["walkovers_text"] = ngettext("%(n)s walkover", "%(n)s walkovers", entry["walkovers"]) % {
            "n": entry["walkovers"]}
    shown, met = len(data["head_to_head"]), data["opponents"]
    return mark_safe(get_template("player/record.html", using="jinja2").render({
        "player": player, "system": system, "events": data["events"], "loose": data["loose"],
        "by_length": [dict(line, share=_share(line["won"], line["won"] + line["lost"]), length_text=ngettext(
            "%(length)s point", "%(length)s points", line["length"] or 0) % {"length": line["length"]})
            for line in data["by_length"]],
        "head_to_head": data["head_to_head"],
        "met_most_often": ngettext("The %(shown)s opponents met most often, of %(count)s.",
                                   "The %(shown)s opponents met most often, of %(count)s.", met) % {
            "shown": shown, "count": met} if met > shown else "",
        "short_date": pgettext("short date format", "j M Y"), "sheet_word": pgettext("score sheet", "sheet"),
    }))


def player_calendar(request, pk: int):
    """A player's own calendar (iCalendar): the events he has entered, and each of his matches whose
    round has a start time, with the opponent, the length and the table. Two queries."""
    from datetime import UTC

    player = get_object_or_404(Player.objects.only("id", "name"), pk=pk)
    host = request.get_host().split(":")[0] or "crawford"
    stamp = timezone.now().astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Crawford//Player calendar//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{selectors._ics_text(_('%(player)s: backgammon') % {'player': player.name})}"]
    events = Tournament.objects.filter(entries__player=player).distinct().order_by("start_date")
    for t in events:
        lines += ["BEGIN:VEVENT", f"UID:tournament-{t.pk}-player-{player.pk}@{host}", f"DTSTAMP:{stamp}",
                  f"DTSTART;VALUE=DATE:{t.start_date:%Y%m%d}",
                  f"DTEND;VALUE=DATE:{t.end_date + timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:{selectors._ics_text(t.name)}"]
        if t.venue:
            lines.append(f"LOCATION:{selectors._ics_text(t.venue)}")
        lines.append("END:VEVENT")
    pairings = (Pairing.objects.filter(Q(player_a=player) | Q(player_b=player), player_b__isnull=False,
                                       round__starts_at__isnull=False)
                .select_related("round", "flight__tournament", "player_a", "player_b").order_by("round__starts_at"))
    for p in pairings:
        opponent = p.player_b if p.player_a_id == player.pk else p.player_a
        start = p.round.starts_at.astimezone(UTC)
        what = ngettext("%(event)s: v %(opponent)s (%(length)s point)", "%(event)s: v %(opponent)s (%(length)s points)",
                        p.round.length) % {"event": p.flight.tournament.name, "opponent": opponent.name,
                                           "length": p.round.length}
        where = f"{p.flight.name} {p.slot}"
        if p.table:
            where = _("%(match)s, table %(table)s") % {"match": where, "table": p.table}
        lines += ["BEGIN:VEVENT", f"UID:pairing-{p.pk}-player-{player.pk}@{host}", f"DTSTAMP:{stamp}",
                  f"DTSTART:{start:%Y%m%dT%H%M%SZ}", f"DTEND:{start + timedelta(hours=2):%Y%m%dT%H%M%SZ}",
                  f"SUMMARY:{selectors._ics_text(what)}",
                  f"DESCRIPTION:{selectors._ics_text(where)}"]
        if p.flight.tournament.venue:
            lines.append(f"LOCATION:{selectors._ics_text(p.flight.tournament.venue)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    response = HttpResponse("\r\n".join(selectors._fold(line) for line in lines) + "\r\n",
                            content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="player-{player.pk}.ics"'
    return response


# -- events (public) -----------------------------------------------------------------------------

KNOCKOUT_FORMATS = {FlightFormat.SINGLE_ELIMINATION, FlightFormat.DOUBLE_ELIMINATION}
TABLE_FORMATS = {FlightFormat.SWISS, FlightFormat.ROUND_ROBIN, FlightFormat.SWISS_KNOCKOUT}
TIE_BREAK_WORDS = {
    "buchholz": (gettext_lazy("Buchholz"),
                 gettext_lazy("the sum of the points of every opponent played; a bye adds nothing")),
    "median_buchholz": (gettext_lazy("Median Buchholz"),
                        gettext_lazy("Buchholz without the best and the worst opponent (three or more played)")),
    "sonneborn_berger": (gettext_lazy("Sonneborn-Berger"), gettext_lazy("the sum of the points of every opponent beaten")),
    "head_to_head": (gettext_lazy("Head to head"),
                     gettext_lazy("wins against the other players still level at that point")),
    "pr": (gettext_lazy("PR"), gettext_lazy(
        "the average PR (Performance Rating, GNU Backgammon's analysis) over the player's analysed matches of "
        "this flight; lower is better, and a player with none ranks after those with one")),
    "wins": (gettext_lazy("Wins"), gettext_lazy("matches won")),
    "point_difference": (gettext_lazy("Point difference"), gettext_lazy("match points won minus match points lost")),
    "points_for": (gettext_lazy("Points won"), gettext_lazy("match points won")),
}


def event_list(request):
    events = list(selectors.tournament_list())
    return render(request, "tournaments/event_list.html", {
        "nav": "events",
        "running": [e for e in events if e.status == TournamentStatus.RUNNING],
        "upcoming": [e for e in events if e.status in (TournamentStatus.OPEN, TournamentStatus.DRAFT)],
        "finished": [e for e in events if e.status == TournamentStatus.FINISHED],
    })


def _feeder_words(flight: Flight, flights: list[Flight]) -> str:
    return "; ".join(
        _("losers of %(flight)s round %(round)s enter in round %(entry)s")
        % {"flight": d["source"], "round": d["source_round"], "entry": d["entry_round"]}
        for d in draws.feeder_rules(flight, flights)
    )


def _unit_brackets(flights: list[Flight], views: dict, pairings: dict, seeds: dict[int, int]) -> dict[int, dict]:
    """Every flight's bracket from the event's views (`selectors.event_views`).

    The same shape as `selectors.bracket`, read for the whole event in one more query (names),
    with the drawn knockout (`bracket.bracket_html`) for the flights that have a fixed tree.
    """
    stored = {(p.flight_id, p.slot): p for rows in pairings.values() for p in rows}
    ids = ({x for v in views.values() for s in v.slots for x in (s.a, s.b, s.winner)}
           | {v.champion for v in views.values()}) - {None}
    names = {p.pk: p for p in Player.objects.filter(pk__in=ids).only("id", "name", "country")}

    def player(pid, seeded=seeds):
        if pid is None or pid not in names:
            return None
        return {"id": pid, "name": names[pid].name, "country": names[pid].country, "seed": seeded.get(pid),
                "url": player_url(pid)}

    player_url, match_url = _address_of("player"), _address_of("match")
    lists = bracket.macros("lists")
    verbs = (pgettext("versus", "v"), pgettext("a player beat another", "beat"),
             pgettext("a player lost to another", "lost to"))
    out = {}
    for flight in flights:
        view = views.get(flight.pk)
        knockout_seeds = selectors.knockout_seeds(view)
        tree, prefix = bracket.tree_of(view)
        round_names = bracket.names_of_rounds(tree, prefix) if tree is not None else {}
        columns: dict[int, dict] = {}
        every = []
        for s in view.slots if view else []:
            if s.state == "void":
                continue
            name = s.round_name
            if tree is not None and s.slot.startswith(prefix):
                name = round_names.get((bracket.group_of(s.slot, prefix), bracket.round_of(s.slot, prefix)), name)
                if prefix:
                    name = _("Knockout: %(round)s") % {"round": name}
            column = columns.setdefault(s.round_number, {"round": s.round_number, "name": name,
                                                          "length": s.length, "slots": []})
            row = stored.get((flight.pk, s.slot))
            seeded = knockout_seeds if knockout_seeds and s.slot.startswith(draws.KNOCKOUT_PREFIX) else seeds
            slot = {
                "slot": s.slot, "id": f"slot-{flight.pk}-{s.slot}", "match": row.match_id if row else None,
                "player_a": player(s.a, seeded), "player_b": player(s.b, seeded), "bye": s.state == "bye",
                "state": {"waiting": "pending", "ready": "ready", "played": "played", "bye": "bye"}[s.state],
                "status": row.status if row else "waiting",
                "score": [row.score_a, row.score_b] if row and row.score_a is not None else None,
                "winner": s.winner, "length": s.length, "table": row.table if row else "",
                "round": s.round_number, "round_name": name, "match_url": match_url(row.match_id) if row and row.match_id else "",
                "verb": verbs[0] if not s.winner else verbs[1] if s.winner == s.a else verbs[2],
            }
            column["slots"].append(slot)
            every.append(slot)
        rounds = [columns[n] for n in sorted(columns)]
        for column in rounds:
            column["list_html"] = mark_safe(lists.round_lines(column["slots"]))
        drawn = bracket.bracket_html(flight_pk=flight.pk, view=view, slots=every, match_url=match_url,
                                     player_url=player_url) if tree is not None else None
        if drawn is not None:
            drawn = {"html": mark_safe(drawn["html"]), "tabs": mark_safe(drawn["tabs"]), "current": drawn["current"]}
        out[flight.pk] = {"rounds": rounds, "champion": player(view.champion) if view else None, "drawn": drawn,
                          "slots": every}
    return out


def _address_of(name: str):
    """`pk -> address` for a URL that takes one number, reversed once instead of for every cell."""
    marker = "2147483647"
    head, tail = reverse(name, args=[int(marker)]).split(marker)
    head, tail = escape(head), escape(tail)
    return lambda pk: f"{head}{pk}{tail}"


def _read_event(tournament: Tournament) -> dict:
    """The flights of an event with their draws, standings and entries.

    A fixed number of queries per flight, whatever the number of players.
    """
    flights = list(selectors.flight_list().filter(tournament=tournament))
    player_url = _address_of("player")
    lists = bracket.macros("lists")
    entries = defaultdict(list)
    for entry in Entry.objects.filter(tournament=tournament).select_related("player").only(
            "flight_id", "player_id", "seed", "status", "player__name", "player__country", "player__club",
    ).order_by("flight__position", "seed", "id"):
        entry.url = player_url(entry.player_id)
        entries[entry.flight_id].append(entry)
    views, pairings = selectors.event_views(flights)
    seeds = {e.player_id: e.seed for rows in entries.values() for e in rows if e.seed is not None}
    brackets = _unit_brackets(flights, views, pairings, seeds)
    out = []
    for flight in flights:
        bracket_ = brackets[flight.pk]
        view = views.get(flight.pk)
        standings = (selectors.standings(flight, view) if view and flight.format in TABLE_FORMATS
                     and flight.status != "draft" else [])
        tie_breaks = []
        if standings:
            tie_breaks = list(standings[0]["tie_breaks"].keys())
            for line in standings:
                line["tie_values"] = [(TIE_BREAK_WORDS.get(k, (k,))[0], _tie_value(k, line["tie_breaks"][k]))
                                      for k in tie_breaks]
        graphic = flight.format in KNOCKOUT_FORMATS or flight.format == FlightFormat.SWISS_KNOCKOUT
        out.append({
            "flight": flight,
            "feeders": _feeder_words(flight, flights),
            "entries": entries.get(flight.pk, []),
            "entries_html": mark_safe(lists.entries(entries.get(flight.pk, []), flight.status == "draft")),
            "checked_in": sum(1 for e in entries.get(flight.pk, []) if e.status == EntryStatus.CHECKED_IN),
            "bracket": bracket_,
            "graphic": graphic,
            "progressive": (bracket.flow_html(rounds=bracket_["rounds"], plan=_skeleton(flight, views),
                                              player_url=player_url, match_url=_address_of("match"))
                            if graphic and not bracket_["drawn"] and view is not None and view.engine is not None
                            else ""),
            "standings": standings,
            "crosstable": _crosstable(standings, bracket_["slots"], player_url) if standings else None,
            "round_count": len({s["round_name"] for s in bracket_["slots"]
                                if not s["slot"].startswith(draws.KNOCKOUT_PREFIX)}),
            "tie_breaks": [{"name": TIE_BREAK_WORDS.get(k, (k.replace("_", " ").capitalize(), ""))[0],
                            "help": TIE_BREAK_WORDS.get(k, ("", ""))[1]} for k in tie_breaks],
            "placings": selectors.placings(flight, view) if view and flight.status == "finished" else [],
        })
    now = [(f["flight"], s) for f in out if f["flight"].status == "running"
           for s in f["bracket"]["slots"] if s["state"] == "ready" and s["player_b"]]
    return {"flights": out, "live": tournament.status == TournamentStatus.RUNNING, **_now(now),
            "now_count": len(now), "multi": len(out) > 1}


def _tie_value(kind: str, value: float | None) -> str:
    """A tie-break as the standings print it: points as 4 or 3.5, a PR to two decimals, none as a dash."""
    if value is None:
        return "–"
    return f"{value:.2f}" if kind == "pr" else floatformat(value, "-1")


def _skeleton(flight: Flight, views: dict) -> list[dict]:
    """The rounds a consolation or last chance flight will have, worked out from its feeders'
    draws before its players are known: per round, its number of matches and where they come from."""
    by_id = {v.flight.pk: v for v in views.values()}
    entrants: dict[int, int] = {}
    sources: dict[int, str] = {}
    for feeder in draws.feeder_rules(flight, (v.flight for v in views.values())):
        source = by_id.get(feeder.get("source_id"))
        if source is None:
            continue
        round_no, entry = int(feeder.get("source_round")), int(feeder.get("entry_round"))
        losers = sum(1 for s in source.slots if s.round_number == round_no and s.state in ("waiting", "ready", "played"))
        entrants[entry] = entrants.get(entry, 0) + losers
        sources[entry] = _("%(flight)s round %(round)s") % {"flight": feeder.get("source"), "round": round_no}
    if not entrants:
        return []
    last_entry, field, plan = max(entrants), 0, []
    for round_no in range(1, 64):
        survivors = field
        field += entrants.get(round_no, 0)
        more = round_no < last_entry
        if not more and field <= 1:
            break
        matches = ProgressiveBracket._matches_to_play(field, more)
        plan.append({"round": round_no, "matches": matches, "survivors": survivors,
                     "from": sources.get(round_no)})
        field -= matches
    return plan


def _crosstable(standings: list[dict], slots: list[dict], player_url) -> dict:
    """Every player's line of a Swiss or round robin: his opponent (by line number) and result in
    every round, as `+7` (beat line 7), `−7` (lost to line 7), `·7` (to play), `bye`."""
    line_of = {line["player"]["id"]: n for n, line in enumerate(standings, start=1)}
    rounds = sorted({s["round"] for s in slots if not s["slot"].startswith(draws.KNOCKOUT_PREFIX)})
    column = {number: i for i, number in enumerate(rounds)}
    cells: dict[int, list[dict | None]] = {pid: [None] * len(rounds) for pid in line_of}
    bye = {"kind": "x-bye", "text": _("bye")}
    for s in slots:
        if s["slot"].startswith(draws.KNOCKOUT_PREFIX) or s["round"] not in column:
            continue
        i = column[s["round"]]
        a, b = s["player_a"], s["player_b"]
        if s["bye"] and a and a["id"] in cells:
            cells[a["id"]][i] = bye
            continue
        if not a or not b:
            continue
        for me, other, mine in ((a, b, 0), (b, a, 1)):
            if me["id"] not in cells:
                continue
            n = line_of.get(other["id"], "")
            if s["winner"]:
                won = s["winner"] == me["id"]
                cells[me["id"]][i] = {
                    "kind": "x-w" if won else "x-l", "text": f"{'+' if won else '−'}{n}",
                    "title": (_("Beat %(player)s") if won else _("Lost to %(player)s")) % {"player": other["name"]},
                    "score": f"{s['score'][mine]}–{s['score'][1 - mine]}" if s["score"] else "",
                }
            else:
                cells[me["id"]][i] = {"kind": "x-p", "text": f"·{n}",
                                      "title": _("To play %(player)s") % {"player": other["name"]}}
    return {"rounds": range(1, len(rounds) + 1), "rows": [
        {"line": n, "url": player_url(line["player"]["id"]), "name": line["player"]["name"],
         "cells": cells[line["player"]["id"]], "points": f"{line['points']:g}"}
        for n, line in enumerate(standings, start=1)]}


def _now(now: list) -> dict:
    """The matches to play now, one card each: table, players, length, status, the score sheet;
    past the first few, folded under "more matches"."""
    versus = pgettext("versus", "v")
    cards = [{"flight_name": isolated(flight.name), "slot": s, "slot_name": isolated(s["slot"]), "v": versus,
              "names": f"{s['player_a']['name']} {s['player_b']['name']}".lower()} for flight, s in now]
    tables, lists = any(s["table"] for _flight, s in now), bracket.macros("lists")
    return {"now_shown": mark_safe(lists.now_cards(cards[:NOW_SHOWN], tables)), "now_folded": len(cards) - NOW_SHOWN,
            "now_folded_html": mark_safe(lists.now_cards(cards[NOW_SHOWN:], tables)) if len(cards) > NOW_SHOWN else ""}


NOW_SHOWN = 6
"""Matches to play listed at the top of the event page before "more matches" folds the rest."""


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
        html = render_to_string("tournaments/_flight_sections.html", _read_event(tournament))
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
