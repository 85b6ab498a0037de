"""Matches that another app keeps: the one way in for games' own pages, API and admin.

A match that decides something above it (an event's pairing) must not change by itself: the rows
above it change with it, in the same transaction and in the one lock order (those rows before
the match). The app that owns those rows registers a keeper when it starts
(`match_keeper_register`): a test for the matches it keeps and the same writes as
`games.services`, which lock its rows, call `games.services` inside `keeper_writes(match)` and
update its rows explicitly. Games' entry points ask `match_writes(match)` which writes to call
and never know the app behind them; a match nobody keeps is written by `games.services` itself.

`games.services` holds the keepers to it: a write on a kept match outside its keeper's
`keeper_writes` is refused (`KeptMatchError`), so an interface that calls `games.services`
directly cannot finish an event's match behind its pairing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache

from django.utils.translation import gettext as _

from config.errors import ConflictError


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


KEEPERS: list[tuple[Callable, MatchWrites]] = []
"""(keeps(match) -> bool, its writes), in the order the apps registered them."""


class KeptMatchError(ConflictError):
    """A write reached `games.services` for a match that another app keeps, not through its keeper."""


_WRITING: ContextVar[frozenset[int]] = ContextVar("games_keeper_writes", default=frozenset())
"""The matches whose keeper is writing them now (in this thread or task)."""


def match_keeper_register(keeps: Callable, writes: MatchWrites) -> None:
    """An app keeps the matches for which `keeps(match)` is true: they are written by `writes`."""
    KEEPERS[:] = [(k, w) for k, w in KEEPERS if w is not writes] + [(keeps, writes)]


@cache
def games_writes() -> MatchWrites:
    """A match nobody keeps: `games.services` itself (imported here on first use, as
    `games.services` imports this module to ask `refuse_unkept_write`)."""
    from . import services

    return MatchWrites(
        game_record=services.game_record,
        game_correct=services.game_correct,
        game_delete_last=services.game_delete_last,
        match_final_score_record=services.match_final_score_record,
        match_forfeit=services.match_forfeit,
        match_forfeit_undo=services.match_forfeit_undo,
        match_update=services.match_update,
    )


def match_writes(match) -> MatchWrites:
    """The writes that change `match`: its keeper's, or `games.services`' for a match nobody keeps."""
    for keeps, writes in KEEPERS:
        if keeps(match):
            return writes
    return games_writes()


@contextmanager
def keeper_writes(match) -> Iterator[None]:
    """The keeper of `match` writes it through `games.services` while this holds (it has taken
    the locks of the rows above the match and updates them after)."""
    token = _WRITING.set(_WRITING.get() | {match.pk})
    try:
        yield
    finally:
        _WRITING.reset(token)


def refuse_unkept_write(match) -> None:
    """Raise `KeptMatchError` when a keeper keeps `match` and is not the one writing it; asked by
    every write of `games.services` once the match is locked."""
    if match.pk in _WRITING.get():
        return
    for keeps, _writes in KEEPERS:
        if keeps(match):
            raise KeptMatchError(
                _("Match %(match)s decides a result above it (an event's pairing): it is written through its keeper "
                  "(the event's score sheet), never by itself.") % {"match": match.pk}
            )
