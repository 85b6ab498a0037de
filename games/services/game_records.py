"""A match's games: recorded one by one or as a sheet, corrected, the last one taken back."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext_lazy
from django.db import IntegrityError, transaction

from config.errors import ConflictError
from config.languages import in_site_language

from ..engine.errors import ScoringError
from ..engine.scoring import GameOutcome
from ..models import Game, Match, MatchStatus
from ._recording import NO_MOVES, GameInput, fill_game, lock, new_score, publish, replay, store_game


def game_record(
    *, match: Match, number: int, game: GameInput, by=None, expected_version: int | None = None
) -> Match:
    """Record game `number` of `match`. It must be the next game; the rules must allow it."""
    with transaction.atomic():
        match = lock(match, expected_version)
        if match.status == MatchStatus.FORFEITED:
            raise ScoringError(gettext_noop("The match was forfeited: no game can be recorded."))
        games = list(match.games.order_by("number"))
        expected = len(games) + 1
        if number != expected:
            if number < expected:
                raise ConflictError(
                    _("Game %(number)s has already been recorded (the next game is game %(expected)s): correct it "
                      "instead of entering it again.") % {"number": number, "expected": expected}
                )
            raise ValidationError({"number": [_("The next game of this match is game %(expected)s, not game %(number)s.")
                                              % {"expected": expected, "number": number}]})
        score = replay(match, [GameOutcome.from_row(g) for g in games])
        record = score.record(game.outcome())
        try:
            with transaction.atomic():
                store_game(match, record, moves=game.moves, by=by)
        except IntegrityError:
            raise ConflictError(_("Game %(number)s was just recorded by someone else: reload the match.")
                                % {"number": number}) from None
        return publish(match, score, by=by, reason=in_site_language(gettext_noop("game %(number)s recorded"), {"number": number}))


def match_games_record(*, match: Match, games: list[GameInput], by=None, reason: str = "") -> Match:
    """Record a whole score sheet at once on a match that has no game yet (an imported match file):
    one lock, one replay, the games inserted together, one new match state. The rules refuse a game
    as `game_record` would, naming it; then nothing is stored."""
    with transaction.atomic():
        match = lock(match, None)
        if match.status == MatchStatus.FORFEITED:
            raise ScoringError(gettext_noop("The match was forfeited: no game can be recorded."))
        if match.games.exists():
            raise ValidationError({"number": [_("This match already has games: record the next one by itself.")]})
        score = new_score(match)
        rows = []
        for game in games:
            try:
                record = score.record(game.outcome())
            except ScoringError as error:
                raise ScoringError(f"game {score.next_game_number}: {error.message}", field=error.field) from None
            rows.append(fill_game(match, record, moves=game.moves, by=by))
        Game.objects.bulk_create(rows, batch_size=500)
        reason = reason or in_site_language(gettext_noop("imported"))
        Game.history.bulk_history_create(rows, batch_size=500, default_user=by, default_change_reason=reason)
        return publish(match, score, by=by, reason=in_site_language(
            ngettext_lazy("%(count)s game %(reason)s", "%(count)s games %(reason)s", "count"),
            {"count": len(rows), "reason": reason}))


def _same_record(stored: Game, record) -> bool:
    return (stored.points, stored.crawford, stored.score_a_after, stored.score_b_after) == (
        record.points,
        record.crawford,
        *record.score_after,
    )


def game_correct(
    *, match: Match, number: int, game: GameInput, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """Replace game `number` with a corrected version; the earlier version stays in the history."""
    with transaction.atomic():
        match = lock(match, expected_version)
        games = list(match.games.order_by("number"))
        if not 1 <= number <= len(games):
            raise ValidationError({"number": [_("This match has no game %(number)s.") % {"number": number}]})
        outcomes = [GameOutcome.from_row(g) for g in games]
        outcomes[number - 1] = game.outcome()
        score = replay(match, outcomes, changed_from=number)
        for stored, record in zip(games, score.games, strict=True):
            changed = stored.number == number
            if not changed and _same_record(stored, record):
                continue
            if changed:
                # The earlier moves describe the earlier game: a correction without moves drops them
                # (the export then says the game was entered without its moves).
                moves = game.moves if game.moves is not None else NO_MOVES
            else:
                # A later game rescored: its moves still hold unless its Crawford standing changed,
                # which changes what the cube could do in it.
                moves = NO_MOVES if stored.crawford != record.crawford else None
            note = ((reason or in_site_language(gettext_noop("game %(number)s corrected"), {"number": number}))
                    if changed else
                    in_site_language(gettext_noop("rescored after correction of game %(number)s"), {"number": number}))
            store_game(match, record, moves=moves, by=by, game=stored, reason=note)
        return publish(match, score, by=by,
                        reason=reason or in_site_language(gettext_noop("game %(number)s corrected"), {"number": number}))


def game_delete_last(
    *, match: Match, number: int | None = None, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """Remove the last game of a match (entered by mistake); its record stays in the history.

    `number`, when given, must be the last game's: only the last game can be deleted.
    """
    with transaction.atomic():
        match = lock(match, expected_version)
        games = list(match.games.order_by("number"))
        if not games:
            raise ValidationError({"number": [_("This match has no game to delete.")]})
        if number is not None and number != games[-1].number:
            raise ValidationError({"number": [_("Only the last game (game %(number)s) can be deleted.")
                                                  % {"number": games[-1].number}]})
        if match.status == MatchStatus.FORFEITED:
            raise ScoringError(_("The match was forfeited: undo the forfeit before changing its games."))
        last = games.pop()
        last._history_user = by
        last._change_reason = reason or in_site_language(gettext_noop("deleted"))
        last.delete()
        score = replay(match, [GameOutcome.from_row(g) for g in games])
        return publish(match, score, by=by, reason=reason or in_site_language(gettext_noop("game %(number)s deleted"),
                                                                         {"number": last.number}))
