"""Importing results: a CSV of finished matches, checked row by row and stored as matches, from
the command line (`import_results`), the API, or a background job.

The matches it creates are rated: each chunk writes its change to the ratings' outbox in its own
transaction, and the runs are asked for once at the end: games tells whoever listens
(`games.signals.results_imported`, `results_import_finished`; the ratings do)."""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field
from datetime import UTC, datetime
from datetime import time as time_of_day

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .engine.errors import ScoringError
from .engine.final_score import check_final_score
from .imports import ImportProblems
from .models import Match, MatchKindChoice, MatchStatus
from .services import AmbiguousNamesError, NearNamesError, players_get_or_create_by_names
from .signals import results_import_finished, results_imported


RESULT_COLUMNS = ("played_on", "player_a", "player_b", "length", "score_a", "score_b")
"""The columns a results file must have; `event`, `source_id` and `new_player` are optional,
others ignored."""

YES = frozenset({"yes", "y", "true", "1", "x"})
NO = frozenset({"", "no", "n", "false", "0"})
"""What the `new_player` column may hold."""


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
    score_a: int | None  # both None: no final score given, player_a won
    score_b: int | None
    source_key: str
    legacy_keys: tuple[str, ...] = ()
    """The keys earlier versions gave the same row (without the sheet; before that, in the site's
    time zone): a match stored under one of them is this row, and takes its key on the first
    import that finds it, so that another sheet's same result is no longer taken for it."""
    sheet_tag: str | None = None
    """The sheet's part of the key (None when the file gives `source_id`)."""
    new_player: bool = False
    """The file says the row's names that are nobody's are new players, even near another's."""

    @property
    def a_won(self) -> bool:
        return self.score_a is None or self.score_a > self.score_b


@dataclass
class ImportReport:
    imported: int = 0
    already_there: int = 0
    players_created: list[str] = field(default_factory=list)
    not_in_sheet: list[int] = field(default_factory=list)
    """Matches imported from the same sheet before that no row of it holds now (a row the club
    corrected or removed since): they stay stored, for a person to correct or withdraw."""


def sheet_tag(sheet: str) -> str:
    """The part of a row's key that names its sheet: the file's name (or the name given for it),
    in any case and spacing."""
    return hashlib.sha256(("sheet " + " ".join(sheet.split()).lower()).encode()).hexdigest()[:12]


def _whole(value: str, what: str) -> int:
    try:
        return int(value.strip())
    except (ValueError, AttributeError):
        raise ValueError(_("%(column)s must be a whole number, not %(value)s") % {"column": what, "value": repr(value)}) from None


def results_file_decode(data: bytes) -> tuple[str, str | None]:
    """The text of an uploaded results file: UTF-8 (with or without a byte order mark), or else
    Windows-1252, as spreadsheets on Windows save CSV. Returns (text, a note when it was not UTF-8)."""
    if b"\x00" in data:
        raise ResultsFileError([(1, _("this is not a text file (it holds NUL bytes): save it as CSV UTF-8"))])
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), _("the file is not UTF-8: it was read as Windows-1252 (Western European)")
    except UnicodeDecodeError:
        raise ResultsFileError([(1, _("the file is neither UTF-8 nor Windows-1252 text; save it as CSV UTF-8"))]) from None


def _played_on(text: str) -> datetime:
    """ISO dates (2025-03-31, with a time if wanted), or day.month.year (31.03.2025)."""
    text = text.strip()
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return datetime.strptime(text, "%d.%m.%Y")


def _row_problem(raw: dict) -> tuple[str | None, tuple | None]:
    """Check one row; returns (problem, None) or (None, the row's values)."""
    try:
        played_on = _played_on(raw["played_on"] or "")
    except ValueError:
        return (_("played_on must be a date such as 2025-03-31 or 31.03.2025, not %(value)s")
                % {"value": repr(raw["played_on"])}), None
    if timezone.is_naive(played_on):
        played_on = timezone.make_aware(
            played_on if played_on.time() != time_of_day() else datetime.combine(played_on.date(), time_of_day(12))
        )
    name_a = " ".join((raw["player_a"] or "").split())
    name_b = " ".join((raw["player_b"] or "").split())
    if not name_a or not name_b:
        return _("both players need a name"), None
    if name_a.lower() == name_b.lower():
        return _("%(name)s cannot play himself") % {"name": name_a}, None
    try:
        length = _whole(raw["length"], "length")
    except ValueError as error:
        return str(error), None
    if not 1 <= length <= 99:
        return _("length must be between 1 and 99 points, not %(length)s") % {"length": length}, None
    blank_a, blank_b = not (raw["score_a"] or "").strip(), not (raw["score_b"] or "").strip()
    if blank_a and blank_b:  # a list of winners, as many clubs keep: player_a won; no score is invented
        return None, (played_on, name_a, name_b, length, None, None)
    if blank_a or blank_b:
        return (_("give both scores, or leave both blank when player_a won (%(column)s is blank)")
                % {"column": "score_a" if blank_a else "score_b"}), None
    try:
        score_a = _whole(raw["score_a"], "score_a")
        score_b = _whole(raw["score_b"], "score_b")
    except ValueError as error:
        return str(error), None
    if score_a < 0 or score_b < 0:
        return _("scores cannot be negative"), None
    if score_a == score_b:
        return _("equal scores (%(a)s-%(b)s) name no winner") % {"a": score_a, "b": score_b}, None
    if max(score_a, score_b) < length:
        return (_("the winner's score %(score)s is below the length %(length)s")
                % {"score": max(score_a, score_b), "length": length}), None
    if min(score_a, score_b) >= length:
        return (_("the loser's score %(score)s reaches the length %(length)s")
                % {"score": min(score_a, score_b), "length": length}), None
    try:
        check_final_score(length, (score_a, score_b))
    except ScoringError as error:
        return error.message, None
    return None, (played_on, name_a, name_b, length, score_a, score_b)


def results_file_read(*, text: str, sheet: str = "") -> list[ResultRow]:
    """Validate every row of a results CSV (header `played_on,player_a,player_b,length,score_a,
    score_b`, optional `event`, `source_id` and `new_player`, other columns ignored; separated by
    commas, semicolons or tabs; header names in any case; empty rows skipped). Both scores blank:
    player_a won and the match is stored without a final score (never as 0-0); one blank is
    refused. Raises `ResultsFileError` listing every bad row by line number.

    A row's identity is its `source_id` when the file gives one; otherwise its sheet (`sheet`,
    the file's name), its content and which repeat of that content within the sheet it is: the
    same file imported again is the same rows, and another sheet's identical result (two
    tournaments on one day) is another match."""
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    # Spreadsheets in much of Europe separate columns with ";" (the comma is their decimal mark).
    delimiter = max(",;\t", key=first.count)
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = ["_".join(name.strip().lower().split()) for name in reader.fieldnames or []]
    missing = [name for name in RESULT_COLUMNS if name not in header]
    if missing:
        raise ResultsFileError([(1, _("the header lacks %(missing)s (it needs %(columns)s)")
                                  % {"missing": ", ".join(missing), "columns": ",".join(RESULT_COLUMNS)})])
    reader.fieldnames = header
    rows, problems = [], []
    occurrences: dict[str, int] = {}
    for raw in reader:
        line = reader.line_num
        if not any((value or "").strip() for key, value in raw.items() if key is not None):
            continue  # an empty row, as spreadsheets leave at the end
        if None in raw or any(raw.get(name) is None for name in RESULT_COLUMNS):
            problems.append((line, _("the row has a different number of columns from the header")))
            continue
        problem, values = _row_problem(raw)
        if problem:
            problems.append((line, problem))
            continue
        new_player = (raw.get("new_player") or "").strip().lower()
        if new_player not in YES | NO:
            problems.append((line, _("new_player must be yes or no (or blank), not %(value)r") % {"value": new_player}))
            continue
        source_id = (raw.get("source_id") or "").strip()
        if source_id:
            key = f"csv:{source_id}"
            legacy, tag = (), None
        else:
            # The row's identity is the date and time as the file gives them (in UTC when the file
            # names an offset), never as read in the site's time zone: the same file imported under
            # another TIME_ZONE is the same rows.
            as_given = _played_on(raw["played_on"])
            as_given = as_given.astimezone(UTC).replace(tzinfo=None) if timezone.is_aware(as_given) else as_given
            rest = [values[1].lower(), values[2].lower(), *map(str, values[3:]), (raw.get("event") or "").strip()]
            content = "|".join(["given " + as_given.isoformat(), *rest])
            occurrences[content] = occurrences.get(content, 0) + 1
            tag = sheet_tag(sheet)
            key = f"csv:{tag}:" + hashlib.sha256(f"{tag}|{content}|{occurrences[content]}".encode()).hexdigest()[:40]
            unsheeted = "csv:" + hashlib.sha256(f"{content}|{occurrences[content]}".encode()).hexdigest()[:40]
            zoned = "|".join([values[0].isoformat(), *rest, str(occurrences[content])])
            legacy = (unsheeted, "csv:" + hashlib.sha256(zoned.encode()).hexdigest()[:40])
        rows.append(ResultRow(line, *values, key, legacy, tag, new_player in YES))
    seen: dict[str, int] = {}
    for row in rows:
        if row.source_key in seen:
            problems.append((row.line, _("source_id repeats line %(line)s") % {"line": seen[row.source_key]}))
        seen.setdefault(row.source_key, row.line)
    if problems:
        raise ResultsFileError(sorted(problems))
    return rows


IMPORT_CHUNK = 5_000
"""Result rows stored, and counted in the job's progress, per transaction."""

INSERT_BATCH = 1_000
"""Rows per INSERT where COPY is not available."""


def results_import(
    *, rows: list[ResultRow], by=None, progress=None, new_players=(), accept_new_names: bool = False
) -> ImportReport:
    """Store valid rows (`results_file_read`) as finished matches. Rows imported before are
    skipped, so importing a file again adds nothing and an import stopped half-way finishes when
    run again; matches imported from the same sheet before that it no longer holds are listed in
    the report (`not_in_sheet`), never changed. A name several players share is refused (as
    `ResultsFileError` by line) before anything is stored, and so is a name that is nobody's but
    near a player's, unless the import says it is a new player: in `new_players`, on a row marked
    `new_player`, or any such name with `accept_new_names`. Players are resolved in bulk, matches inserted in chunks of `IMPORT_CHUNK`
    with their final score (each chunk in its own transaction, with its outbox rows and
    `progress(done, total)` told inside it), and the runs are queued at the end; an import that
    dies after a chunk commits leaves that chunk in the outbox, for the periodic check."""
    report = ImportReport()
    total = len(rows)
    if progress is not None:
        progress(0, total)
    try:
        declared = [*new_players, *(name for row in rows if row.new_player for name in (row.player_a, row.player_b))]
        ids, report.players_created = players_get_or_create_by_names(
            names=[name for row in rows for name in (row.player_a, row.player_b)], by=by,
            new_names=declared, accept_near=accept_new_names,
        )
    except AmbiguousNamesError as error:
        problems = [
            (row.line, _("Several players are named %(name)s: the file cannot say which one.") % {"name": name})
            for row in rows for name in (row.player_a, row.player_b) if name.lower() in error.names
        ]
        raise ResultsFileError(sorted(set(problems))) from None
    except NearNamesError as error:
        how = _(" Or, if %(name)s is a new player, say so: yes in the row's new_player column, or the "
                "import's list of new players.")
        near = {name.lower(): message + how % {"name": name} for name, message in error.message_of.items()}
        problems = [
            (row.line, near[name.lower()])
            for row in rows for name in (row.player_a, row.player_b) if name.lower() in near
        ]
        raise ResultsFileError(sorted(set(problems))) from None
    now = timezone.now()
    for start in range(0, total, IMPORT_CHUNK):
        chunk = rows[start:start + IMPORT_CHUNK]
        for attempt in (1, 2):
            try:
                with transaction.atomic():
                    imported = _store_results(chunk, ids, now=now, by=by)
                    if progress is not None:
                        progress(start + len(chunk), total)
                break
            except IntegrityError:
                if attempt == 2:  # the same rows, imported at this moment by someone else, are skipped on the retry
                    raise
        report.imported += imported
        report.already_there += len(chunk) - imported
    report.not_in_sheet = _not_in_sheet(rows)
    results_import_finished.send(sender=Match, imported=report.imported)
    return report


def _not_in_sheet(rows: list[ResultRow]) -> list[int]:
    """The matches stored under the rows' sheet that none of the rows is (ids, in order)."""
    tags = {row.sheet_tag for row in rows if row.sheet_tag is not None}
    if len(tags) != 1:
        return []
    keys = {row.source_key for row in rows}
    stored = Match.objects.filter(source_key__startswith=f"csv:{tags.pop()}:").values_list("pk", "source_key")
    return sorted(pk for pk, key in stored.iterator(chunk_size=5000) if key not in keys)


def _store_results(rows: list[ResultRow], ids: dict[str, int], *, now: datetime, by) -> int:
    """Insert the rows not imported before as finished matches, each with its first history
    version; returns how many. The rows go in by COPY on PostgreSQL and by one prepared INSERT
    per batch elsewhere, for the matches and for their history (the ORM's bulk_create spends most
    of its time building SQL: 450 rows/s against several thousand)."""
    keys = [key for row in rows for key in (row.source_key, *row.legacy_keys)]
    existing = set(Match.objects.filter(source_key__in=keys).values_list("source_key", flat=True))
    fresh = []
    for row in rows:
        if row.source_key in existing:
            continue
        legacy = next((key for key in row.legacy_keys if key in existing), None)
        if legacy is not None:
            existing.discard(legacy)  # one stored match is one row
            # The match this row is, stored under a key without its sheet, takes the row's key: a
            # conditional UPDATE, so two imports at once claim it once (the other stores its row).
            if Match.objects.filter(source_key=legacy).update(source_key=row.source_key) == 1:
                continue
        fresh.append(row)
    if not fresh:
        return 0
    adapt = connection.ops.adapt_datetimefield_value
    common = {"kind": MatchKindChoice.MATCH.value, "source": "csv", "status": MatchStatus.FINISHED.value,
              "finished_at": now, "version": 1, "created_at": now, "created_by_id": by.pk if by else None}
    varying = ("player_a_id", "player_b_id", "length", "played_on", "source_key", "score_a", "score_b", "winner_id")
    values = []
    for row in fresh:
        player_a, player_b = ids[row.player_a.lower()], ids[row.player_b.lower()]
        winner = player_a if row.a_won else player_b
        values.append((player_a, player_b, row.length, adapt(row.played_on), row.source_key, row.score_a,
                       row.score_b, winner))
    _insert_rows(Match, varying, values, common)
    pks = dict(Match.objects.filter(source_key__in=[row.source_key for row in fresh]).values_list("source_key", "pk"))
    history = dict(common, history_date=now, history_type="+", history_change_reason="imported result",
                   history_user_id=by.pk if by else None)
    _insert_rows(Match.history.model, ("id", *varying), [(pks[row[4]], *row) for row in values], history)
    results_imported.send(sender=Match)
    return len(fresh)


def _insert_rows(model, varying: tuple[str, ...], values: list[tuple], common: dict) -> None:
    """INSERT `values` (tuples of the `varying` columns, ready for the database) into `model`'s
    table; every other column takes `common`'s value or the field's default. The automatic
    primary key is left to the database."""
    columns_of = [column for column in model._meta.concrete_fields
                  if not (column.primary_key and column.get_internal_type() in ("AutoField", "BigAutoField", "SmallAutoField"))]
    constant = {}
    for column in columns_of:
        if column.attname not in varying:
            value = common[column.attname] if column.attname in common else column.get_default()
            constant[column.attname] = column.get_db_prep_save(value, connection)
    names = list(varying) + list(constant)
    by_attname = {column.attname: column for column in columns_of}
    columns = ", ".join(connection.ops.quote_name(by_attname[name].column) for name in names)
    tail = tuple(constant.values())
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # COPY: one stream instead of a statement a row
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row + tail)
            return
        sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(names))})"
        for start in range(0, len(values), INSERT_BATCH):
            cursor.executemany(sql, [row + tail for row in values[start:start + INSERT_BATCH]])


def results_import_job(*, job, progress) -> dict:
    """The runner of a results import job (`games.imports`): read, check, store."""
    try:
        options = job.options or {}
        rows = results_file_read(text=job.text, sheet=options.get("sheet") or job.name)
        report = results_import(rows=rows, by=job.created_by, progress=progress,
                                new_players=options.get("new_players") or (),
                                accept_new_names=bool(options.get("accept_new_names")))
    except ResultsFileError as error:
        raise ImportProblems(error.problems) from None
    return {"imported": report.imported, "already_there": report.already_there,
            "players_created": report.players_created, "not_in_sheet": report.not_in_sheet, "note": job.note or None}
