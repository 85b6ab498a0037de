"""Entries: taken, checked in, withdrawn."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q

from config.errors import ConflictError
from games.models import Player

from .. import draws
from ..models import (
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    FlightStatus,
    Pairing,
    PairingStatus,
    Round,
)
from ..permissions import may_act_for_entry, require_check_in, require_td
from ._base import _lock_tournament, _results_changed, _walkover
from .places import place_for_desk, place_for_return, places_settle
from .rounds import _advance


def _late_entries_allowed(flight: Flight) -> bool:
    return flight.format == FlightFormat.SWISS


FORMAT_AS_NOUN = {
    FlightFormat.SINGLE_ELIMINATION: "a single elimination",
    FlightFormat.DOUBLE_ELIMINATION: "a double elimination",
    FlightFormat.SWISS: "a Swiss",
    FlightFormat.ROUND_ROBIN: "a round robin",
    FlightFormat.SWISS_KNOCKOUT: "a Swiss then knockout",
}


def entry_add(*, flight: Flight, player: Player, seed: int | None = None, by) -> Entry:
    """Enter a player. After the start only a Swiss takes late entries (he starts on 0 points)."""
    require_td(by, flight.tournament)
    if not flight.takes_entries:
        raise ValidationError({"flight": [f"{flight.name} takes the losers of other flights, not entries."]})
    if seed is not None and seed < 1:
        raise ValidationError({"seed": ["Seeds start at 1 (the best player)."]})
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        place_for_desk(flight, player)
        return _entry_take(flight, player, seed=seed, by=by)


def late_entry_refusal(flight: Flight) -> str | None:
    """Why `flight`, drawn already, cannot take a player in now; None when it can (a Swiss with a
    round still to draw: he starts on 0 points in the next round)."""
    if not _late_entries_allowed(flight):
        return (f"{flight.name} has started: only a Swiss takes late entries, and {flight.name} is "
                f"{FORMAT_AS_NOUN[flight.format]}.")
    if flight.status == FlightStatus.FINISHED:
        return f"{flight.name} is finished."
    if flight.swiss_rounds and Round.objects.filter(flight=flight).count() >= flight.swiss_rounds:
        return (f"{flight.name} has drawn all its {flight.swiss_rounds} rounds: a late entry would have no match "
                "left to play.")
    return None


def late_seed(flight: Flight, entry: Entry | None = None) -> int:
    """A late entry (`entry`, when he has one already) is seeded after everyone drawn so far."""
    others = Entry.objects.filter(flight=flight).exclude(pk=entry.pk if entry else None)
    return (others.aggregate(m=Max("seed"))["m"] or 0) + 1


def _entry_take(flight: Flight, player: Player, *, seed: int | None = None, by, again: bool = False) -> Entry:
    """The rules of taking an entry, written once for the TD's desk (`entry_add`) and the players'
    own registration: late entries, a finished flight, a player entered twice, seeds. `flight` is
    locked by the caller. `again` lets a player who withdrew before the draw register anew."""
    late = flight.status != FlightStatus.DRAFT
    refusal = late_entry_refusal(flight) if late else None
    if refusal:
        raise ValidationError({"flight": [refusal]})
    entry = Entry.objects.filter(flight=flight, player=player).first()
    if entry is not None and not (again and not late and entry.status == EntryStatus.WITHDRAWN):
        raise ValidationError({"player": [f"{player.name} is already entered in {flight.name}."]})
    if late and seed is not None:
        raise ValidationError({"seed": [f"{flight.name} has started: a late entry is seeded after everyone "
                                        "drawn so far; leave the seed out."]})
    if seed is not None and Entry.objects.filter(flight=flight, seed=seed).exists():
        raise ValidationError({"seed": [f"Seed {seed} is already given in {flight.name}."]})
    if late:
        seed = late_seed(flight)
    if entry is None:
        entry = Entry(tournament=flight.tournament, flight=flight, player=player)
    elif seed is None:
        seed = entry.seed  # registered again before the draw: the seed he was given stays
    entry.seed, entry.late = seed, late
    entry.status = EntryStatus.CHECKED_IN if late else EntryStatus.REGISTERED
    entry._history_user = by
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        raise ConflictError(f"{player.name} was just entered by someone else.") from None
    return entry


def entry_check_in(*, entry: Entry, by, now=None) -> Entry:
    """The player is here: he will be in the draw (also after a withdrawal, until the draw). A TD
    checks him in at the desk; the player himself while the check-in window is open."""
    require_check_in(by, entry, now=now)
    with transaction.atomic():
        _results_changed(entry.tournament_id)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status == EntryStatus.WITHDRAWN and entry.flight.status != FlightStatus.DRAFT:
            raise ValidationError({"status": [f"{entry.player.name} withdrew from {entry.flight.name}, which has "
                                              "started: a withdrawal is final once the draw is made."]})
        # Before the draw a withdrawn player who is back after all is simply checked in.
        if entry.flight.status != FlightStatus.DRAFT and entry.status != EntryStatus.CHECKED_IN:
            raise ValidationError({"status": [f"{entry.flight.name} has started: check-in is closed."]})
        if entry.status == EntryStatus.CHECKED_IN:
            return entry
        place_for_return(Flight.objects.select_for_update(of=("self",)).get(pk=entry.flight_id), entry)
        entry.status = EntryStatus.CHECKED_IN
        entry._history_user = by
        entry.save()
    return entry


def entries_check_in_all(*, flight: Flight, by) -> list[Entry]:
    """Check in every player of `flight` who is registered and not yet checked in (the desk's
    *Check everyone in*): the entries checked in."""
    require_td(by, flight.tournament)
    with transaction.atomic():
        waiting = list(Entry.objects.filter(flight=flight, status=EntryStatus.REGISTERED)
                       .select_related("player", "flight__tournament"))
        return [entry_check_in(entry=entry, by=by) for entry in waiting]


def entry_withdraw(*, entry: Entry, by, reason: str = "") -> Entry:
    """The player leaves (or did not show up): each match he still had to play is a walkover."""
    if not may_act_for_entry(by, entry):
        raise PermissionDenied("Only the player himself or a TD of the event withdraws a player.")
    with transaction.atomic():
        tournament = _lock_tournament(entry.tournament)
        _results_changed(tournament.pk)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status == EntryStatus.WITHDRAWN:
            raise ConflictError(f"{entry.player.name} has already withdrawn.")
        entry.status = EntryStatus.WITHDRAWN
        entry._history_user = by
        entry._change_reason = reason or "withdrawn"
        entry.save()
        if entry.flight.status == FlightStatus.DRAFT:
            places_settle(Flight.objects.select_for_update(of=("self",)).get(pk=entry.flight_id), by=by)
            return entry
        flights = draws.unit_of(entry.flight)
        open_pairings = Pairing.objects.select_for_update().filter(
            Q(player_a=entry.player) | Q(player_b=entry.player),
            flight__in=flights, status__in=[PairingStatus.PENDING, PairingStatus.PLAYING],
        )
        for pairing in open_pairings:
            _walkover(pairing, loser_id=entry.player_id, by=by)
        _advance(tournament, entry.flight, by=by)
    return entry
