"""What the desk's page reads, in the shape its templates draw: the match queue grouped by flight and
round, each flight with its entries and its draw buttons, the disputes with their versions. Reads
only (through `tournaments.selectors` and the services' pure offers)."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ... import draws, services
from ...forms import FlightSettingsForm
from ...models import EntryStatus, Flight, FlightFormat, Pairing, PairingStatus, ReportStatus, Tournament, public_name
from .base import Outcome, match_label, still_to_play, tabled_words

QUEUE_STATES = ("call", "table", "playing", "reported", "disputed")
"""The open states the desk counts, in the order of its counts."""


def row_state(p: Pairing, report) -> str:
    """A queue row's state: finished, disputed, reported, playing, at a table or to call."""
    if p.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
        return "finished"
    if report is not None:
        return "disputed" if report.status == ReportStatus.DISPUTED else "reported"
    if p.status == PairingStatus.PLAYING:
        return "playing"
    return "table" if p.table else "call"


def score_may_be_typed(p: Pairing, state: str) -> bool:
    """A final score may be typed into the row of a match not begun or being played: the slip's
    final score replaces the games on its score sheet so far."""
    return state in ("call", "table", "playing")


def queue(tournament: Tournament, board: dict, outcome: Outcome) -> tuple[list[dict], dict]:
    """The match queue: open matches (and the latest results) grouped by flight and round."""
    reports_by_pairing = {r.pairing_id: r for r in board["reports"]}
    offers = services.table_offers(tournament, board["open_pairings"])
    counts = defaultdict(int)
    groups: dict[tuple, dict] = {}
    first_open = None
    flight_named, tabled = len(board["flights"]) > 1, tabled_words()
    for p in board["open_pairings"] + board["decided"]:
        report = reports_by_pairing.get(p.pk)
        state = row_state(p, report)
        counts[state] += 1
        key = (p.flight.position, p.flight_id, p.round_number)
        group = groups.setdefault(key, {"flight": p.flight, "round": p.round_number, "length": p.round_length,
                                        "rows": [], "open": 0})
        entry_allowed = score_may_be_typed(p, state)
        row = {"p": p, "state": state, "report": report, "offer": offers.get(p.pk, ""),
               "entry": entry_allowed, "error": outcome.row_errors.get(p.pk),
               "label": match_label(p, flight_named=flight_named, tabled=tabled)}
        if state != "finished":
            group["open"] += 1
            if first_open is None and entry_allowed and not row["error"]:
                first_open = row
        group["rows"].append(row)
    if outcome.focus == "next-open" and first_open is not None:
        outcome.focus = f"p{first_open['p'].pk}-a"
    # Rounds with matches to finish first; finished rounds after them, folded. Within a round the
    # matches keep their order as they finish, so no row moves under the TD's cursor.
    ordered = [groups[k] for k in sorted(groups, key=lambda k: (groups[k]["open"] == 0, k))]
    for group in ordered:
        group["rows"].sort(key=lambda r: r["p"].pk)
    if outcome.focus.startswith("next-after-"):
        outcome.focus = _next_below(ordered, int(outcome.focus.removeprefix("next-after-")))
    return ordered, dict(counts)


def _next_below(groups: list[dict], saved: int) -> str:
    """After a Save the cursor goes to the next open row below the one saved (never back up to
    the first open match); after the last one, to the queue's search."""
    found = False
    for group in groups:
        mine = any(r["p"].pk == saved for r in group["rows"])
        for r in group["rows"]:
            if not r["entry"] or r["error"]:
                continue
            if found or (mine and r["p"].pk > saved):
                return f"p{r['p'].pk}-a"
        found = found or mine
    return "qf-find"


def flight_controls(f: Flight, tally: dict, rounds: list, open_count: int) -> dict:
    """Which draw buttons a flight offers, each disabled one with the reason why."""
    checked_in = tally.get(EntryStatus.CHECKED_IN, 0)
    entries = sum(tally.values())
    controls = {"start": None, "next_round": None}
    if f.status == "draft" and f.takes_entries:
        why = "" if checked_in >= 2 else (
            _("Check in at least two players first.") if entries else _("Take entries first."))
        controls["start"] = {"why": why}
    elif f.status == "running" and f.format in (FlightFormat.SWISS, FlightFormat.ROUND_ROBIN, FlightFormat.SWISS_KNOCKOUT):
        drawn = len(rounds)
        why = ""
        if open_count:
            why = still_to_play(open_count, drawn)
        elif f.auto_pair and f.format != FlightFormat.SWISS_KNOCKOUT:
            why = _("The next round pairs itself when the last match ends.")
        elif f.format == FlightFormat.SWISS and f.swiss_rounds and drawn >= f.swiss_rounds:
            why = ngettext("All %(count)d round is drawn.", "All %(count)d rounds are drawn.",
                           f.swiss_rounds) % {"count": f.swiss_rounds}
        controls["next_round"] = {"why": why}
    return controls


def flight_rows(board: dict) -> list[dict]:
    """Each flight with its entries, its tallies, its rounds and the draw buttons it offers."""
    flights, open_pairings = board["flights"], board["open_pairings"]
    entries = defaultdict(list)
    for item in board["entries"]:
        item.rating = board["ratings"].get(item.player_id)
        entries[item.flight_id].append(item)
    rounds = defaultdict(list)
    for rnd in board["rounds"]:
        rounds[rnd.flight_id].append(rnd)
    open_by_flight = defaultdict(int)
    for p in open_pairings:
        open_by_flight[p.flight_id] += 1
    rows = []
    for f in flights:
        tally = board["entry_counts"].get(f.pk, {})
        rows.append({
            "flight": f,
            "feeders": draws.feeder_rules(f, flights),
            "entries": entries.get(f.pk, []),
            "entry_count": sum(tally.values()),
            "registered": tally.get(EntryStatus.REGISTERED, 0),
            "checked_in": tally.get(EntryStatus.CHECKED_IN, 0),
            "rounds": rounds.get(f.pk, []),
            "open": open_by_flight[f.pk],
            "controls": flight_controls(f, tally, rounds.get(f.pk, []), open_by_flight[f.pk]),
            "settings": FlightSettingsForm.for_flight(f) if f.status == "draft" and f.takes_entries else None,
        })
    return rows


def disputes(board: dict) -> list:
    """The disputed reports, each with its versions, the other scores offered and who said what."""
    found = [r for r in board["reports"] if r.status == ReportStatus.DISPUTED]
    for r in found:
        r.versions = board["versions"].get(r.pairing_id, [])
        r.others = [v for v in r.versions if v.pk != r.pk and (v.score_a, v.score_b) != (r.score_a, r.score_b)]
        reporter = r.submitted_for
        r.reporter_name = reporter.name if reporter else _("the TD (%(name)s)") % {"name": public_name(r.submitted_by)}
        disputer = r.pairing.player_b if reporter and reporter.pk == r.pairing.player_a_id else r.pairing.player_a
        r.disputer_name = disputer.name if reporter else (public_name(r.disputed_by) if r.disputed_by else "")
    return found
