"""What every service of an event shares: the locks, the results version, a pairing's match."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language
from games import services as games
from games.keepers import keeper_writes
from games.models import Match, MatchStatus, Player

from .. import formats as fm
from ..models import (
    Flight,
    Pairing,
    PairingStatus,
    ReportStatus,
    RoundStatus,
    Tournament,
)

def _bracket_error(error: fm.BracketUserError, field: str = "non_field_errors") -> ValidationError:
    return ValidationError({field: [str(error)]})


def _lock_tournament(tournament: Tournament) -> Tournament:
    """Serialise the writes that change an event's draw: one at a time per tournament."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _results_changed(tournament_id: int) -> None:
    """Raise the event's results version inside the writer's transaction.

    The event page keeps its flights drawn under this version: the new one is seen together with
    the rows that changed, never before. Services that lock no tournament call it first, so the
    tournament row is locked before the rows below it, in the same order as everywhere else.
    """
    changed = Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    if changed != 1:
        raise ConflictError(_("The tournament is gone: reload the page."))


def _lock_pairing(pairing: Pairing, expected_version: int | None) -> Pairing:
    locked = (Pairing.objects.select_for_update(of=("self",))
              .select_related("round", "flight__tournament", "player_a", "player_b").get(pk=pairing.pk))
    _check_version(locked, expected_version)
    return locked


def _check_version(locked: Pairing, expected_version: int | None) -> None:
    if expected_version is not None and locked.version != expected_version:
        raise ConflictError(_("%(flight)s %(match)s was changed by someone else (version %(version)s, you had "
                  "%(expected_version)s): reload it.")
                % {"flight": locked.flight.name, "match": locked.slot, "version": locked.version, "expected_version": expected_version})


def _check_playable(pairing: Pairing) -> None:
    if pairing.is_bye:
        raise ValidationError({"non_field_errors": [_("%(match)s is a bye: there is no match to report.")
                % {"match": pairing.slot}]})
    if pairing.round.status == RoundStatus.PENDING:
        raise ValidationError({"non_field_errors": [
            _("Round %(number)s of %(flight)s has not been started by the TD yet.")
                    % {"number": pairing.round.number, "flight": pairing.flight.name}]})


def _next_version(pairing: Pairing) -> int:
    return (pairing.reports.aggregate(m=Max("version"))["m"] or 0) + 1


def _supersede_open(pairing: Pairing) -> None:
    pairing.reports.filter(status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED]).update(
        status=ReportStatus.SUPERSEDED)


def _match_for(pairing: Pairing, *, by, rated: bool = True) -> Match:
    return games.match_create(
        player_a=pairing.player_a, player_b=pairing.player_b, length=pairing.round.length or 1,
        cube_cap=pairing.flight.tournament.cube_cap, rated=rated, source="tournament", by=by,
    )


def _walkover(pairing: Pairing, *, loser_id: int, by) -> None:
    """The opponent of a withdrawn player goes through; the match is forfeited and not rated."""
    match = pairing.match or _match_for(pairing, by=by, rated=False)
    loser = Player.objects.get(pk=loser_id)
    if match.status == MatchStatus.IN_PROGRESS:
        with keeper_writes(match):
            match = games.match_forfeit(match=match, forfeited_by=loser, by=by, reason=in_site_language(gettext_noop("withdrawal")))
    pairing.match = match
    pairing.status = PairingStatus.WALKOVER
    pairing.winner_id = pairing.player_b_id if loser_id == pairing.player_a_id else pairing.player_a_id
    pairing.decided_at = timezone.now()
    pairing.version += 1
    pairing._history_user = by
    pairing._change_reason = in_site_language(gettext_noop("walkover"))
    pairing.save()
    _supersede_open(pairing)


def _lock_flight(flight: Flight, expected_version: int | None) -> tuple[Tournament, Flight]:
    """Lock the event (raising its results version), then the flight, in the lock order; a stale
    `expected_version` of the flight is a conflict."""
    tournament = _lock_tournament(flight.tournament)
    _results_changed(tournament.pk)
    flight = Flight.objects.select_for_update().get(pk=flight.pk)
    if expected_version is not None and flight.version != expected_version:
        raise ConflictError(_("%(flight)s was changed by someone else: reload it.") % {"flight": flight.name})
    return tournament, flight
