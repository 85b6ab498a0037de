"""Writes to players, matches and games: the only way they change.

Each service is atomic, validates through the rules engine, and raises either a Django
`ValidationError` / engine `ScoringError` (bad input: 400, nothing changed) or `ConflictError`
(a concurrent or stale write: 409, nothing changed). The ratings learn about changed results from
the `match_result_changed` signal, sent inside the transaction. A match that decides something
above it (an event's pairing) is written through its keeper (`games.keepers`), which takes its
own locks first and calls these functions inside `keeper_writes`; called any other way on such a
match they refuse (`KeptMatchError`, a 409).

One module per kind of write: `players`, `matches` (a match created, its final score or forfeit,
changed, voided), `game_records` (its games); `_recording` holds what they share (the game as
typed, the match's lock, its score replayed and published).
"""

from ._recording import NO_MOVES, GameInput
from .game_records import game_correct, game_delete_last, game_record, match_games_record
from .matches import (
    MONEY_ONLY,
    match_create,
    match_final_score_record,
    match_final_score_undo,
    match_forfeit,
    match_forfeit_undo,
    match_update,
    match_void,
)
from .players import (
    IMPORT_LOOKUP_BATCH,
    AmbiguousNamesError,
    NearNamesError,
    did_you_mean,
    player_create,
    player_update,
    players_get_or_create_by_names,
)

__all__ = [
    "IMPORT_LOOKUP_BATCH", "MONEY_ONLY", "NO_MOVES", "AmbiguousNamesError", "GameInput", "NearNamesError",
    "did_you_mean", "game_correct", "game_delete_last", "game_record", "match_create", "match_final_score_record",
    "match_final_score_undo", "match_forfeit", "match_forfeit_undo", "match_games_record", "match_update",
    "match_void", "player_create", "player_update", "players_get_or_create_by_names",
]
