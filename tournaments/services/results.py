"""Results: reported by a player or the TD, confirmed, disputed, overridden, applied to the draw."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language, list_join
from games import services as games
from games.keepers import keeper_writes
from games.engine.errors import ScoringError
from games.engine.final_score import check_final_score, improbable_final_cube
from games.engine.scoring import (
    GameEnd,
    MatchRules,
    MatchScore,
)
from games.models import Match

from ..models import (
    REPORTS_PER_PAIRING_MAX,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
)
from ..permissions import acting_side, is_td, require_td
from ._base import (
    _check_playable,
    _check_version,
    _lock_pairing,
    _lock_tournament,
    _match_for,
    _next_version,
    _results_changed,
    _supersede_open,
)
from .corrections import _drop_downstream, correction_affected
from .rounds import _advance
from .notifications import report_announce


def _games_input(pairing: Pairing, games_list) -> list[games.GameInput]:
    """The score sheet of a report (winner and cube owner as player ids) as the games services take it."""
    sides = {pairing.player_a_id: 0, pairing.player_b_id: 1}
    out = []
    for number, game in enumerate(games_list, start=1):
        if not isinstance(game, dict):
            raise ValidationError({"games": [_("Game %(number)s: give winner, and optionally end, kind, cube.")
                    % {"number": number}]})
        if game.get("winner") not in sides:
            raise ValidationError({"games": [_("Game %(number)s: the winner must be one of the two players (their id).")
                    % {"number": number}]})
        owner = game.get("cube_owner")
        if owner is not None and owner not in sides:
            raise ValidationError({"games": [_("Game %(number)s: the cube owner must be one of the two players.")
                    % {"number": number}]})
        sheet_game = games.GameInput(
            winner=sides[game["winner"]], end=game.get("end", GameEnd.PLAYED_OUT.value), kind=game.get("kind", "single"),
            cube=int(game.get("cube", 1)), cube_owner=None if owner is None else sides[owner], points=game.get("points"),
        )
        try:
            sheet_game.outcome()
        except ScoringError as error:
            message = error.message[0].lower() + error.message[1:]
            raise ValidationError({"games": [_("Game %(number)s: %(message)s")
                    % {"number": number, "message": message}]}) from None
        out.append(sheet_game)
    return out


def _check_result(pairing: Pairing, score_a, score_b, games_list) -> tuple[int, int, list | None]:
    """The final score of a report, checked against the rules of a match of this round's length."""
    length = pairing.round.length or 1
    rules = MatchRules(length=length, cube_cap=pairing.flight.tournament.cube_cap)
    if games_list:
        sheet = MatchScore(rules)
        for number, game in enumerate(_games_input(pairing, games_list), start=1):
            try:
                sheet.record(game.outcome())
            except ScoringError as error:
                raise ValidationError({"games": [_("Game %(number)s: %(message)s")
                        % {"number": number, "message": error.message}]}) from None
        if not sheet.finished:
            a, b = sheet.score
            raise ValidationError({"games": [_("These games end %(a)s-%(b)s: the %(length)s-point match is not over.")
                    % {"a": a, "b": b, "length": length}]})
        final = sheet.score
        if (score_a, score_b) not in ((None, None), final):
            raise ValidationError({"score_a": [_("The games add up to %(final_a)s-%(final_b)s, not "
                      "%(score_a)s-%(score_b)s.")
                    % {"final_a": final[0], "final_b": final[1], "score_a": score_a, "score_b": score_b}]})
        return final[0], final[1], list(games_list)
    if score_a is None or score_b is None:
        raise ValidationError({"score_a": [_("Give the final score (score_a and score_b) or the games.")]})
    try:
        check_final_score(length, (score_a, score_b), cube_cap=rules.cube_cap)
    except ScoringError as error:
        raise ValidationError({error.field: [error.message]}) from None
    so_far = _sheet_so_far(pairing)
    if so_far is not None and (score_a < so_far[0] or score_b < so_far[1]):
        raise ValidationError({"score_a" if score_a < so_far[0] else "score_b": [
            _("The score sheet of %(match)s already has %(score_a)s-%(score_b)s: the final score cannot be lower.")
            % {"match": pairing.slot, "score_a": so_far[0], "score_b": so_far[1]}]})
    return score_a, score_b, None


def _sheet_so_far(pairing: Pairing) -> tuple[int, int] | None:
    """The score of the games on the score sheet of a match still being played, or None when it
    has none: a final score typed from the slip replaces them, and may not be lower."""
    match = pairing.match if pairing.match_id else None
    if match is None or match.finished or not match.games.exists():
        return None
    return match.score_a, match.score_b


class ImprobableScore(ValidationError):
    """A TD's final score the rules allow but whose last game needs a cube of 8 or more (55-3 in a
    9-point match): not stored until he confirms it (`improbable_confirmed`), since a slip more
    often holds a slip of the pen. The field at fault is the winner's."""

    def __init__(self, pairing: Pairing, score_a: int, score_b: int, cube: int):
        self.scores = (score_a, score_b)
        super().__init__({"score_a" if score_a > score_b else "score_b": [
            _("%(score_a)s-%(score_b)s needs a cube of %(cube)s or more in the last game of a %(length)s-point "
              "match: check the slip, then confirm to record it.")
            % {"score_a": score_a, "score_b": score_b, "cube": cube, "length": pairing.round.length or 1}]})


def _ask_if_improbable(pairing: Pairing, score_a: int, score_b: int) -> None:
    length, cap = pairing.round.length or 1, pairing.flight.tournament.cube_cap
    cube = improbable_final_cube(length, (score_a, score_b), cube_cap=cap)
    if cube is not None:
        raise ImprobableScore(pairing, score_a, score_b, cube)


def _sheet_cleared(match, *, by, reason: str):
    """Every game of `match`'s score sheet deleted, last first (each kept in its history), under
    the match's keeper; `reason` is an English message marked with `gettext_noop`."""
    reason = in_site_language(reason)
    with keeper_writes(match):
        for _game in range(match.games.count()):
            match = games.game_delete_last(match=match, by=by, reason=reason)
    return match


class ResultConflict(ConflictError):
    """A result typed before another one reached the match (a Save kept while the network was
    down, sent when it returned): both scores, so that the person who typed it can choose."""

    def __init__(self, message: str, *, pairing: Pairing, stored: tuple, sent: tuple, state: str):
        super().__init__(message)
        self.pairing = pairing
        self.stored = stored
        self.sent = sent
        self.state = state
        """What the match holds: `finished`, `walkover` or `reported` (a player's open report)."""


def result_arrival(*, pairing: Pairing, score_a: int | None, score_b: int | None, by=None,
                   code: str | None = None) -> bool:
    """Judge a result typed earlier that arrives now on what the match holds, not on its version
    (a table call or a notice raises the version; neither is a reason to refuse a score).

    The pairing is locked by the caller. True when the match already has this very result (there
    is nothing to store); `ResultConflict` when it has another one: decided with another score or
    by walkover, or, for a TD (`by` without a slip's `code`), a player's open report of another
    score. False: it may be stored.
    """
    sent = (score_a, score_b)
    if pairing.decided:
        if pairing.status == PairingStatus.FINISHED and (pairing.score_a, pairing.score_b) == sent:
            return True
        state = "walkover" if pairing.status == PairingStatus.WALKOVER else "finished"
        stored = (pairing.score_a, pairing.score_b)
        if state == "walkover":
            winner = pairing.player_a if pairing.winner_id == pairing.player_a_id else pairing.player_b
            message = _("%(slot)s was given to %(winner)s by walkover meanwhile; you typed %(a)s–%(b)s.") % {
                "slot": pairing.slot, "winner": winner.name, "a": score_a, "b": score_b}
        else:
            message = _("%(slot)s was recorded meanwhile as %(sa)s–%(sb)s; you typed %(a)s–%(b)s.") % {
                "slot": pairing.slot, "sa": stored[0], "sb": stored[1], "a": score_a, "b": score_b}
        raise ResultConflict(message, pairing=pairing, stored=stored, sent=sent, state=state)
    if code is None and by is not None:
        report = (pairing.reports.filter(status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED])
                  .select_related("submitted_for").first())
        # who sent it is asked only when there is a report to meet (most Saves meet none)
        if report is not None and (report.score_a, report.score_b) != sent and is_td(by, pairing.flight.tournament):
            who = report.submitted_for.name if report.submitted_for is not None else _("a TD")
            message = _("%(who)s reported %(slot)s meanwhile as %(sa)s–%(sb)s; you typed %(a)s–%(b)s.") % {
                "who": who, "slot": pairing.slot, "sa": report.score_a, "sb": report.score_b,
                "a": score_a, "b": score_b}
            raise ResultConflict(message, pairing=pairing, stored=(report.score_a, report.score_b), sent=sent,
                                 state="reported")
    return False


def result_report(
    *, pairing: Pairing, by=None, code: str | None = None, score_a: int | None = None, score_b: int | None = None,
    games=None, note: str = "", expected_version: int | None = None, held: bool = False,
    improbable_confirmed: bool = False,
) -> ResultReport:
    """A player of the match (or a TD) reports its result: the games, or the final score only.

    A player's report waits for the opponent to confirm or dispute it; a TD's counts at once.
    A second report before confirmation is a new version; the earlier one is kept, superseded.
    With `code` (the code on a player's half of the slip) it is that player's report, whoever
    sends it (`permissions.acting_side`); a wrong code raises `permissions.WrongSlipCode`.

    A TD's final score whose last game needs a cube of 8 or more raises `ImprobableScore` unless
    `improbable_confirmed` (he checked the slip); a player's report is checked by his opponent.

    `held`: the caller's transaction already holds the event's and the match's locks, and
    `pairing` is the row it locked (`idempotency.save_once` hands its writes that): they are not
    taken a second time, and a refusal rolls back to the caller's savepoint.
    """
    with transaction.atomic(savepoint=not held):
        _results_changed(pairing.flight.tournament_id)  # its UPDATE locks the tournament row first
        if held:
            _check_version(pairing, expected_version)
        else:
            pairing = _lock_pairing(pairing, expected_version)
        if code is not None and pairing.decided:
            raise ConflictError(_decided_for_code(pairing))
        td, side = acting_side(by, pairing, code)
        if side is None and not td:
            raise PermissionDenied(_("Only the two players of this match or a TD may report its result."))
        _check_playable(pairing)
        if pairing.decided:
            raise ConflictError(_("%(match)s already has a result: ask a TD to correct it.") % {"match": pairing.slot})
        if not td and ResultReport.objects.filter(pairing=pairing).count() >= REPORTS_PER_PAIRING_MAX:
            raise ValidationError({"non_field_errors": [
                _("%(match)s already has %(reports_per_pairing_max)s reported versions: ask a TD to enter the result.")
                        % {"match": pairing.slot, "reports_per_pairing_max": REPORTS_PER_PAIRING_MAX}]})
        score_a, score_b, sheet = _check_result(pairing, score_a, score_b, games)
        if side is None and sheet is None and not improbable_confirmed:
            _ask_if_improbable(pairing, score_a, score_b)
        _supersede_open(pairing)
        report = ResultReport(
            pairing=pairing, version=_next_version(pairing), score_a=score_a, score_b=score_b,
            winner_id=pairing.player_a_id if score_a > score_b else pairing.player_b_id, games=sheet,
            by_td=side is None, submitted_by=None if code is not None else by, submitted_with_code=code is not None,
            note=note, submitted_for=None if side is None else (pairing.player_a if side == 0 else pairing.player_b),
        )
        report._history_user = by
        pairing.version += 1
        if side is None:  # a TD's report counts at once: stored confirmed, the pairing saved once, with its result
            _mark_confirmed(report, by=by)
            _save_report(report)
            _apply(pairing, report, by=by)
        else:
            _save_report(report)
            pairing.save(update_fields=["version"])
            report_announce(report_id=report.pk)
    return report


def _save_report(report: ResultReport) -> None:
    try:
        with transaction.atomic():
            report.save()
    except IntegrityError:
        raise ConflictError(_("Someone else reported this match at the same moment: reload it.")) from None


def _decided_for_code(pairing: Pairing) -> str:
    return (_("%(flight)s %(match)s already has a result: the codes on its slip no longer work. If the result is "
              "wrong, ask a TD to correct it.") % {"flight": pairing.flight.name, "match": pairing.slot})


def _mark_confirmed(report: ResultReport, *, by, with_code: bool = False) -> None:
    report.status = ReportStatus.CONFIRMED
    report.confirmed_by = None if with_code else by
    report.confirmed_with_code = with_code
    report.confirmed_at = timezone.now()
    report._history_user = by


def _confirm(report: ResultReport, pairing: Pairing, *, by, with_code: bool = False) -> None:
    _mark_confirmed(report, by=by, with_code=with_code)
    report.save()
    _apply(pairing, report, by=by)


def result_confirm(*, report: ResultReport, by=None, code: str | None = None) -> ResultReport:
    """The opponent (or a TD) agrees with a reported result: it counts, and the players move on.
    With `code`, the player whose slip code it is confirms (see `result_report`)."""
    with transaction.atomic():
        _results_changed(report.pairing.flight.tournament_id)  # its UPDATE locks the tournament row first
        pairing = _lock_pairing(report.pairing, None)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        if code is not None and pairing.decided:
            raise ConflictError(_decided_for_code(pairing))
        td, side = acting_side(by, pairing, code)
        reporter = None if report.submitted_for_id is None else (0 if report.submitted_for_id == pairing.player_a_id else 1)
        if not td and (side is None or side == reporter):
            raise PermissionDenied(_("The opponent of the player who reported it (or a TD) confirms a result."))
        if pairing.decided:
            raise ConflictError(_decided_meanwhile(pairing))
        if report.status != ReportStatus.PENDING and not (td and report.status == ReportStatus.DISPUTED):
            raise ConflictError(_("This report is %(status)s: it cannot be confirmed.")
                    % {"status": report.get_status_display().lower()})
        _confirm(report, pairing, by=None if code is not None else by, with_code=code is not None)
        pairing.version += 1
        pairing.save(update_fields=["version"])
    return report


def _decided_meanwhile(pairing: Pairing) -> str:
    result = f" ({pairing.score_a}-{pairing.score_b})" if pairing.score_a is not None else ""
    return (_("%(flight)s %(match)s has a result%(result)s entered after this report, which no longer counts: if "
              "that result is wrong, ask a TD to correct it.")
            % {"flight": pairing.flight.name, "match": pairing.slot, "result": result})


def result_dispute(*, report: ResultReport, by=None, code: str | None = None, reason: str = "") -> ResultReport:
    """The opponent says the reported result is wrong: it goes to the TD's queue. With `code`, the
    player whose slip code it is disputes (see `result_report`)."""
    with transaction.atomic():
        _results_changed(report.pairing.flight.tournament_id)
        pairing = _lock_pairing(report.pairing, None)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        if code is not None and pairing.decided:
            raise ConflictError(_decided_for_code(pairing))
        _td, side = acting_side(by, pairing, code)
        reporter = None if report.submitted_for_id is None else (0 if report.submitted_for_id == pairing.player_a_id else 1)
        if side is None or side == reporter:
            raise PermissionDenied(_("Only the opponent of the player who reported it can dispute a result."))
        if pairing.decided and report.status != ReportStatus.CONFIRMED:
            raise ConflictError(_decided_meanwhile(pairing))
        if report.status != ReportStatus.PENDING:
            raise ConflictError(_("This report is %(status)s: it cannot be disputed.")
                    % {"status": report.get_status_display().lower()})
        if not reason.strip():
            raise ValidationError({"reason": [_("Say what is wrong with the result, for the TD.")]})
        report.status = ReportStatus.DISPUTED
        report.disputed_by = None if code is not None else by
        report.dispute_reason = reason.strip()
        report._history_user = by
        report.save()
        pairing.version += 1
        pairing.save(update_fields=["version"])
    return report


def result_override(
    *, pairing: Pairing, by, score_a: int | None = None, score_b: int | None = None, games=None,
    note: str = "", apply_downstream: bool = False, expected_version: int | None = None,
) -> ResultReport:
    """A TD rules on a result: settles a dispute or corrects a confirmed result.

    When the new winner changes later matches that have started, nothing is done unless
    `apply_downstream` is set (see `selectors.correction_preview` for what it changes).
    """
    require_td(by, pairing.flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(pairing.flight.tournament)
        _results_changed(tournament.pk)
        pairing = _lock_pairing(pairing, expected_version)
        _check_playable(pairing)
        if pairing.status == PairingStatus.WALKOVER:
            raise ValidationError({"non_field_errors": [_("A walkover stands: the player withdrew.")]})
        score_a, score_b, sheet = _check_result(pairing, score_a, score_b, games)
        winner_id = pairing.player_a_id if score_a > score_b else pairing.player_b_id
        if pairing.decided and winner_id != pairing.winner_id:
            affected = correction_affected(pairing=pairing, winner_id=winner_id)
            started = [a for a in affected if a["started"]]
            if started and not apply_downstream:
                listed = list_join(f"{a['flight']} {a['slot']}" for a in started)
                raise ValidationError({"apply_downstream": [
                    _("This correction changes matches already started (%(listed)s): look at the preview and "
                              "confirm with apply_downstream.")
                            % {"listed": listed}]})
            _drop_downstream(affected, by=by)
        if pairing.decided:
            pairing.reports.filter(status=ReportStatus.CONFIRMED).update(status=ReportStatus.SUPERSEDED)
        _supersede_open(pairing)
        report = ResultReport(
            pairing=pairing, version=_next_version(pairing), score_a=score_a, score_b=score_b, winner_id=winner_id,
            games=sheet, by_td=True, override=True, submitted_by=by, note=note,
        )
        report._history_user = by
        _save_report(report)
        _confirm(report, pairing, by=by)
        pairing.version += 1
        pairing.save(update_fields=["version"])
    return report


def _apply(pairing: Pairing, report: ResultReport, *, by) -> None:
    """Make a confirmed report the pairing's result and move the players on."""
    if report.games:
        sheet = _games_input(pairing, report.games)
        match = pairing.match
        if match is not None and match.games.exists():
            if pairing.decided or match.finished:
                match = _sheet_cleared(match, by=by, reason=gettext_noop("result corrected by a TD"))
            else:
                raise ValidationError({"games": [
                    _("Games are being entered on match %(pk)s: finish the match there.") % {"pk": match.pk}]})
        if match is None:
            match = _match_for(pairing, by=by)
        with keeper_writes(match):
            for number, game in enumerate(sheet, start=1):
                match = games.game_record(match=match, number=number, game=game, by=by)
        pairing.match = match
    else:
        match = pairing.match
        if match is not None and match.games.exists():
            if match.finished:
                raise ValidationError({"games": [
                    _("Match %(match_id)s was recorded game by game: correct it with its games.")
                            % {"match_id": pairing.match_id}]})
            # the slip's final score replaces the games entered so far
            match = _sheet_cleared(match, by=by, reason=gettext_noop("the final score from the slip replaces the games so far"))
        if match is None:
            match = _match_for(pairing, by=by)
        with keeper_writes(match):
            pairing.match = games.match_final_score_record(
                match=match, score_a=report.score_a, score_b=report.score_b, by=by, reason=in_site_language(gettext_noop("result report")),
            )
    pairing.score_a, pairing.score_b = report.score_a, report.score_b
    pairing.winner_id = report.winner_id
    pairing.status = PairingStatus.FINISHED
    pairing.decided_at = timezone.now()
    pairing._history_user = by
    pairing.save()
    _advance(pairing.flight.tournament, pairing.flight, by=by)


def pairing_analysis_will_store(*, match: Match) -> None:
    """The analysis is about to store `match`'s figures: when the match decides a pairing, the
    event's results version goes up in that transaction (its standings may count the PRs), which
    locks the tournament before the analysis row, in the lock order of this package."""
    tournament_id = Pairing.objects.filter(match_id=match.pk).values_list("flight__tournament_id", flat=True).first()
    if tournament_id is not None:
        _results_changed(tournament_id)
