"""What the services that record a match's games and results share: the game as typed, the
match's lock, its score replayed and published."""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext as _
from django.utils import timezone

from config.errors import ConflictError

from .. import keepers
from ..engine.errors import ScoringError, gettext_noop
from ..engine.scoring import OUTCOME_FIELDS, CrawfordState, GameOutcome, MatchKind, MatchScore
from ..models import Game, Match, MatchStatus
from ..signals import match_result_changed


@dataclasses.dataclass(frozen=True, init=False)
class GameInput:
    """A game as a score sheet gives it (sides: 0 = player A, 1 = player B), with its moves
    when a match file gave them.

    Takes the fields of the engine's `GameOutcome` by keyword (`winner`, `end`, `kind`, `cube`,
    `cube_owner`, `beavered`, `raccooned`, `automatic_doubles`, `points`), as typed: they are
    read by `GameOutcome.from_input` when the game is recorded, so a bad kind or end is refused
    there, with the rest of the rules.
    """

    given: dict
    moves: list | None

    def __init__(self, *, moves: list | None = None, **given):
        unknown = sorted(set(given) - set(OUTCOME_FIELDS))
        if unknown:
            raise TypeError(f"A game has no field {', '.join(unknown)}.")
        object.__setattr__(self, "given", given)
        object.__setattr__(self, "moves", moves)

    def outcome(self) -> GameOutcome:
        return GameOutcome.from_input(**self.given)


def lock(match: Match, expected_version: int | None) -> Match:
    """Lock the match row for this transaction and check the caller saw its latest version.

    Whatever guards the match (an event it decides) has been locked before by its keeper, which
    writes it inside `keepers.keeper_writes`; a kept match written any other way is refused.
    """
    locked = Match.objects.select_for_update(of=("self",)).select_related("player_a", "player_b").get(pk=match.pk)
    keepers.refuse_unkept_write(locked)
    if expected_version is not None and locked.version != expected_version:
        raise ConflictError(
            _("The match was changed by someone else (version %(version)s, you had %(expected)s): reload it and enter "
              "the game again if it is still missing.") % {"version": locked.version, "expected": expected_version}
        )
    return locked


def new_score(match: Match) -> MatchScore:
    """An empty score sheet under the match's rules (without the Crawford rule where it is off)."""
    players = (match.player_a.name, match.player_b.name)
    if match.kind == MatchKind.MATCH and not match.crawford_rule:
        return MatchScore.resume(match.rules, score=(0, 0), crawford=CrawfordState.PLAYED, players=players)
    return MatchScore(match.rules, players=players)


def replay(match: Match, outcomes: list[GameOutcome], *, changed_from: int = 1) -> MatchScore:
    """Score a whole sheet; a refusal names the game it is about."""
    score = new_score(match)
    for outcome in outcomes:
        try:
            score.record(outcome)
        except ScoringError as error:
            number = score.next_game_number
            if number > changed_from:
                raise ScoringError(gettext_noop("This change would make game %(game)s break the rules: %(error)s"),
                                   field="non_field_errors", game=number, error=error) from None
            raise
    return score


def publish(match: Match, score: MatchScore, *, by=None, reason: str = "") -> Match:
    """Store the state derived from the games and tell the other apps."""
    match.score_a, match.score_b = score.score
    match.crawford_game = score.crawford_game
    match.post_crawford = score.post_crawford and match.crawford_rule
    if match.status != MatchStatus.FORFEITED:
        if score.finished:
            match.status = MatchStatus.FINISHED
            match.winner = match.player_at(score.winner)
            match.finished_at = match.finished_at or timezone.now()
        else:
            match.status = MatchStatus.IN_PROGRESS
            match.winner = None
            match.finished_at = None
    return result_save(match, by=by, reason=reason or None)


def result_save(match: Match, *, by, reason: str | None) -> Match:
    """Store a changed result: a new version and games revision, who and why for its history, and
    tell the other apps."""
    match.version += 1
    match.games_revision += 1
    match._history_user = by
    match._change_reason = reason
    match.save()
    match_result_changed.send(sender=Match, match=match)
    return match


NO_MOVES = object()
"""Passed as `moves` to store a game without moves (None keeps the stored ones)."""


def store_game(match: Match, record, *, moves, by, game: Game | None = None, reason: str = "") -> Game:
    game = fill_game(match, record, moves=moves, by=by, game=game, reason=reason)
    game.save()
    return game


def fill_game(match: Match, record, *, moves, by, game: Game | None = None, reason: str = "") -> Game:
    game = game or Game(match=match, number=record.number)
    for field, value in record.outcome.as_row().items():
        setattr(game, field, value)
    game.crawford = record.crawford
    game.score_a_after, game.score_b_after = record.score_after
    if moves is NO_MOVES:
        game.moves = None
    elif moves is not None:
        game.moves = moves
    game.recorded_by = by
    game._history_user = by
    game._change_reason = reason or None
    return game
