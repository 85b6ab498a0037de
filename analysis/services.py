"""Writes of the analysis: request it, claim it, run GNU Backgammon, store its figures.

A match stored with its moves (a verified match file) is analysed once the transaction that
stored it commits. Claims are conditional updates, so any number of workers may run: one
analysis is worked on by one worker at a time. A worker that dies leaves its claim silent; once
`CRAWFORD_STALE_SECONDS` pass without a heartbeat the analysis is owed again and the
periodic sweep (or the next request) sends it back to the queue. A file GNU Backgammon refuses
fails on its own and never holds up the others.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.jobs import stale_after
from games.models import Match, MatchFile

from . import gnubg
from .models import AnalysisStatus, Decision, MatchAnalysis, PlayerAnalysis, error_fields
from .signals import analysis_stored, analysis_will_store

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
"""A match whose analysis failed this many times for a reason other than the file stays failed."""


def analysis_program() -> str | None:
    """The GNU Backgammon program analysis runs, or None when analysis is off on this server."""
    if not settings.CRAWFORD_ANALYSIS:
        return None
    return gnubg.find_program(settings.CRAWFORD_GNUBG)


def _plies() -> int:
    return settings.CRAWFORD_ANALYSIS_PLIES



def _enqueue(match_id: int) -> None:
    from .tasks import analyse_match

    try:
        analyse_match.delay(match_id)
    except Exception:  # broker down: the periodic sweep sends it again
        log.warning("Could not queue the analysis of match %s; the sweep will queue it again.", match_id,
                    exc_info=True)


def analysis_request(
    *, match: Match, plies: int | None = None, force: bool = False, enqueue: bool = True
) -> MatchAnalysis | None:
    """Queue the analysis of a match stored with its moves; None when there is nothing to analyse
    (no match file) or analysis is off. A finished analysis is redone only with `force` or at
    another depth. `enqueue=False` leaves it queued for the caller to run (the `analyse` command)."""
    if analysis_program() is None or not MatchFile.objects.filter(
        match=match, games_revision=F("match__games_revision")
    ).exists():
        return None  # nothing to analyse: no file, or one that no longer describes the corrected games
    depth = _plies() if plies is None else plies
    with transaction.atomic():
        analysis, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match=match, defaults={"plies": depth}
        )
        if not created:
            if analysis.status == AnalysisStatus.RUNNING:
                return analysis
            if analysis.status == AnalysisStatus.DONE and analysis.plies == depth and not force:
                return analysis
            analysis.status, analysis.plies, analysis.attempts = AnalysisStatus.QUEUED, depth, 0
            analysis.error, analysis.error_marked, analysis.queued_at = "", {}, timezone.now()
            analysis.save(update_fields=["status", "plies", "attempts", "error", "error_marked", "queued_at"])
        if enqueue:
            transaction.on_commit(lambda: _enqueue(match.pk))
    return analysis


def analysis_claim(*, match_id: int) -> MatchAnalysis | None:
    """Take a queued (or stale) analysis for this worker; None when it is not this worker's."""
    now = timezone.now()
    claimable = Q(status=AnalysisStatus.QUEUED) | Q(
        status=AnalysisStatus.RUNNING, heartbeat_at__lt=now - stale_after()
    )
    # The analysis will describe the games its file describes (those of the match, if it has no file).
    revision = MatchFile.objects.filter(match_id=match_id).values("games_revision")[:1]
    current = Match.objects.filter(pk=match_id).values("games_revision")[:1]
    claimed = MatchAnalysis.objects.filter(claimable, match_id=match_id, attempts__lt=MAX_ATTEMPTS).update(
        status=AnalysisStatus.RUNNING, started_at=now, heartbeat_at=now, attempts=F("attempts") + 1,
        games_revision=Coalesce(Subquery(revision), Subquery(current)),
    )
    return MatchAnalysis.objects.get(match_id=match_id) if claimed == 1 else None


def _side_of(match: Match, names: tuple[str, str], index: int) -> int:
    """Which side of the match GNU Backgammon's player `index` is: by name, else by order."""
    a, b = match.player_a.name.strip().casefold(), match.player_b.name.strip().casefold()
    name = names[index].strip().casefold()
    if name == a and name != b:
        return 0
    if name == b and name != a:
        return 1
    return index


def _store(analysis: MatchAnalysis, result: gnubg.MatchAnalysisResult) -> None:
    match = analysis.match
    sides = [_side_of(match, result.names, i) for i in (0, 1)]
    if sides[0] == sides[1]:
        sides = [0, 1]
    with transaction.atomic():
        analysis_will_store.send(sender=MatchAnalysis, match=match)
        locked = MatchAnalysis.objects.select_for_update().get(pk=analysis.pk)
        if locked.status != AnalysisStatus.RUNNING or locked.started_at != analysis.started_at:
            return  # taken over by another worker meanwhile: its result counts
        locked.sides.all().delete()
        locked.decisions.all().delete()
        PlayerAnalysis.objects.bulk_create(
            PlayerAnalysis(
                analysis=locked, side=side, player_id=match.player_a_id if side == 0 else match.player_b_id,
                total_moves=f.total_moves, unforced_moves=f.unforced_moves, doubtful=f.doubtful, bad=f.bad,
                very_bad=f.very_bad, chequer_error=f.chequer_error, chequer_error_rate=f.chequer_error_rate,
                total_cube_decisions=f.total_cube_decisions, close_cube_decisions=f.close_cube_decisions,
                doubles=f.doubles, takes=f.takes, passes=f.passes, cube_error=f.cube_error,
                cube_error_rate=f.cube_error_rate, error_rate=f.error_rate,
                snowie_error_rate=result.snowie_error_rates[index], pr=f.pr, luck=f.luck, luck_rate=f.luck_rate,
                actual_result=f.actual_result, luck_adjusted_result=f.luck_adjusted_result,
                error_based_fibs_rating=f.error_based_fibs_rating,
            )
            for index, (side, f) in enumerate(zip(sides, result.sides))
        )
        Decision.objects.bulk_create(
            Decision(
                analysis=locked, rank=rank, side=sides[d.side], game=d.game, move=d.move, kind=d.kind, cube=d.cube,
                position_id=d.position_id, match_id=d.match_id, dice="".join(map(str, d.dice or ())),
                played=d.played[:80], best=d.best[:80], equity_lost=d.equity_lost, skill=d.skill[:12],
            )
            for rank, d in enumerate(result.worst, start=1)
        )
        locked.status, locked.finished_at = AnalysisStatus.DONE, timezone.now()
        locked.error, locked.error_marked = "", {}
        locked.save(update_fields=["status", "finished_at", "error", "error_marked"])
        analysis_stored.send(sender=MatchAnalysis, match=match)


def _failed(analysis: MatchAnalysis, error: Exception, *, final: bool) -> None:
    """Store why the analysis failed: a marked error as its message and values, read in each
    reader's language (`MatchAnalysis.error_text`)."""
    text, marked = error_fields(error)
    MatchAnalysis.objects.filter(pk=analysis.pk, status=AnalysisStatus.RUNNING).update(
        status=AnalysisStatus.FAILED if final or analysis.attempts >= MAX_ATTEMPTS else AnalysisStatus.QUEUED,
        finished_at=timezone.now(), error=text, error_marked=marked,
    )


def analysis_run(*, match_id: int) -> MatchAnalysis | None:
    """Claim and run one match's analysis; returns it as stored, or None when it was not ours."""
    return analysis_run_many(match_ids=[match_id]).get(match_id)


def analysis_run_many(*, match_ids: list[int]) -> dict[int, MatchAnalysis]:
    """Claim and analyse several matches in one GNU Backgammon process (what `analyse --all` uses)."""
    program = analysis_program()
    claimed = [a for a in (analysis_claim(match_id=pk) for pk in match_ids) if a is not None]
    if not claimed:
        return {}
    if program is None:
        for analysis in claimed:
            _failed(analysis, gnubg.AnalysisError(gettext_noop("GNU Backgammon is not installed: analysis is off.")), final=True)
        return {a.match_id: MatchAnalysis.objects.get(pk=a.pk) for a in claimed}
    files = dict(MatchFile.objects.filter(match_id__in=[a.match_id for a in claimed]).values_list("match_id", "text"))
    timeout = float(settings.CRAWFORD_ANALYSIS_TIMEOUT) * max(1, len(files))
    by_match = {a.match_id: a for a in claimed}
    def heartbeat() -> None:
        for analysis in claimed:
            MatchAnalysis.objects.filter(
                pk=analysis.pk, status=AnalysisStatus.RUNNING, started_at=analysis.started_at
            ).update(heartbeat_at=timezone.now())

    try:
        results = gnubg.analyse_files(files, plies=claimed[0].plies, program=program, timeout=timeout,
                                      heartbeat=heartbeat, heartbeat_every=stale_after().total_seconds() / 4)
    except gnubg.AnalysisError as error:
        for analysis in claimed:
            _failed(analysis, error, final=False)
        return {pk: MatchAnalysis.objects.get(pk=a.pk) for pk, a in by_match.items()}
    for match_id, analysis in by_match.items():
        analysis = MatchAnalysis.objects.select_related("match__player_a", "match__player_b").get(pk=analysis.pk)
        result = results.get(match_id, gnubg.AnalysisError(gettext_noop("The match file is gone.")))
        if isinstance(result, gnubg.AnalysisError):
            _failed(analysis, result, final=True)
        else:
            _store(analysis, result)
    return {pk: MatchAnalysis.objects.get(pk=a.pk) for pk, a in by_match.items()}


def analysis_owed() -> list[int]:
    """Send back to the queue every analysis that is owed: queued but never taken (a lost task,
    a broker that was down) or claimed by a worker that went silent. Returns their match ids."""
    now = timezone.now()
    owed = MatchAnalysis.objects.filter(
        Q(status=AnalysisStatus.QUEUED, queued_at__lt=now - timedelta(seconds=30))
        | Q(status=AnalysisStatus.RUNNING, heartbeat_at__lt=now - stale_after()),
        attempts__lt=MAX_ATTEMPTS,
    ).values_list("match_id", flat=True)
    ids = list(owed)
    for match_id in ids:
        _enqueue(match_id)
    return ids
