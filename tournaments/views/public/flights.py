"""An event's flights as its page draws them: entries, brackets (`bracket`), the rounds to come of
a fed flight, standings with their tie-breaks, crosstables, places and the matches to play now.

`read_event` reads them in a fixed number of queries per flight, whatever the number of players."""

from __future__ import annotations

from collections import defaultdict

from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.utils.safestring import mark_safe

from games.models import Player

from ... import draws, selectors
from ...formats.elimination import ProgressiveBracket
from ...models import Entry, EntryStatus, Flight, FlightFormat, Tournament, TournamentStatus
from ...templatetags.tournaments import isolated
from .. import bracket
from ..bracket import escape


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
    names = {pk: (name, country) for pk, name, country in
             Player.objects.filter(pk__in=ids).values_list("id", "name", "country")}
    made: dict[tuple[int, int], dict] = {}  # a player is in several slots: one dict per seeding, read only

    def player(pid, seeded=seeds):
        if pid is None or pid not in names:
            return None
        key = (pid, id(seeded))
        if key not in made:
            name, country = names[pid]
            made[key] = {"id": pid, "name": name, "country": country, "seed": seeded.get(pid), "url": player_url(pid)}
        return made[key]

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
            if column["length"]:
                column["points"] = ngettext("%(length)s point", "%(length)s points", column["length"]) % {
                    "length": column["length"]}
        drawn = bracket.bracket_html(flight_pk=flight.pk, view=view, slots=every, match_url=match_url,
                                     player_url=player_url) if tree is not None else None
        if drawn is not None:
            drawn = {"html": mark_safe(drawn["html"]), "tabs": mark_safe(drawn["tabs"]), "current": drawn["current"]}
        out[flight.pk] = {"rounds": rounds, "champion": player(view.champion) if view else None, "drawn": drawn,
                          "slots": every, "rounds_html": mark_safe(lists.rounds(rounds)) if rounds else ""}
    return out


def _address_of(name: str):
    """`pk -> address` for a URL that takes one number, reversed once instead of for every cell."""
    marker = "2147483647"
    head, tail = reverse(name, args=[int(marker)]).split(marker)
    head, tail = escape(head), escape(tail)
    return lambda pk: f"{head}{pk}{tail}"


def read_event(tournament: Tournament) -> dict:
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
    versus, bidi = pgettext("versus", "v"), translation.get_language_bidi()
    cards = [{"flight_name": isolated(flight.name, bidi), "slot": s, "slot_name": isolated(s["slot"], bidi), "v": versus,
              "names": f"{s['player_a']['name']} {s['player_b']['name']}".lower()} for flight, s in now]
    tables, lists = any(s["table"] for _flight, s in now), bracket.macros("lists")
    return {"now_shown": mark_safe(lists.now_cards(cards[:NOW_SHOWN], tables)), "now_folded": len(cards) - NOW_SHOWN,
            "now_folded_html": mark_safe(lists.now_cards(cards[NOW_SHOWN:], tables)) if len(cards) > NOW_SHOWN else ""}


NOW_SHOWN = 6
"""Matches to play listed at the top of the event page before "more matches" folds the rest."""
