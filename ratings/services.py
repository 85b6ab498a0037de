"""Writes to ratings: requesting, claiming, running and publishing recomputes; importing results.

How a recompute goes:

1. `rating_recompute_request` counts a request for each system and, unless a run is already
   queued, creates a queued `RatingRun` and enqueues the Celery task once the transaction
   commits. A burst of results therefore queues one run.
2. The task calls `rating_run_process`, which claims the run (`rating_run_claim`: a conditional
   UPDATE from queued to running; a partial unique index allows one running run per system,
   so a second worker's claim fails and that run is marked superseded).
3. `rating_run_execute` loads the rated history in one query, rates it with the system's
   engine, writes the new rows tagged with the run (COPY on PostgreSQL, `bulk_create`
   elsewhere), and publishes by flipping the system's published-run pointer in one short
   transaction. Old rows are deleted afterwards. Progress and a heartbeat are written to the
   run row every 10,000 matches, each in its own short transaction.
4. If requests arrived while it ran, the same worker goes again.

A run that raises is marked failed and its rows deleted; the published ratings stay as they
were. A run whose worker died keeps its heartbeat still; the next claim marks it superseded.
The recompute deliberately does not run in one transaction: the rows it writes are invisible
until the pointer flips, and a long transaction would hold back PostgreSQL's vacuum and hide
progress from readers.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import time as time_of_day
from functools import partial

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from config.errors import ConflictError
from games.models import Match, MatchKindChoice, MatchStatus, Player
from games.services import match_create, match_final_score_record, player_get_or_create_by_name

from .models import Rating, RatingChange, RatingRun, RatingSystemState, RunStage, RunStatus
from .systems import SYSTEMS, MatchRecord, RunResult, UnknownRatingSystemError, get_system

WRITE_CHUNK = 100_000
"""Rating changes written between two heartbeats."""

BULK_BATCH = 1_000
"""Rows per INSERT where COPY is not available."""


class RunLostError(RuntimeError):
    """The run was superseded while it worked (its heartbeat went stale): it must not publish."""


def stale_after() -> timedelta:
    """How long a running run may go without a heartbeat before it counts as dead."""
    return timedelta(seconds=getattr(settings, "RATINGS_RUN_STALE_SECONDS", 600))


def system_names(system: str | None = None) -> list[str]:
    """The systems a request is about: the one named, or all. Raises `ValidationError` on a name
    no system goes by."""
    if system in (None, "", "all"):
        return list(SYSTEMS)
    if system not in SYSTEMS:
        try:
            get_system(system)
        except UnknownRatingSystemError as error:
            raise ValidationError({"system": [str(error)]}) from None
    return [system]


def _state(system: str) -> RatingSystemState:
    state, _ = RatingSystemState.objects.get_or_create(system=system)
    return state


# -- requesting ----------------------------------------------------------------------------------


def _enqueue(run_id: int) -> None:
    from .tasks import ratings_recompute

    ratings_recompute.delay(run_id)


def rating_recompute_request(*, system: str | None = None) -> list[RatingRun]:
    """Ask for a recompute of `system` (all systems by default) from the whole history.

    Counts the request; a run already queued answers it, otherwise a new queued run is created
    and the task is enqueued when the surrounding transaction commits. Returns the runs queued
    now (empty when the request joined queued runs)."""
    names = system_names(system)
    now = timezone.now()
    queued = []
    with transaction.atomic():
        for name in names:
            _state(name)
            RatingSystemState.objects.filter(system=name).update(requested=F("requested") + 1)
            free = Q(queued_at__isnull=True) | Q(queued_at__lt=now - stale_after())
            if RatingSystemState.objects.filter(free, system=name).update(queued_at=now) == 1:
                run = RatingRun.objects.create(system=name, requested_at=now)
                transaction.on_commit(partial(_enqueue, run.pk))
                queued.append(run)
    return queued


def rating_recompute_for_match(*, match: Match) -> None:
    """A match's result changed (entered, corrected, deleted, forfeited): once the change is
    committed, request a recompute of every system. Money sessions are never rated."""
    if match.kind == MatchKindChoice.SESSION:
        return
    if connection.in_atomic_block and any(func is rating_recompute_request for _, func, _ in connection.run_on_commit):
        return  # one request per transaction, however many results it changes
    transaction.on_commit(rating_recompute_request)


# -- claiming ------------------------------------------------------------------------------------


def _supersede_stale(system: str, now: datetime) -> int:
    """Mark the system's running runs whose heartbeat went stale as superseded."""
    return RatingRun.objects.filter(system=system, status=RunStatus.RUNNING, heartbeat_at__lt=now - stale_after()).update(
        status=RunStatus.SUPERSEDED,
        finished_at=now,
        error="Its worker stopped reporting progress; a later run replaces it.",
    )


def rating_run_claim(*, run: RatingRun, force: bool = False) -> RatingRun | None:
    """Claim a queued run for this worker: returns it, now running, or None when it is not
    this worker's to run (already claimed, another run of the system is running, or — unless
    `force` — nothing was requested since the last claimed run)."""
    now = timezone.now()
    with transaction.atomic():
        _state(run.system)
        _supersede_stale(run.system, now)
        state = RatingSystemState.objects.select_for_update().get(system=run.system)
        state.queued_at = None
        state.save(update_fields=["queued_at"])
        queued = RatingRun.objects.filter(pk=run.pk, status=RunStatus.QUEUED)
        if not force and state.published_run_id is not None and state.requested <= state.claimed:
            queued.update(status=RunStatus.SUPERSEDED, finished_at=now, error="Nothing changed since the last run.")
            return None
        try:
            with transaction.atomic():
                claimed = queued.update(
                    status=RunStatus.RUNNING,
                    stage=RunStage.LOADING,
                    started_at=now,
                    heartbeat_at=now,
                    covers_requests=state.requested,
                )
        except IntegrityError:
            queued.update(
                status=RunStatus.SUPERSEDED,
                finished_at=now,
                error="Another run of this system was running; it goes again for the requests it missed.",
            )
            return None
        if claimed != 1:
            return None
        state.claimed = state.requested
        state.save(update_fields=["claimed"])
    return RatingRun.objects.get(pk=run.pk)


# -- running -------------------------------------------------------------------------------------


def rated_history() -> list[MatchRecord]:
    """Every rated match in time order, in one query: finished (not forfeited) matches to N
    points marked rated, with a winner, ordered by (played_on, id)."""
    side = Case(When(winner_id=F("player_a_id"), then=Value("a")), default=Value("b"))
    rows = (
        Match.objects.filter(
            kind=MatchKindChoice.MATCH,
            status=MatchStatus.FINISHED,
            rated=True,
            winner__isnull=False,
            forfeited_by__isnull=True,
        )
        .order_by("played_on", "id")
        .annotate(side=side)
        .values_list("id", "played_on", "player_a_id", "player_b_id", "length", "side")
    )
    return [MatchRecord(*row) for row in rows]


def _touch(run_id: int, **fields) -> None:
    """Write progress to a running run (its own short transaction); a run that is no longer
    running has been superseded and must stop."""
    if not RatingRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(heartbeat_at=timezone.now(), **fields):
        raise RunLostError(f"Run {run_id} was superseded while it worked.")


def report_progress(run_id: int, done: int, total: int) -> None:
    """The engine's progress callback: matches rated so far."""
    _touch(run_id, matches_done=done, matches_total=total)


def _rating_rows(run: RatingRun, result: RunResult) -> list[Rating]:
    return [
        Rating(
            run_id=run.pk,
            system=run.system,
            player_id=player,
            rating=r.rating,
            deviation=r.deviation,
            volatility=r.volatility,
            experience=r.experience,
            matches=r.matches,
            last_played=r.last_played,
            provisional=r.provisional,
        )
        for player, r in result.ratings.items()
    ]


CHANGE_COLUMNS = (
    "run_id", "sequence", "match_id", "player_id", "opponent_id", "played_on", "length", "won",
    "rating_before", "rating_after", "deviation_before", "deviation_after", "expected",
)


def _change_rows(run_id: int, records: list[MatchRecord], changes, start: int, stop: int):
    """Rows (in `CHANGE_COLUMNS` order) for the matches records[start:stop]."""
    for sequence in range(start, stop):
        record = records[sequence]
        played_on = record.played_on
        length = record.length
        for c in (changes[2 * sequence], changes[2 * sequence + 1]):
            yield (
                run_id, sequence, c.match_id, c.player, c.opponent, played_on, length, c.won,
                c.rating_before, c.rating_after, c.deviation_before, c.deviation_after, c.expected,
            )


COPY_TYPES = ("int8", "int4", "int8", "int8", "int8", "timestamptz", "int2", "bool",
              "float8", "float8", "float8", "float8", "float8")
"""PostgreSQL types of `CHANGE_COLUMNS`, for a binary COPY."""


def _copy_changes(run_id: int, rows) -> None:
    """Write rating changes with PostgreSQL's binary COPY (psycopg 3): about ten times faster
    than INSERTs for the two rows a match gives."""
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(RatingChange._meta.get_field(c).column) for c in CHANGE_COLUMNS)
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(COPY_TYPES)
            write = copy.write_row
            for row in rows:
                write(row)


def _insert_changes(run_id: int, rows) -> None:
    """Write rating changes with `bulk_create` in batches."""
    objects = [RatingChange(**dict(zip(CHANGE_COLUMNS, row))) for row in rows]
    RatingChange.objects.bulk_create(objects, batch_size=BULK_BATCH)


def store_changes(run: RatingRun, records: list[MatchRecord], result: RunResult) -> None:
    """Write the run's rating changes in chunks, touching the heartbeat between them."""
    write = _copy_changes if connection.vendor == "postgresql" else _insert_changes
    changes = result.changes
    for start in range(0, len(records), WRITE_CHUNK):
        stop = min(start + WRITE_CHUNK, len(records))
        write(run.pk, _change_rows(run.pk, records, changes, start, stop))
        _touch(run.pk)


def store_ratings(run: RatingRun, result: RunResult) -> None:
    """Write the run's current ratings."""
    Rating.objects.bulk_create(_rating_rows(run, result), batch_size=BULK_BATCH)
    _touch(run.pk, players=len(result.ratings))


def publish(run: RatingRun) -> None:
    """Make the run's rows the published ratings of its system, in one short transaction:
    readers see the previous run's rows until it commits and this run's rows after."""
    now = timezone.now()
    with transaction.atomic():
        done = RatingRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING).update(
            status=RunStatus.DONE, stage=RunStage.PUBLISHED, published=True, finished_at=now, heartbeat_at=now
        )
        if done != 1:
            raise RunLostError(f"Run {run.pk} was superseded before it could publish.")
        RatingRun.objects.filter(system=run.system, published=True).exclude(pk=run.pk).update(published=False)
        RatingSystemState.objects.filter(system=run.system).update(published_run=run)


def discard_unpublished_rows(system: str) -> None:
    """Delete the rows of every run of `system` except the published one and a running one."""
    keep = RatingRun.objects.filter(system=system).filter(Q(published=True) | Q(status=RunStatus.RUNNING))
    stale = list(RatingRun.objects.filter(system=system).exclude(pk__in=keep.values("pk")).values_list("pk", flat=True))
    Rating.objects.filter(run_id__in=stale).delete()
    RatingChange.objects.filter(run_id__in=stale).delete()


def _fail(run: RatingRun, error: BaseException) -> None:
    RatingRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING).update(
        status=RunStatus.FAILED, finished_at=timezone.now(), error=f"{type(error).__name__}: {error}"[:2000]
    )
    Rating.objects.filter(run_id=run.pk).delete()
    RatingChange.objects.filter(run_id=run.pk).delete()


def rating_run_execute(*, run: RatingRun) -> RatingRun:
    """Rate the whole history for a claimed (running) run and publish it. On any error the run
    is marked failed, its rows are deleted and the error is raised again; the published ratings
    stay as they were."""
    try:
        records = rated_history()
        _touch(run.pk, stage=RunStage.RATING, matches_total=len(records))
        system = get_system(run.system)
        result = system.run(records, progress=partial(report_progress, run.pk))
        _touch(run.pk, stage=RunStage.WRITING)
        store_ratings(run, result)
        store_changes(run, records, result)
        publish(run)
    except BaseException as error:
        _fail(run, error)
        raise
    discard_unpublished_rows(run.system)
    run.refresh_from_db()
    return run


def _next_run(system: str, covered: int) -> RatingRun | None:
    """A new queued run when requests arrived after the run that covered `covered`."""
    state = _state(system)
    if state.requested <= covered:
        return None
    now = timezone.now()
    RatingSystemState.objects.filter(system=system).update(queued_at=now)
    return RatingRun.objects.create(system=system, requested_at=now)


def rating_run_process(*, run_id: int) -> RatingRun | None:
    """What the Celery task does: claim the run, execute it, and go again while requests
    arrived during it. Returns the last run executed (None when there was nothing to do)."""
    run = RatingRun.objects.filter(pk=run_id).first()
    if run is None:
        return None
    executed = None
    while run is not None:
        claimed = rating_run_claim(run=run)
        if claimed is None:
            return executed
        try:
            executed = rating_run_execute(run=claimed)
        except BaseException:
            follow_up = _next_run(claimed.system, claimed.covers_requests)
            if follow_up is not None:
                _enqueue(follow_up.pk)
            raise
        run = _next_run(claimed.system, claimed.covers_requests)
    return executed


def rating_recompute_now(*, system: str) -> RatingRun:
    """Recompute `system` synchronously (the management command). Raises `ConflictError` while
    another run of the system is running."""
    (name,) = system_names(system)
    run = RatingRun.objects.create(system=name, requested_at=timezone.now())
    claimed = rating_run_claim(run=run, force=True)
    if claimed is None:
        running = RatingRun.objects.filter(system=name, status=RunStatus.RUNNING).first()
        raise ConflictError(f"Run {running.pk if running else '?'} of {name} is in progress; try again when it ends.")
    return rating_run_execute(run=claimed)


# -- importing results ---------------------------------------------------------------------------


RESULT_COLUMNS = ("played_on", "player_a", "player_b", "length", "score_a", "score_b")
"""The columns a results file must have; `event` and `source_id` are optional, others ignored."""


class ResultsFileError(ValueError):
    """A results file has rows that cannot be imported; `problems` lists (line, message)."""

    def __init__(self, problems: list[tuple[int, str]]):
        self.problems = problems
        super().__init__("; ".join(f"line {line}: {message}" for line, message in problems))


@dataclass(frozen=True)
class ResultRow:
    """One valid row of a results file."""

    line: int
    played_on: datetime
    player_a: str
    player_b: str
    length: int
    score_a: int
    score_b: int
    source_key: str


@dataclass
class ImportReport:
    imported: int = 0
    already_there: int = 0
    players_created: list[str] = field(default_factory=list)


def _whole(value: str, what: str) -> int:
    try:
        return int(value.strip())
    except (ValueError, AttributeError):
        raise ValueError(f"{what} must be a whole number, not {value!r}") from None


def _row_problem(raw: dict) -> tuple[str | None, tuple | None]:
    """Check one row; returns (problem, None) or (None, the row's values)."""
    try:
        played_on = datetime.fromisoformat((raw["played_on"] or "").strip())
    except ValueError:
        return f"played_on must be a date such as 2025-03-31, not {raw['played_on']!r}", None
    if timezone.is_naive(played_on):
        played_on = timezone.make_aware(
            played_on if played_on.time() != time_of_day() else datetime.combine(played_on.date(), time_of_day(12))
        )
    name_a = " ".join((raw["player_a"] or "").split())
    name_b = " ".join((raw["player_b"] or "").split())
    if not name_a or not name_b:
        return "both players need a name", None
    if name_a.lower() == name_b.lower():
        return f"{name_a} cannot play himself", None
    try:
        length = _whole(raw["length"], "length")
        score_a = _whole(raw["score_a"], "score_a")
        score_b = _whole(raw["score_b"], "score_b")
    except ValueError as error:
        return str(error), None
    if not 1 <= length <= 99:
        return f"length must be between 1 and 99 points, not {length}", None
    if score_a < 0 or score_b < 0:
        return "scores cannot be negative", None
    if score_a == score_b:
        return f"equal scores ({score_a}-{score_b}) name no winner", None
    if max(score_a, score_b) < length:
        return f"the winner's score {max(score_a, score_b)} is below the length {length}", None
    if min(score_a, score_b) >= length:
        return f"the loser's score {min(score_a, score_b)} reaches the length {length}", None
    return None, (played_on, name_a, name_b, length, score_a, score_b)


def results_file_read(*, text: str) -> list[ResultRow]:
    """Validate every row of a results CSV (header `played_on,player_a,player_b,length,score_a,
    score_b`, optional `event` and `source_id`, other columns ignored). Raises
    `ResultsFileError` listing every bad row by line number."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = [name for name in RESULT_COLUMNS if name not in header]
    if missing:
        raise ResultsFileError([(1, f"the header lacks {', '.join(missing)} (it needs {','.join(RESULT_COLUMNS)})")])
    reader.fieldnames = header
    rows, problems = [], []
    occurrences: dict[str, int] = {}
    for raw in reader:
        line = reader.line_num
        if None in raw or any(raw.get(name) is None for name in RESULT_COLUMNS):
            problems.append((line, "the row has a different number of columns from the header"))
            continue
        problem, values = _row_problem(raw)
        if problem:
            problems.append((line, problem))
            continue
        source_id = (raw.get("source_id") or "").strip()
        if source_id:
            key = f"csv:{source_id}"
        else:
            content = "|".join(
                [values[0].isoformat(), values[1].lower(), values[2].lower(), *map(str, values[3:]),
                 (raw.get("event") or "").strip()]
            )
            occurrences[content] = occurrences.get(content, 0) + 1
            content = f"{content}|{occurrences[content]}"
            key = "csv:" + hashlib.sha256(content.encode()).hexdigest()[:40]
        rows.append(ResultRow(line, *values, key))
    seen: dict[str, int] = {}
    for row in rows:
        if row.source_key in seen:
            problems.append((row.line, f"source_id repeats line {seen[row.source_key]}"))
        seen.setdefault(row.source_key, row.line)
    if problems:
        raise ResultsFileError(sorted(problems))
    return rows


def results_import(*, rows: list[ResultRow], by=None) -> ImportReport:
    """Store valid rows (`results_file_read`) as finished matches, in one transaction: all of
    them or, on any error, none (raised as `ResultsFileError` by line). Rows imported before
    are skipped. One recompute is requested when it commits."""
    report = ImportReport()
    existing = set(
        Match.objects.filter(source_key__in=[row.source_key for row in rows]).values_list("source_key", flat=True)
    )
    players: dict[str, Player] = {}
    with transaction.atomic():
        for row in rows:
            if row.source_key in existing:
                report.already_there += 1
                continue
            try:
                sides = []
                for name in (row.player_a, row.player_b):
                    player = players.get(name.lower())
                    if player is None:
                        player, created = player_get_or_create_by_name(name=name, by=by)
                        players[name.lower()] = player
                        if created:
                            report.players_created.append(player.name)
                    sides.append(player)
                match = match_create(
                    player_a=sides[0], player_b=sides[1], length=row.length, played_on=row.played_on,
                    source="csv", source_key=row.source_key, by=by,
                )
                match_final_score_record(match=match, score_a=row.score_a, score_b=row.score_b, by=by,
                                         reason="imported result")
            except (ValidationError, ConflictError, ValueError) as error:
                message = "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                raise ResultsFileError([(row.line, message)]) from None
            existing.add(row.source_key)
            report.imported += 1
    return report
