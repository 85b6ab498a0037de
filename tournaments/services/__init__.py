"""Writes to events: the only way they change.

Every service is keyword-only, atomic and validating. Bad input raises a Django
`ValidationError` with a message per field (400), a missing right `PermissionDenied` (403), a lost
race `ConflictError` (409); nothing of a refused write is kept.

Advancement works the way the formats are built: after any result the unit (a main knockout with
its consolation and last chance flights, or one flight of another format) is worked out again from
the entries, the stored draw and the decided pairings, and whatever the format now knows (new
pairings, byes, the next Swiss round, champions) is stored.

One module per use case: `events` (events and flights), `entries`, `rounds` (draws, rounds,
advancement), `results` (reports, confirmations, disputes, overrides), `scoresheet` (games, a
final score or a forfeit entered on a pairing's match itself), `corrections` (what a changed
result undoes downstream), `desk` (tables, walkovers, pasted entry lists), `slips` (the codes on
the match slips), `idempotency` (a Save sent again counts once) and `undo` (a walkover, a withdrawal or a result taken back).

Lock order. Every writer that touches more than one of these rows takes its locks in this order,
and only in this order, so two writers can wait for each other but never deadlock:

    1. the tournament        (`_base._lock_tournament`, or `_base._results_changed` which
                              updates its version and so locks it)
    2. the pairing           (`_base._lock_pairing`)
    3. the match and its games (`games.services`)
    4. the rating rows       (`ratings.services`: the outbox row written by the listener of
                              `games.signals.match_result_changed`; the runs after commit)

A write that starts from a match (a game entered on the score sheet, through the games API or
the admin) comes in through `scoresheet`, which `games.keepers` calls for a match that decides a
pairing: it finds the match's pairing and locks the tournament and the pairing before it calls
`games.services`, which locks the match, and then makes the pairing and the draw follow the
match, all in one transaction. The analysis stores a match's figures the same way round
(`analysis.signals.analysis_will_store`, whose listener here is `pairing_analysis_will_store`):
the event's skill points and PR tie-break read them, so its results version goes up with them.

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
    entries_check_in_all,
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
from .idempotency import (
    SaveAnswer,
    result_report_once,
    save_key_clean,
    save_keys_prune,
    save_once,
)
from .results import (
    ImprobableScore,
    ResultConflict,
    pairing_analysis_will_store,
    result_arrival,
    result_confirm,
    result_dispute,
    result_override,
    result_report,
)
from .scoresheet import (
    pairing_final_score_record,
    pairing_forfeit,
    pairing_forfeit_undo,
    pairing_game_correct,
    pairing_game_delete_last,
    pairing_game_record,
    pairing_match_update,
)
from .rounds import (
    flight_advance,
    flight_start,
    pairing_start,
    round_start,
)
from .slips import slip_codes_issue
from .undo import (
    DownstreamStarted,
    WithdrawalStands,
    entry_withdraw_undo,
    pairing_undo,
    pairing_walkover_undo,
    result_undo,
    undo_preview,
)

__all__ = [
    "correction_affected",
    "entries_check_in_all",
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
    "pairing_analysis_will_store",
    "pairing_final_score_record",
    "pairing_forfeit",
    "pairing_forfeit_undo",
    "pairing_game_correct",
    "pairing_game_delete_last",
    "pairing_game_record",
    "pairing_match_update",
    "pairing_start",
    "player_account_link",
    "result_confirm",
    "result_dispute",
    "result_override",
    "result_report",
    "result_arrival",
    "result_report_once",
    "ImprobableScore",
    "ResultConflict",
    "SaveAnswer",
    "save_key_clean",
    "save_keys_prune",
    "save_once",
    "round_start",
    "schedule_round",
    "slip_codes_issue",
    "tournament_create",
    "tournament_organiser_add",
    "entry_withdraw_undo",
    "DownstreamStarted",
    "WithdrawalStands",
    "pairing_undo",
    "pairing_walkover_undo",
    "result_undo",
    "undo_preview",
]
