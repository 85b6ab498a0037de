"""Corrections: what a changed result undoes downstream before the TD applies it."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext_noop

from config.languages import in_site_language
from games import services as games

from .. import draws
from .. import formats as fm
from ..models import (
    FlightFormat,
    Pairing,
    PairingStatus,
)


def correction_affected(*, pairing: Pairing, winner_id: int | None) -> list[dict]:
    """The stored pairings a new winner of `pairing` would undo (read only); with `winner_id`
    None, those that taking its result away would undo.

    The unit is worked out again from the new result plus every stored result that still
    belongs to a match with the same two players; whatever is stored and no longer follows is
    listed, with whether it has started (a report, a match or a result).
    """
    flights = draws.unit_of(pairing.flight)
    entries, pairings, withdrawn = draws.load(flights)
    rows = {(p.flight_id, p.slot): p for ps in pairings.values() for p in ps}
    decided = {k: fm.Result(p.slot, p.winner_id, p.status == PairingStatus.WALKOVER)
               for k, p in rows.items() if p.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER)}
    target = (pairing.flight_id, pairing.slot)
    corrected = None if winner_id is None else fm.Result(pairing.slot, winner_id, False)
    by_flight = {f.pk: f for f in flights}
    swiss_like = by_flight[pairing.flight_id].format in (FlightFormat.SWISS, FlightFormat.ROUND_ROBIN)
    if swiss_like:
        return []
    # A withdrawn player stays only where he is drawn: once the rows a correction undoes are gone,
    # he may no longer be. The draw is worked out again without them until it settles.
    undone: set[int] = set()
    for _ in range(len(rows) + 1):
        drawn = {fid: [p for p in ps if p.pk not in undone] for fid, ps in pairings.items()}
        affected = _undone_by(flights, entries, drawn, withdrawn, rows, decided, target, corrected, by_flight)
        now = {a["pairing"] for a in affected}
        if now == undone:
            break
        undone = now
    return affected


def _undone_by(flights, entries, pairings, withdrawn, rows, decided, target, corrected, by_flight) -> list[dict]:
    # The results that still stand are gathered from the first round on; the corrected one joins
    # once its match has its players again (a later round's match has none before that).
    kept: dict = {}
    while True:
        results = defaultdict(dict)
        for (fid, slot), result in kept.items():
            results[fid][slot] = result
        views = draws.unit_views(flights, entries, pairings, withdrawn, results)
        ready = {(fid, s.slot): s for fid, v in views.items() for s in v.drawn}
        added = False
        if corrected is not None and target not in kept and target in ready:
            kept[target] = corrected
            added = True
        for key, result in decided.items():
            if key in kept or key == target:
                continue
            slot, row = ready.get(key), rows[key]
            if slot is not None and (slot.a, slot.b) == (row.player_a_id, row.player_b_id):
                kept[key] = result
                added = True
        if not added:
            break
    affected = []
    for key, row in rows.items():
        if key == target:
            continue
        slot = ready.get(key)
        same = slot is not None and (slot.a, slot.b) == (row.player_a_id, row.player_b_id)
        if same and (key in kept or not (row.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER))):
            continue
        started = (row.status in (PairingStatus.PLAYING, PairingStatus.FINISHED, PairingStatus.WALKOVER)
                   or row.match_id is not None or row.reports.exists())
        affected.append({
            "pairing": row.pk, "flight": by_flight[row.flight_id].name, "slot": row.slot,
            "players": [row.player_a_id, row.player_b_id], "status": row.status, "started": started,
            "becomes": None if slot is None else [slot.a, slot.b],
        })
    return affected


def _drop_downstream(affected: list[dict], *, by) -> None:
    """Remove the pairings a correction undoes. Their rows and reports stay in the history; their
    matches are voided (kept, no longer rated), which asks for the ratings to be worked out again."""
    for item in affected:
        pairing = Pairing.objects.select_related("match", "flight").get(pk=item["pairing"])
        match = pairing.match
        pairing._history_user = by
        pairing._change_reason = in_site_language(gettext_noop("undone by a correction upstream"))
        for report in pairing.reports.all():
            report._history_user = by
            report.delete()
        pairing.delete()
        if match is not None:
            games.match_void(match=match, by=by,
                             reason=in_site_language(gettext_noop("%(flight)s %(match)s undone by a correction upstream"),
                                                     {"flight": pairing.flight.name, "match": pairing.slot}))
