"""A player's public page (his ratings, rating chart, events, other matches and head to head) and
his own calendar."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace

from django.db.models import Exists, OuterRef, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import get_template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.utils.safestring import mark_safe

from games import selectors as game_selectors
from games.models import Match, Player
from ratings import selectors as rating_selectors
from ratings import services as rating_services
from ratings.models import Rating
from ratings.ranks import established_ratings
from ratings.views import rank_of

from ... import selectors
from ...models import Pairing, PairingStatus, Tournament, TournamentStatus
from ...templating import localized_dates


def _systems() -> dict[str, str]:
    """The rating systems this site shows (skill only where it is enabled)."""
    return rating_services.system_labels()


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
             f"X-WR-CALNAME:{selectors.ics_text(_('%(player)s: backgammon') % {'player': player.name})}"]
    events = Tournament.objects.filter(entries__player=player).distinct().order_by("start_date")
    for t in events:
        lines += ["BEGIN:VEVENT", f"UID:tournament-{t.pk}-player-{player.pk}@{host}", f"DTSTAMP:{stamp}",
                  f"DTSTART;VALUE=DATE:{t.start_date:%Y%m%d}",
                  f"DTEND;VALUE=DATE:{t.end_date + timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:{selectors.ics_text(t.name)}"]
        if t.venue:
            lines.append(f"LOCATION:{selectors.ics_text(t.venue)}")
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
                  f"SUMMARY:{selectors.ics_text(what)}",
                  f"DESCRIPTION:{selectors.ics_text(where)}"]
        if p.flight.tournament.venue:
            lines.append(f"LOCATION:{selectors.ics_text(p.flight.tournament.venue)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    response = HttpResponse("\r\n".join(selectors.ics_fold(line) for line in lines) + "\r\n",
                            content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="player-{player.pk}.ics"'
    return response
