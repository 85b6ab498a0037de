"""Writes to ratings; what the other apps, the pages, the API, the tasks and the commands call.

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
were. A run whose worker died keeps its heartbeat still; once it is stale the next claim, or the
periodic check `rating_recompute_owed`, supersedes it and rates what is owed.
The recompute deliberately does not run in one transaction: the rows it writes are invisible
until the pointer flips, and a long transaction would hold back PostgreSQL's vacuum and hide
progress from readers.

Modules, along the run: `systems` (which systems are on), `runs` (requesting, the outbox,
claiming, the worker's loop, the periodic check), `history` (loading the rated history),
`execute` (rating a claimed run, in full or from a checkpoint), `writing` (COPY and bulk writes,
the heartbeat, publishing), `checkpoints` (incremental checkpoints), `account` (the history's
account, kept by triggers), `lists` (official lists). The results import is `games.results`: it creates matches, and its
signals reach `rating_import_record` and `rating_import_finish` here (`ratings.receivers`).
"""

from .account import history_account, history_account_counted, history_account_fold, history_account_install
from .execute import rating_run_execute
from .history import rated_history
from .lists import rating_list_publish
from .runs import (
    RunsRequested,
    rating_change_record,
    rating_import_finish,
    rating_import_record,
    rating_recompute_for_analysis,
    rating_recompute_for_match,
    rating_recompute_now,
    rating_recompute_owed,
    rating_recompute_request,
    rating_run_claim,
    rating_run_process,
)
from .systems import default_system, enabled_systems, system_labels, system_names
from .writing import RunLostError

__all__ = [
    "RunLostError",
    "RunsRequested",
    "default_system",
    "enabled_systems",
    "history_account",
    "history_account_counted",
    "history_account_fold",
    "history_account_install",
    "rated_history",
    "rating_change_record",
    "rating_import_finish",
    "rating_import_record",
    "rating_list_publish",
    "rating_recompute_for_analysis",
    "rating_recompute_for_match",
    "rating_recompute_now",
    "rating_recompute_owed",
    "rating_recompute_request",
    "rating_run_claim",
    "rating_run_execute",
    "rating_run_process",
    "system_labels",
    "system_names",
]
