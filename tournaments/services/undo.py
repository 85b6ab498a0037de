"""Undo: a walkover, a withdrawal or a result given by mistake, taken back by the TD.

A pairing goes back to the state its history holds from before the mistake (pending, or being
played with its games as they were); what was drawn from it downstream goes, as a correction
would take it (`corrections`). While nothing downstream has started, that happens at once;
once something has, only with `apply_downstream` after the TD has seen the preview
(`undo_preview`). A Swiss draws no match from one result: its later rounds, paired while the
result stood, stay as they are, and the preview names them. The history of every row keeps
what happened, and why.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language, list_join
from games import services as games
from games.keepers import keeper_writes
from games.models import MatchStatus

from .. import draws
from ..models import Entry, EntryStatus, FlightFormat, FlightStatus, Pairing, PairingStatus, ReportStatus, Round
from ..permissions import require_td
from ._base import _lock_pairing, _lock_tournament, _results_changed
from .corrections import _drop_downstream, correction_affected
from .entries import late_entry_refusal, late_seed
from .rounds import _advance

UNDOABLE = (PairingStatus.FINISHED, PairingStatus.WALKOVER)


def undo_preview(*, pairing: Pairing) -> dict:
    """What undoing `pairing`'s result would take away downstream (nothing is written)."""
    affected = _built_on(pairing)
    return {
        "pairing": pairing.pk,
        "slot": pairing.slot,
        "status": pairing.status,
        "needs_confirmation": any(a["started"] for a in affected),
        "affected": affected,
        "left_standing": _left_standing(pairing),
    }


def _left_standing(pairing: Pairing) -> list[dict]:
    """The later rounds of a Swiss, paired while `pairing`'s result stood: an undo removes none of
    their matches (each round is paired from the standings of its day), so they stay as they are."""
    if pairing.status not in UNDOABLE or pairing.flight.format != FlightFormat.SWISS:
        return []
    later = (Round.objects.filter(flight=pairing.flight, number__gt=pairing.round.number)
             .order_by("number").values_list("number", flat=True))
    return [{"flight": pairing.flight.name, "round": number} for number in later]


def _built_on(pairing: Pairing) -> list[dict]:
    """The pairings drawn from `pairing`'s result: those that no longer follow without it."""
    if pairing.status not in UNDOABLE:
        return []
    return correction_affected(pairing=pairing, winner_id=None)


class DownstreamStarted(ValidationError):
    """An undo refused because matches drawn from the result have started: `started` names them
    ("Main R2-1", ...), for a page to say so in its own words; the message speaks to the API."""

    def __init__(self, pairing: Pairing, started: list[dict]):
        self.started = [f"{a['flight']} {a['slot']}" for a in started]
        super().__init__({"apply_downstream": [
            _("Matches drawn from %(flight)s %(match)s have started (%(listed)s): look at the preview and confirm "
              "with apply_downstream to take them away too.")
            % {"flight": pairing.flight.name, "match": pairing.slot, "listed": list_join(self.started)}]})


class WithdrawalStands(ValidationError):
    """A walkover's undo refused because its loser has withdrawn: the walkover comes back with the
    withdrawal's undo (`entry_withdraw_undo` of `entry`), which a page offers in its place."""

    def __init__(self, entry: Entry):
        self.entry = entry
        super().__init__({"non_field_errors": [
            _("%(player)s has withdrawn: undo the withdrawal, which brings this match back too.")
            % {"player": entry.player.name}]})


def _check_downstream(pairing: Pairing, affected: list[dict], apply_downstream: bool) -> None:
    started = [a for a in affected if a["started"]]
    if started and not apply_downstream:
        raise DownstreamStarted(pairing, started)


def _state_before(pairing: Pairing):
    """The pairing's last version that had no result: what it goes back to."""
    return (pairing.history.filter(status__in=[PairingStatus.PENDING, PairingStatus.PLAYING])
            .order_by("-history_date", "-history_id").first())


def _reopen(pairing: Pairing, *, by, reason: str) -> Pairing:
    """Put a decided pairing back as it stood before its result; the caller holds the locks."""
    before = _state_before(pairing)
    match = pairing.match
    if match is not None:
        with keeper_writes(match):
            if match.status == MatchStatus.FORFEITED:
                match = games.match_forfeit_undo(match=match, by=by, reason=reason)
            elif match.status == MatchStatus.FINISHED and not match.games.exists():
                match = games.match_final_score_undo(match=match, by=by, reason=reason)
            elif match.status == MatchStatus.FINISHED:
                match = games.game_delete_last(match=match, by=by, reason=reason)
    made_for_result = before is not None and before.match_id is None and match is not None
    if made_for_result and not match.games.exists():
        # The match was made only to hold this result: it goes (its history keeps it).
        pairing.match = None
        pairing.save(update_fields=["match"])
        match._history_user = by
        match._change_reason = reason
        match.delete()
        match = None
    pairing.match = match
    pairing.status = PairingStatus.PLAYING if match is not None else PairingStatus.PENDING
    pairing.winner = None
    pairing.score_a = pairing.score_b = None
    pairing.decided_at = None
    pairing.walkover_reason = ""
    pairing.table = before.table if before is not None else pairing.table
    pairing.version += 1
    pairing._history_user = by
    pairing._change_reason = reason[:100]
    pairing.save()
    pairing.reports.filter(status=ReportStatus.CONFIRMED).update(status=ReportStatus.SUPERSEDED)
    return pairing


def _refused(pairing: Pairing, message: str) -> ValidationError:
    """`message` names the match as %(match)s."""
    return ValidationError({"non_field_errors": [message % {"match": f"{pairing.flight.name} {pairing.slot}"}]})


def _undo(pairing: Pairing, *, by, reason: str, apply_downstream: bool, expected_version: int | None,
          check) -> Pairing:
    """The undo of a pairing's result: lock the event and the pairing, let `check(pairing)` refuse,
    take away what was drawn from the result (`_check_downstream`), reopen, and let the draw go on."""
    require_td(by, pairing.flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(pairing.flight.tournament)
        _results_changed(tournament.pk)
        pairing = _lock_pairing(pairing, expected_version)
        check(pairing)
        affected = _built_on(pairing)
        _check_downstream(pairing, affected, apply_downstream)
        _drop_downstream(affected, by=by)
        pairing = _reopen(pairing, by=by, reason=reason)
        _advance(tournament, pairing.flight, by=by)
    return pairing


def pairing_walkover_undo(*, pairing: Pairing, by, reason: str = "", apply_downstream: bool = False,
                          expected_version: int | None = None) -> Pairing:
    """Take back a walkover or no-show given by mistake: the match is open again, with the games
    already played as they were. A walkover that follows a withdrawal is taken back by undoing
    the withdrawal (`entry_withdraw_undo`)."""

    def check(pairing: Pairing) -> None:
        if pairing.status != PairingStatus.WALKOVER:
            raise _refused(pairing, _("%(match)s is not a walkover: there is no walkover to undo."))
        loser_id = pairing.player_b_id if pairing.winner_id == pairing.player_a_id else pairing.player_a_id
        withdrawn = Entry.objects.filter(flight__in=draws.unit_of(pairing.flight), player_id=loser_id,
                                         status=EntryStatus.WITHDRAWN).select_related("player").first()
        if withdrawn is not None:
            raise WithdrawalStands(withdrawn)

    return _undo(pairing, by=by, reason=reason or in_site_language(gettext_noop("walkover undone")), apply_downstream=apply_downstream,
                 expected_version=expected_version, check=check)


def result_undo(*, pairing: Pairing, by, reason: str = "", apply_downstream: bool = False,
                expected_version: int | None = None) -> Pairing:
    """Take back a result entered by mistake: the match is open again as it was before it (a
    final score goes; of a match entered game by game, the last game goes)."""

    def check(pairing: Pairing) -> None:
        if pairing.status == PairingStatus.WALKOVER:
            raise _refused(pairing, _("%(match)s is a walkover: undo the walkover instead."))
        if pairing.status != PairingStatus.FINISHED:
            raise _refused(pairing, _("%(match)s has no result to undo."))

    return _undo(pairing, by=by, reason=reason or in_site_language(gettext_noop("result undone")), apply_downstream=apply_downstream,
                 expected_version=expected_version, check=check)


def pairing_undo(*, pairing: Pairing, by, reason: str = "", apply_downstream: bool = False,
                 expected_version: int | None = None) -> Pairing:
    """Take back whatever decided `pairing`, a walkover or a result: the TD's one "Undo"."""
    undo = pairing_walkover_undo if pairing.status == PairingStatus.WALKOVER else result_undo
    return undo(pairing=pairing, by=by, reason=reason, apply_downstream=apply_downstream,
                expected_version=expected_version)


def entry_withdraw_undo(*, entry: Entry, by, reason: str = "", apply_downstream: bool = False) -> Entry:
    """Take back a withdrawal given by mistake: the player is in again, and every walkover his
    withdrawal gave is undone (with what was drawn from it, as `pairing_walkover_undo`).

    A player who withdrew before the draw is in none of its matches: he comes back only where the
    format takes a late entry (a Swiss with a round still to draw, seeded after everyone, on 0
    points from the next round); anywhere else the undo is refused with the reason."""
    require_td(by, entry.tournament)
    reason = reason or in_site_language(gettext_noop("withdrawal undone"))
    with transaction.atomic():
        tournament = _lock_tournament(entry.tournament)
        _results_changed(tournament.pk)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status != EntryStatus.WITHDRAWN:
            raise ConflictError(_("%(player)s has not withdrawn: there is no withdrawal to undo.")
                    % {"player": entry.player.name})
        since = (entry.history.filter(status=EntryStatus.WITHDRAWN).order_by("-history_date", "-history_id")
                 .values_list("history_date", flat=True).first())
        before = (entry.history.exclude(status=EntryStatus.WITHDRAWN).order_by("-history_date", "-history_id")
                  .values_list("status", flat=True).first())
        if entry.flight.status == FlightStatus.DRAFT:
            raise ValidationError({"non_field_errors": [
                _("%(flight)s has not been drawn: enter %(player)s again instead.")
                        % {"flight": entry.flight.name, "player": entry.player.name}]})
        flights = draws.unit_of(entry.flight)
        drawn = Pairing.objects.filter(Q(player_a=entry.player) | Q(player_b=entry.player), flight__in=flights)
        if not drawn.exists():
            refusal = late_entry_refusal(entry.flight)
            if refusal:
                raise ValidationError({"non_field_errors": [
                    _("%(player)s withdrew before %(flight)s was drawn and is in none of its matches. %(refusal)s")
                            % {"player": entry.player.name, "flight": entry.flight.name, "refusal": refusal}]})
            entry.status, entry.late, entry.seed = EntryStatus.CHECKED_IN, True, late_seed(entry.flight, entry)
            entry._history_user = by
            entry._change_reason = in_site_language(gettext_noop("%(reason)s: a late entry"), {"reason": reason})[:100]
            entry.save()
            _advance(tournament, entry.flight, by=by)
            return entry
        walkovers = Pairing.objects.select_for_update(of=("self",)).filter(
            Q(player_a=entry.player) | Q(player_b=entry.player), flight__in=flights,
            status=PairingStatus.WALKOVER, walkover_reason="",
        ).exclude(winner=entry.player).select_related("flight", "round", "player_a", "player_b", "match")
        if since is not None:
            walkovers = walkovers.filter(decided_at__gte=since)
        walkovers = list(walkovers)
        affected = {a["pairing"]: a for p in walkovers for a in _built_on(p)}
        given = {p.pk for p in walkovers}
        started = [a for key, a in affected.items() if a["started"] and key not in given]
        if started and not apply_downstream:
            listed = list_join(f"{a['flight']} {a['slot']}" for a in started)
            raise ValidationError({"apply_downstream": [
                _("Matches drawn after %(player)s's withdrawal have started (%(listed)s): look at the "
                          "undo-preview of his walkovers and confirm with apply_downstream to take them away too.")
                        % {"player": entry.player.name, "listed": listed}]})
        entry.status = before or EntryStatus.CHECKED_IN
        entry._history_user = by
        entry._change_reason = reason
        entry.save()
        _drop_downstream(list(affected.values()), by=by)
        for pairing in walkovers:
            if pairing.pk not in affected:  # one drawn from another of them has just gone
                _reopen(pairing, by=by, reason=reason)
        _advance(tournament, entry.flight, by=by)
    return entry
