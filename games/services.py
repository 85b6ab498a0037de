"""Writes to players, matches and games: the only way they change.

Each service is atomic, validates through the rules engine, and raises either a Django
`ValidationError` / engine `ScoringError` (bad input: 400, nothing changed) or `ConflictError`
(a concurrent or stale write: 409, nothing changed). Other apps learn about changed results from
the `match_result_changed` signal, sent inside the transaction.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from config.errors import ConflictError

from .engine.errors import ScoringError
from .engine.scoring import (
    GameEnd,
    GameOutcome,
    MatchKind,
    MatchRules,
    MatchScore,
    ResultKind,
    SessionRules,
    check_final_score,
)
from .models import Game, Match, MatchStatus, Player
from .signals import match_result_changed

# -- players -------------------------------------------------------------------------------------


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"name": ["A player needs a name."]})
    return name


def player_create(
    *,
    name: str,
    country: str = "",
    club: str = "",
    federation_id: str | None = None,
    confirm_duplicate: bool = False,
    by=None,
) -> Player:
    """Add a player. A second player of the same name and club needs `confirm_duplicate`."""
    name = _clean_name(name)
    club = " ".join((club or "").split())
    country = (country or "").strip().upper()
    if country and (len(country) != 2 or not country.isalpha()):
        raise ValidationError({"country": ["Give the country as its two-letter code, for example DK or US."]})
    federation_id = (federation_id or "").strip() or None
    with transaction.atomic():
        if federation_id and Player.objects.filter(federation_id=federation_id).exists():
            raise ValidationError({"federation_id": [f"Federation id {federation_id} belongs to another player."]})
        twin = (
            Player.objects.annotate(lname=Lower("name"), lclub=Lower("club"))
            .filter(lname=name.lower(), lclub=club.lower())
            .first()
        )
        if twin and not confirm_duplicate:
            where = f" of {club}" if club else " with no club"
            raise ValidationError(
                {
                    "name": [
                        f"{twin.name}{where} is already player {twin.pk}. If this is a different person,"
                        " confirm the duplicate (confirm_duplicate) or tell them apart by club or federation id."
                    ]
                }
            )
        player = Player(name=name, country=country, club=club, federation_id=federation_id)
        player._history_user = by
        player.save()
    return player


def player_update(*, player: Player, by=None, **changes) -> Player:
    allowed = {"name", "country", "club", "federation_id"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValidationError({field: ["This field cannot be changed."] for field in sorted(unknown)})
    if "name" in changes:
        changes["name"] = _clean_name(changes["name"])
    if "country" in changes:
        country = (changes["country"] or "").strip().upper()
        if country and (len(country) != 2 or not country.isalpha()):
            raise ValidationError({"country": ["Give the country as its two-letter code, for example DK or US."]})
        changes["country"] = country
    if "federation_id" in changes:
        changes["federation_id"] = (changes["federation_id"] or "").strip() or None
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        fed = changes.get("federation_id")
        if fed and Player.objects.filter(federation_id=fed).exclude(pk=player.pk).exists():
            raise ValidationError({"federation_id": [f"Federation id {fed} belongs to another player."]})
        for field, value in changes.items():
            setattr(player, field, value)
        player._history_user = by
        player.save()
    return player


def player_get_or_create_by_name(*, name: str, by=None) -> tuple[Player, bool]:
    """For imports: the one player of that name, or a new one. Several of that name is an error."""
    name = _clean_name(name)
    matches = list(Player.objects.annotate(lname=Lower("name")).filter(lname=name.lower())[:2])
    if len(matches) > 1:
        raise ValidationError({"name": [f"Several players are named {name}: the file cannot say which one."]})
    if matches:
        return matches[0], False
    return player_create(name=name, by=by), True


# -- matches -------------------------------------------------------------------------------------


def match_create(
    *,
    player_a: Player,
    player_b: Player,
    kind: str = MatchKind.MATCH,
    length: int = 0,
    cube_cap: int | None = None,
    jacoby: bool = False,
    beavers: bool = False,
    raccoons: bool = False,
    automatic_doubles: bool = False,
    automatic_double_cap: int = 0,
    played_on: datetime | None = None,
    rated: bool = True,
    source: str = "manual",
    source_key: str | None = None,
    by=None,
) -> Match:
    """Start a match to `length` points, or a money session with its options."""
    if player_a.pk == player_b.pk:
        raise ValidationError({"player_b": ["A match needs two different players."]})
    try:
        kind = MatchKind(kind)
    except ValueError:
        raise ValidationError({"kind": ['The kind is "match" (to N points) or "session" (money play).']}) from None
    if kind is MatchKind.MATCH:
        money = {
            "jacoby": jacoby,
            "beavers": beavers,
            "raccoons": raccoons,
            "automatic_doubles": automatic_doubles or automatic_double_cap,
        }
        errors = {
            field: [f"{field.replace('_', ' ').capitalize()} are never used in match play."]
            if field != "jacoby"
            else ["The Jacoby rule is never used in match play."]
            for field, on in money.items()
            if on
        }
        if errors:
            raise ValidationError(errors)
        MatchRules(length=length, cube_cap=cube_cap)  # raises ScoringError with the field
    else:
        if length:
            raise ValidationError({"length": ["A money session has no length: leave it at 0."]})
        SessionRules(
            jacoby=jacoby,
            beavers=beavers,
            raccoons=raccoons,
            automatic_doubles=automatic_doubles,
            automatic_double_cap=automatic_double_cap,
            cube_cap=cube_cap,
        )
    match = Match(
        player_a=player_a,
        player_b=player_b,
        kind=kind,
        length=length if kind is MatchKind.MATCH else 0,
        cube_cap=cube_cap,
        jacoby=jacoby,
        beavers=beavers,
        raccoons=raccoons,
        automatic_doubles=automatic_doubles,
        automatic_double_cap=automatic_double_cap,
        played_on=played_on or timezone.now(),
        rated=rated,
        source=source,
        source_key=source_key,
        created_by=by,
    )
    match._history_user = by
    try:
        with transaction.atomic():
            match.save()
    except IntegrityError:
        if source_key and Match.objects.filter(source_key=source_key).exists():
            raise ConflictError(f"This match was already imported ({source_key}).") from None
        raise
    return match


@dataclasses.dataclass(frozen=True)
class GameInput:
    """A game as a score sheet gives it (sides: 0 = player A, 1 = player B)."""

    winner: int
    end: str = GameEnd.PLAYED_OUT
    kind: int = ResultKind.SINGLE
    cube: int = 1
    cube_owner: int | None = None
    beavered: bool = False
    raccooned: bool = False
    automatic_doubles: int = 0
    points: int | None = None
    moves: list | None = None

    def outcome(self) -> GameOutcome:
        try:
            end = GameEnd(self.end)
        except ValueError:
            raise ScoringError('A game ends "played_out", "resigned" or "double_refused".', field="end") from None
        try:
            kind = ResultKind(self.kind)
        except ValueError:
            raise ScoringError("A game is won as a single (1), a gammon (2) or a backgammon (3).", field="kind") from None
        return GameOutcome(
            winner=self.winner,
            end=end,
            kind=kind,
            cube=self.cube,
            cube_owner=self.cube_owner,
            beavered=self.beavered,
            raccooned=self.raccooned,
            automatic_doubles=self.automatic_doubles,
            points=self.points,
        )


def _outcome_of(game: Game) -> GameOutcome:
    return GameOutcome(
        winner=game.winner,
        end=GameEnd(game.end),
        kind=ResultKind(game.kind),
        cube=game.cube,
        cube_owner=game.cube_owner,
        beavered=game.beavered,
        raccooned=game.raccooned,
        automatic_doubles=game.automatic_doubles,
        points=game.points,
    )


def _lock(match: Match, expected_version: int | None) -> Match:
    """Lock the match row for this transaction and check the caller saw its latest version."""
    locked = Match.objects.select_for_update().select_related("player_a", "player_b").get(pk=match.pk)
    if expected_version is not None and locked.version != expected_version:
        raise ConflictError(
            f"The match was changed by someone else (version {locked.version}, you had {expected_version}):"
            " reload it and enter the game again if it is still missing."
        )
    return locked


def _replay(match: Match, outcomes: list[GameOutcome], *, changed_from: int = 1) -> MatchScore:
    """Score a whole sheet; a refusal names the game it is about."""
    score = MatchScore(match.rules, players=(match.player_a.name, match.player_b.name))
    for outcome in outcomes:
        try:
            score.record(outcome)
        except ScoringError as error:
            number = score.next_game_number
            if number > changed_from:
                message = f"This change would make game {number} break the rules: {error.message}"
                raise ScoringError(message, field="non_field_errors") from None
            raise
    return score


def _publish(match: Match, score: MatchScore, *, by=None, reason: str = "") -> Match:
    """Store the state derived from the games and tell the other apps."""
    match.score_a, match.score_b = score.score
    match.crawford_game = score.crawford_game
    match.post_crawford = score.post_crawford
    if match.status != MatchStatus.FORFEITED:
        if score.finished:
            match.status = MatchStatus.FINISHED
            match.winner = match.player_at(score.winner)
            match.finished_at = match.finished_at or timezone.now()
        else:
            match.status = MatchStatus.IN_PROGRESS
            match.winner = None
            match.finished_at = None
    match.version += 1
    match._history_user = by
    match._change_reason = reason or None
    match.save()
    match_result_changed.send(sender=Match, match=match)
    return match


def _store_game(match: Match, record, *, moves, by, game: Game | None = None, reason: str = "") -> Game:
    game = game or Game(match=match, number=record.number)
    outcome = record.outcome
    game.winner = outcome.winner
    game.end = outcome.end.value
    game.kind = int(outcome.kind)
    game.cube = outcome.cube
    game.cube_owner = outcome.cube_owner
    game.beavered = outcome.beavered
    game.raccooned = outcome.raccooned
    game.automatic_doubles = outcome.automatic_doubles
    game.points = record.points
    game.crawford = record.crawford
    game.score_a_after, game.score_b_after = record.score_after
    if moves is not None:
        game.moves = moves
    game.recorded_by = by
    game._history_user = by
    game._change_reason = reason or None
    game.save()
    return game


def game_validate(*, match: Match, game: GameInput):
    """Check `game` as the next game of `match` without storing it (for forms that explain first)."""
    if match.status == MatchStatus.FORFEITED:
        raise ScoringError("The match was forfeited: no game can be recorded.")
    games = list(match.games.order_by("number"))
    return _replay(match, [_outcome_of(g) for g in games]).record(game.outcome())


def game_record(
    *, match: Match, number: int, game: GameInput, by=None, expected_version: int | None = None
) -> Match:
    """Record game `number` of `match`. It must be the next game; the rules must allow it."""
    with transaction.atomic():
        match = _lock(match, expected_version)
        if match.status == MatchStatus.FORFEITED:
            raise ScoringError("The match was forfeited: no game can be recorded.")
        games = list(match.games.order_by("number"))
        expected = len(games) + 1
        if number != expected:
            if number < expected:
                raise ConflictError(
                    f"Game {number} has already been recorded (the next game is game {expected}):"
                    " correct it instead of entering it again."
                )
            raise ValidationError({"number": [f"The next game of this match is game {expected}, not game {number}."]})
        score = _replay(match, [_outcome_of(g) for g in games])
        record = score.record(game.outcome())
        try:
            with transaction.atomic():
                _store_game(match, record, moves=game.moves, by=by)
        except IntegrityError:
            raise ConflictError(f"Game {number} was just recorded by someone else: reload the match.") from None
        return _publish(match, score, by=by, reason=f"game {number} recorded")


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
        match = _lock(match, expected_version)
        games = list(match.games.order_by("number"))
        if not 1 <= number <= len(games):
            raise ValidationError({"number": [f"This match has no game {number}."]})
        outcomes = [_outcome_of(g) for g in games]
        outcomes[number - 1] = game.outcome()
        score = _replay(match, outcomes, changed_from=number)
        for stored, record in zip(games, score.games, strict=True):
            changed = stored.number == number
            moves = game.moves if changed else None
            if not changed and _same_record(stored, record):
                continue
            note = (reason or f"game {number} corrected") if changed else f"rescored after correction of game {number}"
            _store_game(match, record, moves=moves, by=by, game=stored, reason=note)
        return _publish(match, score, by=by, reason=reason or f"game {number} corrected")


def game_delete_last(
    *, match: Match, number: int | None = None, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """Remove the last game of a match (entered by mistake); its record stays in the history.

    `number`, when given, must be the last game's: only the last game can be deleted.
    """
    with transaction.atomic():
        match = _lock(match, expected_version)
        games = list(match.games.order_by("number"))
        if not games:
            raise ValidationError({"number": ["This match has no game to delete."]})
        if number is not None and number != games[-1].number:
            raise ValidationError({"number": [f"Only the last game (game {games[-1].number}) can be deleted."]})
        if match.status == MatchStatus.FORFEITED:
            raise ScoringError("The match was forfeited: undo the forfeit before changing its games.")
        last = games.pop()
        last._history_user = by
        last._change_reason = reason or "deleted"
        last.delete()
        score = _replay(match, [_outcome_of(g) for g in games])
        return _publish(match, score, by=by, reason=reason or f"game {last.number} deleted")


def match_final_score_record(
    *, match: Match, score_a: int, score_b: int, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """Finish a match from its final score alone (a result slip, an imported history).

    Only for a match to N points with no games recorded; recording it again corrects it (the
    earlier score stays in the history). The match is rated like any other unless marked unrated.
    """
    with transaction.atomic():
        match = _lock(match, expected_version)
        if match.kind != MatchKind.MATCH:
            raise ValidationError({"score_a": ["A money session has no final score: record its games."]})
        if match.status == MatchStatus.FORFEITED:
            raise ValidationError({"score_a": ["The match was forfeited: it has no final score."]})
        if match.games.exists():
            raise ValidationError({"score_a": ["This match is recorded game by game: correct its games instead."]})
        winner = check_final_score(match.length, (score_a, score_b))
        match.score_a, match.score_b = score_a, score_b
        match.crawford_game = None
        match.post_crawford = False
        match.status = MatchStatus.FINISHED
        match.winner = match.player_at(winner)
        match.finished_at = match.finished_at or timezone.now()
        match.version += 1
        match._history_user = by
        match._change_reason = reason or "final score recorded"
        match.save()
        match_result_changed.send(sender=Match, match=match)
        return match


def match_forfeit(
    *, match: Match, forfeited_by: Player, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """`forfeited_by` gives the match up (a no-show or withdrawal): the opponent wins, unrated."""
    with transaction.atomic():
        match = _lock(match, expected_version)
        try:
            side = match.side_of(forfeited_by)
        except ValueError as error:
            raise ValidationError({"forfeited_by": [str(error)]}) from None
        if match.status == MatchStatus.FINISHED:
            raise ValidationError({"forfeited_by": ["The match is already finished: it cannot be forfeited."]})
        if match.status == MatchStatus.FORFEITED:
            raise ConflictError("The match has already been forfeited.")
        match.status = MatchStatus.FORFEITED
        match.forfeited_by = forfeited_by
        match.winner = match.player_at(1 - side)
        match.finished_at = timezone.now()
        score = _replay(match, [_outcome_of(g) for g in match.games.order_by("number")])
        return _publish(match, score, by=by, reason=reason or "forfeit")


def match_state(match: Match) -> MatchScore:
    """The scored sheet of a stored match (for pages that show the score game by game)."""
    return _replay(match, [_outcome_of(g) for g in match.games.all()])
