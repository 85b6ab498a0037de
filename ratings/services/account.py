"""The history's account: a count and checksum of the rated history that tells whether the
published ratings answer the history as it stands (`resume_point`).

The database keeps it: triggers on the matches' table (`history_account_install`) add an entry
(`HistoryAccountEntry`) in the writer's own transaction whenever an insert, update or delete
changes the rated history, whoever writes (a service, the admin, a raw UPDATE, an import), so a
change that reached the history without the outbox still shows. Reading the account sums the
entries, which a run folds into one first (`history_account_fold`): it costs the same at a
thousand matches or a million."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import numpy as np

from django.db import connection, transaction

from games.models import Match, MatchKindChoice, MatchStatus

from ..models import HistoryAccountEntry
from .history import UNIX_EPOCH, RatedHistory, rated_matches

ACCOUNT_MODULUS = 2_147_483_647
"""Each match's term of the history checksum is below this prime, so a sum of ten million fits."""


@dataclass(frozen=True)
class HistoryAccount:
    """What a rated history amounts to, cheaply: how many matches, and the sum of one term per
    match (`account_term`) that changes with its id, players, winner, length and date. Terms add,
    so the account of a history with some matches changed is the old one minus their old terms
    plus their new ones."""

    matches: int
    checksum: int

    def __add__(self, other: HistoryAccount) -> HistoryAccount:
        return HistoryAccount(self.matches + other.matches, self.checksum + other.checksum)

    def __sub__(self, other: HistoryAccount) -> HistoryAccount:
        return HistoryAccount(self.matches - other.matches, self.checksum - other.checksum)


ACCOUNT_WEIGHTS = (1_000_003, 10_007, 101, 7, 13)
"""The weights of a match's checksum term: its id, its two players, its winner, its length and the
second it was played. `account_term` and the SQL of the triggers are both made from them."""


def account_term(match_id, player_a, player_b, winner, length, seconds):
    """One match's term of the checksum (numbers, or numpy arrays of them, term by term); `seconds`
    since 1970 (UTC, rounded down) it was played."""
    w_id, w_players, w_winner, w_length, w_seconds = ACCOUNT_WEIGHTS
    return (match_id * w_id + (player_a + player_b) * w_players + winner * w_winner + length * w_length
            + seconds * w_seconds) % ACCOUNT_MODULUS


def account_of_arrays(history: RatedHistory) -> HistoryAccount:
    """The account of a loaded history (numpy, as the SQL computes it)."""
    if not len(history):
        return HistoryAccount(0, 0)
    a = history.players[history.player_a]
    b = history.players[history.player_b]
    winner = np.where(history.a_won, a, b)
    seconds = np.floor_divide(history.played_on, 1_000_000)
    terms = account_term(history.match_ids, a, b, winner, history.lengths, seconds)
    return HistoryAccount(len(history), int(terms.sum()))


def account_of_results(results: dict[int, set]) -> HistoryAccount:
    """The account of some matches' results, each given as the set of its two sides (player,
    opponent, played_on, length, won), as `resume_point` reads them; a match with none is absent."""
    total = HistoryAccount(0, 0)
    for match_id, sides in results.items():
        if not sides:
            continue
        player, opponent, on, length, won = next(iter(sides))
        seconds = (on - UNIX_EPOCH) // timedelta(seconds=1)
        term = account_term(match_id, player, opponent, player if won else opponent, length, seconds)
        total += HistoryAccount(1, term)
    return total


def history_account() -> HistoryAccount:
    """The account of the rated history as it stands: the sum of the entries the triggers wrote
    (one statement, so one moment on any database)."""
    table = connection.ops.quote_name(HistoryAccountEntry._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(sum(matches), 0), coalesce(sum(checksum), 0) FROM {table}")
        matches, checksum = cursor.fetchone()
    return HistoryAccount(int(matches), int(checksum))


def history_account_counted() -> HistoryAccount:
    """The account counted from the matches themselves: a count and sum over every rated match, as
    long as the history (what the triggers spare every run; the install and tests use it)."""
    sql, params = rated_matches().order_by().values_list(
        "id", "played_on", "player_a_id", "player_b_id", "length", "winner_id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*), coalesce(sum({_term_sql('h')}), 0) FROM ({sql}) AS h", params)
        matches, checksum = cursor.fetchone()
    return HistoryAccount(int(matches), int(checksum))


def history_account_fold() -> int:
    """Fold the account's entries into one, in one short transaction; how many it folded (none
    when there are fewer than two). Writers go on adding entries meanwhile: on PostgreSQL the
    entries deleted are exactly those summed (one statement), and two folds at once each fold
    only what the other did not; SQLite has one writer at a time."""
    table = connection.ops.quote_name(HistoryAccountEntry._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT 2) AS e")
        if cursor.fetchone()[0] < 2:
            return 0
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH gone AS (DELETE FROM {table} RETURNING matches, checksum) "
                f"INSERT INTO {table} (matches, checksum) SELECT sum(matches), sum(checksum) FROM gone "
                "HAVING count(*) > 0 RETURNING (SELECT count(*) FROM gone)")
            row = cursor.fetchone()
            return int(row[0]) if row else 0
        cursor.execute(f"SELECT count(*), max(id), sum(matches), sum(checksum) FROM {table}")
        entries, last, matches, checksum = cursor.fetchone()
        if not entries:
            return 0
        cursor.execute(f"DELETE FROM {table} WHERE id <= %s", [last])
        cursor.execute(f"INSERT INTO {table} (matches, checksum) VALUES (%s, %s)", [matches, checksum])
        return int(entries)


# -- the triggers ---------------------------------------------------------------------------------

TRIGGER = "ratings_history_account"
"""The name of the triggers (each with its event after it on SQLite) and of PostgreSQL's function."""


def _rated_sql(row: str) -> str:
    """Whether the matches' table row `row` (NEW, OLD or an alias) is rated, as `rated_matches`
    says."""
    return (f"({row}.kind = '{MatchKindChoice.MATCH.value}' AND {row}.status = '{MatchStatus.FINISHED.value}' "
            f"AND {row}.rated AND {row}.winner_id IS NOT NULL AND {row}.forfeited_by_id IS NULL)")


def _term_sql(row: str) -> str:
    """`account_term` of the row `row` in SQL (with %% for a parameter-formatted statement when
    `row` is an alias)."""
    percent = "%%" if row not in ("NEW", "OLD") else "%"
    if connection.vendor == "postgresql":
        seconds = f"floor(extract(epoch FROM {row}.played_on))::int8"
    else:
        seconds = f"CAST(strftime('{percent}s', {row}.played_on) AS INTEGER)"
    w_id, w_players, w_winner, w_length, w_seconds = ACCOUNT_WEIGHTS
    return (f"(({row}.id * {w_id} + ({row}.player_a_id + {row}.player_b_id) * {w_players} "
            f"+ {row}.winner_id * {w_winner} + {row}.length * {w_length} + {seconds} * {w_seconds}) "
            f"{percent} {ACCOUNT_MODULUS})")


def _trigger_statements() -> list[str]:
    matches = connection.ops.quote_name(Match._meta.db_table)
    entries = connection.ops.quote_name(HistoryAccountEntry._meta.db_table)
    old = f"(CASE WHEN {_rated_sql('OLD')} THEN {_term_sql('OLD')} END)"
    new = f"(CASE WHEN {_rated_sql('NEW')} THEN {_term_sql('NEW')} END)"
    if connection.vendor == "postgresql":
        return [
            f"""CREATE OR REPLACE FUNCTION {TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was_term int8;
    now_term int8;
BEGIN
    IF TG_OP <> 'INSERT' THEN was_term := {old}; END IF;
    IF TG_OP <> 'DELETE' THEN now_term := {new}; END IF;
    IF was_term IS DISTINCT FROM now_term THEN
        INSERT INTO {entries} (matches, checksum)
        VALUES ((now_term IS NOT NULL)::int - (was_term IS NOT NULL)::int, coalesce(now_term, 0) - coalesce(was_term, 0));
    END IF;
    RETURN NULL;
END $$""",
            f"CREATE OR REPLACE TRIGGER {TRIGGER} AFTER INSERT OR UPDATE OR DELETE ON {matches} "
            f"FOR EACH ROW EXECUTE FUNCTION {TRIGGER}()",
        ]

    def entry(was: str, now: str) -> str:
        return (f"INSERT INTO {entries} (matches, checksum) VALUES (({now} IS NOT NULL) - ({was} IS NOT NULL), "
                f"coalesce({now}, 0) - coalesce({was}, 0));")

    return [
        f"CREATE TRIGGER IF NOT EXISTS {TRIGGER}_insert AFTER INSERT ON {matches} WHEN {new} IS NOT NULL "
        f"BEGIN {entry('NULL', new)} END",
        f"CREATE TRIGGER IF NOT EXISTS {TRIGGER}_update AFTER UPDATE ON {matches} WHEN {old} IS NOT {new} "
        f"BEGIN {entry(old, new)} END",
        f"CREATE TRIGGER IF NOT EXISTS {TRIGGER}_delete AFTER DELETE ON {matches} WHEN {old} IS NOT NULL "
        f"BEGIN {entry(old, 'NULL')} END",
    ]


def _installed() -> bool:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname = %s AND NOT tgisinternal", [TRIGGER])
            return cursor.fetchone()[0] == 1
        cursor.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s",
                       [f"{TRIGGER}%"])
        return cursor.fetchone()[0] == 3


def history_account_install(**kwargs) -> bool:
    """Install the triggers that keep the account (after every migrate: a migration that rebuilds
    the matches' table on SQLite drops its triggers), and where they were missing start the
    account from the matches as they stand, in the same transaction. Whether it installed them."""
    tables = connection.introspection.table_names()
    if HistoryAccountEntry._meta.db_table not in tables or Match._meta.db_table not in tables:
        return False
    if _installed():
        # No matches, no account: a database emptied table by table (`flush`, which ends in this
        # signal too) may have emptied the entries before the matches, whose triggers then wrote
        # their removal; the account of an empty history starts again at nothing.
        if not Match.objects.exists():
            HistoryAccountEntry.objects.all().delete()
        return False
    with transaction.atomic():
        for statement in _trigger_statements():
            with connection.cursor() as cursor:
                cursor.execute(statement)
        HistoryAccountEntry.objects.all().delete()
        counted = history_account_counted()
        HistoryAccountEntry.objects.create(matches=counted.matches, checksum=counted.checksum)
    return True
