"""Writes to events: the only way they change.

Every service is keyword-only, atomic and validating. Bad input raises a Django
`ValidationError` with a message per field (400), a missing right `PermissionDenied` (403), a lost
race `ConflictError` (409); nothing of a refused write is kept.

Advancement works the way the formats are built: after any result the unit (a main knockout with
its consolation and last chance flights, or one flight of another format) is worked out again from
the entries, the stored draw and the decided pairings, and whatever the format now knows (new
pairings, byes, the next Swiss round, champions) is stored.

One module per use case: `events` (events and flights), `entries`, `rounds` (draws, rounds,
advancement), `results` (reports, confirmations, disputes, overrides), `corrections` (what a
changed result undoes downstream), `desk` (tables, walkovers, pasted entry lists), `slips` (the codes on the match slips) and `undo` (a
walkover, a withdrawal or a result taken back).

Lock order. Every writer that touches more than one of these rows takes its locks in this order,
and only in this order, so two writers can wait for each other but never deadlock:

    1. the tournament        (`_base._lock_tournament`, or `_base._results_changed` which
                              updates its version and so locks it)
    2. the pairing           (`_base._lock_pairing`)
    3. the match and its games (`games.services`)
    4. the rating run rows   (`ratings.services`, only through `transaction.on_commit`)

A service that starts from a match (a game entered on the score sheet) therefore finds the
match's pairing and tournament first and locks the tournament before the match: `games.services`
sends `match_will_change` before it locks a match, and `pairing_match_will_change` locks the
tournament of the pairing the match decides. The analysis does the same before it stores a match's
figures (`analysis.signals.analysis_will_store`): the event's skill points and PR tie-break read
them, so its results version goes up with them.

One truth per pairing. A decided pairing (finished, walkover, bye) supersedes every open report:
a stale report can no longer be confirmed or disputed (409); a TD changes a decided result only
with `result_override`. A match undone by a correction upstream is voided (`games.match_void`):
it stays, with its games and the reason in its history, but leaves the rated history.
"""


from .corrections import correction_affected
from .desk import (
    entries_paste,
    entries_paste_plan,
    pairing_table_set,
    pairing_walkover,
    table_offers,
    tables_call,
    tables_set,
)
from .entries import (
    entry_add,
    entry_check_in,
    entry_withdraw,
)
from .events import (
    flight_create,
    flight_update,
    player_account_link,
    schedule_round,
    tournament_create,
    tournament_organiser_add,
)
from .results import (
    pairing_match_changed,
    pairing_match_will_change,
    result_confirm,
    result_dispute,
    result_override,
    result_report,
)
from .rounds import (
    flight_advance,
    flight_start,
    pairing_start,
    round_start,
)
from .slips import slip_codes_issue
from .undo import (
    entry_withdraw_undo,
    pairing_walkover_undo,
    result_undo,
    undo_preview,
)

__all__ = [
    "correction_affected",
    "entries_paste",
    "entries_paste_plan",
    "pairing_table_set",
    "pairing_walkover",
    "table_offers",
    "tables_call",
    "tables_set",
    "entry_add",
    "entry_check_in",
    "entry_withdraw",
    "flight_advance",
    "flight_create",
    "flight_start",
    "flight_update",
    "pairing_match_changed",
    "pairing_match_will_change",
    "pairing_start",
    "player_account_link",
    "result_confirm",
    "result_dispute",
    "result_override",
    "result_report",
    "round_start",
    "schedule_round",
    "slip_codes_issue",
    "tournament_create",
    "tournament_organiser_add",
    "entry_withdraw_undo",
    "pairing_walkover_undo",
    "result_undo",
    "undo_preview",
]
