"""Entries: taken, checked in, withdrawn."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language
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
    FlightFormat.SINGLE_ELIMINATION: gettext_lazy("a single elimination"),
    FlightFormat.DOUBLE_ELIMINATION: gettext_lazy("a double elimination"),
    FlightFormat.SWISS: gettext_lazy("a Swiss"),
    FlightFormat.ROUND_ROBIN: gettext_lazy("a round robin"),
    FlightFormat.SWISS_KNOCKOUT: gettext_lazy("a Swiss then knockout"),
}


def entry_add(*, flight: Flight, player: Player, seed: int | None = None, by) -> Entry:
    """Enter a player. After the start only a Swiss takes late entries (he starts on 0 points)."""
    require_td(by, flight.tournament)
    if not flight.takes_entries:
        raise ValidationError({"flight": [_("%(flight)s takes the losers of other flights, not entries.")
                % {"flight": flight.name}]})
    if seed is not None and seed < 1:
        raise ValidationError({"seed": [_("Seeds start at 1 (the best player).")]})
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        place_for_desk(flight, player)
        return _entry_take(flight, player, seed=seed, by=by)


def late_entry_refusal(flight: Flight) -> str | None:
    """Why `flight`, drawn already, cannot take a player in now; None when it can (a Swiss with a
    round still to draw: he starts on 0 points in the next round)."""
    if not _late_entries_allowed(flight):
        return (_("%(flight)s has started: only a Swiss takes late entries, and %(flight)s is %(format)s.")
                % {"flight": flight.name, "format": FORMAT_AS_NOUN[flight.format]})
    if flight.status == FlightStatus.FINISHED:
        return _("%(flight)s is finished.") % {"flight": flight.name}
    if flight.swiss_rounds and Round.objects.filter(flight=flight).count() >= flight.swiss_rounds:
        return (_("%(flight)s has drawn all its %(swiss_rounds)s rounds: a late entry would have no match left "
                  "to play.") % {"flight": flight.name, "swiss_rounds": flight.swiss_rounds})
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
        raise ValidationError({"player": [_("%(player)s is already entered in %(flight)s.")
                % {"player": player.name, "flight": flight.name}]})
    if late and seed is not None:
        raise ValidationError({"seed": [_("%(flight)s has started: a late entry is seeded after everyone "
                  "drawn so far; leave the seed out.")
                % {"flight": flight.name}]})
    if seed is not None and Entry.objects.filter(flight=flight, seed=seed).exists():
        raise ValidationError({"seed": [_("Seed %(seed)s is already given in %(flight)s.")
                % {"seed": seed, "flight": flight.name}]})
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
        raise ConflictError(_("%(player)s was just entered by someone else.") % {"player": player.name}) from None
    return entry


def entry_check_in(*, entry: Entry, by, now=None) -> Entry:
    """The player is here: he will be in the draw (also after a withdrawal, until the draw). A TD
    checks him in at the desk; the player himself while the check-in window is open."""
    require_check_in(by, entry, now=now)
    with transaction.atomic():
        _results_changed(entry.tournament_id)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status == EntryStatus.WITHDRAWN and entry.flight.status != FlightStatus.DRAFT:
            raise ValidationError({"status": [_("%(player)s withdrew from %(flight)s, which has started: a "
                      "withdrawal is final once the draw is made.")
                    % {"player": entry.player.name, "flight": entry.flight.name}]})
        # Before the draw a withdrawn player who is back after all is simply checked in.
        if entry.flight.status != FlightStatus.DRAFT and entry.status != EntryStatus.CHECKED_IN:
            raise ValidationError({"status": [_("%(flight)s has started: check-in is closed.")
                    % {"flight": entry.flight.name}]})
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
        raise PermissionDenied(_("Only the player himself or a TD of the event withdraws a player."))
    with transaction.atomic():
        tournament = _lock_tournament(entry.tournament)
        _results_changed(tournament.pk)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status == EntryStatus.WITHDRAWN:
            raise ConflictError(_("%(player)s has already withdrawn.") % {"player": entry.player.name})
        entry.status = EntryStatus.WITHDRAWN
        entry._history_user = by
        entry._change_reason = reason or in_site_language(gettext_noop("withdrawn"))
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
