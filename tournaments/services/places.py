"""Places in a flight not yet drawn: its cap, the entries that hold a place, its waiting list.

Every way a place is taken or given back (the TD's desk, the players' own registration and
check-in, the API, the admin) asks this module, so that after every write

- the entries that hold a place (registered or checked in) are no more than the cap,
- the waiting list keeps its order (first come, first served), and
- nobody is both entered and waiting.

A place that frees up (a withdrawal, a registration taken back, more places) goes to the first
player waiting at once, so a player on the waiting list means the flight is full. Once the flight
is drawn, places no longer matter (a Swiss takes late entries whatever the cap).

Every function expects the flight locked by its caller (`select_for_update`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Entry, EntryStatus, Flight, FlightStatus, WaitingEntry


def places_taken(flight: Flight) -> int:
    return Entry.objects.filter(flight=flight).exclude(status=EntryStatus.WITHDRAWN).count()


def _full(flight: Flight, taken: int | None = None) -> bool:
    if flight.registration_cap is None:
        return False
    return (places_taken(flight) if taken is None else taken) >= flight.registration_cap


def _counts_places(flight: Flight) -> bool:
    return flight.status == FlightStatus.DRAFT


def place_for_desk(flight: Flight, player) -> None:
    """Before a TD enters `player`: he leaves the waiting list; a full flight not yet drawn is
    refused (raise its places first, or the player waits his turn)."""
    if _counts_places(flight) and _full(flight):
        waiting = list(WaitingEntry.objects.filter(flight=flight).values_list("player_id", flat=True))
        turn = (" " + _("%(player)s is number %(place)s on the waiting list.")
                % {"player": player.name, "place": waiting.index(player.pk) + 1} if player.pk in waiting else "")
        raise ValidationError({"player": [_("%(flight)s is full: all %(registration_cap)s places are "
                  "taken.%(turn)s Raise the number of places to enter him.")
                % {"flight": flight.name, "registration_cap": flight.registration_cap, "turn": turn}]})
    WaitingEntry.objects.filter(flight=flight, player=player).delete()


def place_for_return(flight: Flight, entry: Entry) -> None:
    """Before a player who withdrew comes back (checked in again before the draw): only into a
    free place, never ahead of the players waiting."""
    if not _counts_places(flight) or entry.status != EntryStatus.WITHDRAWN:
        return
    if _full(flight):
        waiting = WaitingEntry.objects.filter(flight=flight).count()
        ahead = (ngettext(" and %(count)s player waits for one", " and %(count)s players wait for one", waiting)
                 % {"count": waiting} if waiting else "")
        raise ValidationError({"status": [_("%(player)s withdrew from %(flight)s, whose %(registration_cap)s "
                  "places are all taken%(ahead)s: he can join the waiting list, or the TD raises the number of places.")
                % {"player": entry.player.name, "flight": flight.name, "registration_cap": flight.registration_cap, "ahead": ahead}]})


def place_or_wait(flight: Flight) -> bool:
    """True when a player registering now takes a place; False when he joins the waiting list (the
    flight is full, or others wait already)."""
    return not _full(flight) and not WaitingEntry.objects.filter(flight=flight).exists()


def place_cap_check(flight: Flight, cap: int | None) -> None:
    """A new number of places never drops below the players who hold one."""
    if cap is None or not _counts_places(flight):
        return
    taken = places_taken(flight)
    if cap < taken:
        raise ValidationError({"cap": [_("%(taken)s players are entered in %(flight)s already: give at least "
                  "%(taken)s places (withdraw players first to have fewer).")
                % {"taken": taken, "flight": flight.name}]})


def places_settle(flight: Flight, *, by) -> list[Entry]:
    """Give every free place to the players waiting, first come first served; the entries made."""
    if not _counts_places(flight):
        return []
    from .entries import _entry_take

    made, taken = [], places_taken(flight)
    for waiting in WaitingEntry.objects.filter(flight=flight).select_related("player"):
        if _full(flight, taken):
            break
        waiting.delete()
        made.append(_entry_take(flight, waiting.player, by=by, again=True))
        taken += 1
    return made
