"""Matches that another app keeps: the one way in for games' own pages, API and admin.

A match that decides something above it (an event's pairing) must not change by itself: the rows
above it change with it, in the same transaction and in the one lock order (those rows before
the match). The app that owns those rows registers a keeper when it starts
(`match_keeper_register`): a test for the matches it keeps and the same writes as
`games.services`, which lock its rows, call `games.services` and update its rows explicitly.
Games' entry points ask `match_writes(match)` which writes to call and never know the app behind
them; a match nobody keeps is written by `games.services` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import services


@dataclass(frozen=True)
class MatchWrites:
    """The writes of a match's result, each with the signature of its `games.services` namesake."""

    game_record: Callable
    game_correct: Callable
    game_delete_last: Callable
    match_final_score_record: Callable
    match_forfeit: Callable
    match_forfeit_undo: Callable
    match_update: Callable


GAMES = MatchWrites(
    game_record=services.game_record,
    game_correct=services.game_correct,
    game_delete_last=services.game_delete_last,
    match_final_score_record=services.match_final_score_record,
    match_forfeit=services.match_forfeit,
    match_forfeit_undo=services.match_forfeit_undo,
    match_update=services.match_update,
)
"""A match nobody keeps: `games.services` itself."""

KEEPERS: list[tuple[Callable, MatchWrites]] = []
"""(keeps(match) -> bool, its writes), in the order the apps registered them."""


def match_keeper_register(keeps: Callable, writes: MatchWrites) -> None:
    """An app keeps the matches for which `keeps(match)` is true: they are written by `writes`."""
    KEEPERS[:] = [(k, w) for k, w in KEEPERS if w is not writes] + [(keeps, writes)]


def match_writes(match) -> MatchWrites:
    """The writes that change `match`: its keeper's, or `games.services`' for a match nobody keeps."""
    for keeps, writes in KEEPERS:
        if keeps(match):
            return writes
    return GAMES
