"""A match's life outside its games: created, its final score or forfeit recorded and undone,
changed, voided."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import ConflictError
from config.languages import in_site_language

from ..engine.final_score import check_final_score
from ..engine.scoring import GameOutcome, MatchKind, MatchRules, SessionRules
from ..models import Match, MatchStatus, Player, VariationChoice
from ..signals import match_result_changed
from ._recording import lock, publish, replay, result_save


MONEY_ONLY = {
    "jacoby": gettext_lazy("The Jacoby rule is never used in match play."),
    "beavers": gettext_lazy("Beavers are never used in match play."),
    "raccoons": gettext_lazy("Raccoons are never used in match play."),
    "automatic_doubles": gettext_lazy("Automatic doubles are never used in match play."),
}
"""The money-play options a match refuses, each with its refusal."""


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
    crawford_rule: bool = True,
    variation: str = VariationChoice.BACKGAMMON,
    by=None,
) -> Match:
    """Start a match to `length` points, or a money session with its options.

    `crawford_rule=False` is a match played without the Crawford rule (as some match files say);
    `variation` is "backgammon" or "nackgammon" (the opening position of every game)."""
    if player_a.pk == player_b.pk:
        raise ValidationError({"player_b": [_("A match needs two different players.")]})
    kind = _checked_rules(kind=kind, length=length, cube_cap=cube_cap, crawford_rule=crawford_rule, jacoby=jacoby,
                          beavers=beavers, raccoons=raccoons, automatic_doubles=automatic_doubles,
                          automatic_double_cap=automatic_double_cap)
    if variation not in VariationChoice.values:
        raise ValidationError({"variation": [_('The variation is "backgammon" or "nackgammon".')]})
    match = Match(
        player_a=player_a,
        player_b=player_b,
        kind=kind,
        crawford_rule=crawford_rule,
        variation=variation,
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
            raise ConflictError(_("This match was already imported (%(source)s).") % {"source": source_key}) from None
        raise
    return match


def _checked_rules(*, kind: str, length: int, cube_cap: int | None, crawford_rule: bool, jacoby: bool,
                   beavers: bool, raccoons: bool, automatic_doubles: bool, automatic_double_cap: int) -> MatchKind:
    """The kind of a new match, once its rules are checked: a match to N points refuses the
    money-play options, a money session a length and the Crawford rule."""
    try:
        kind = MatchKind(kind)
    except ValueError:
        raise ValidationError({"kind": [_('The kind is "match" (to N points) or "session" (money play).')]}) from None
    if kind is MatchKind.MATCH:
        money = {
            "jacoby": jacoby,
            "beavers": beavers,
            "raccoons": raccoons,
            "automatic_doubles": automatic_doubles or automatic_double_cap,
        }
        errors = {field: [MONEY_ONLY[field]] for field, on in money.items() if on}
        if errors:
            raise ValidationError(errors)
        MatchRules(length=length, cube_cap=cube_cap)  # raises ScoringError with the field
        return kind
    if length:
        raise ValidationError({"length": [_("A money session has no length: leave it at 0.")]})
    if automatic_doubles and not automatic_double_cap:
        raise ValidationError({"automatic_double_cap": [
            _("Automatic doubles are on: say how many a game may have (1 or more); a cap of 0 allows none.")
        ]})
    if not crawford_rule:
        raise ValidationError({"crawford_rule": [_("The Crawford rule belongs to match play: a session has none.")]})
    SessionRules(jacoby=jacoby, beavers=beavers, raccoons=raccoons, automatic_doubles=automatic_doubles,
                 automatic_double_cap=automatic_double_cap, cube_cap=cube_cap)
    return kind


def match_final_score_record(
    *, match: Match, score_a: int, score_b: int, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """Finish a match from its final score alone (a result slip, an imported history).

    Only for a match to N points with no games recorded; recording it again corrects it (the
    earlier score stays in the history). The match is rated like any other unless marked unrated.
    """
    with transaction.atomic():
        match = lock(match, expected_version)
        if match.kind != MatchKind.MATCH:
            raise ValidationError({"score_a": [_("A money session has no final score: record its games.")]})
        if match.status == MatchStatus.FORFEITED:
            raise ValidationError({"score_a": [_("The match was forfeited: it has no final score.")]})
        if match.games.exists():
            raise ValidationError({"score_a": [_("This match is recorded game by game: correct its games instead.")]})
        winner = check_final_score(match.length, (score_a, score_b), cube_cap=match.cube_cap)
        match.score_a, match.score_b = score_a, score_b
        match.crawford_game = None
        match.post_crawford = False
        match.status = MatchStatus.FINISHED
        match.winner = match.player_at(winner)
        match.finished_at = match.finished_at or timezone.now()
        return result_save(match, by=by, reason=reason or in_site_language(gettext_noop("final score recorded")))


def match_final_score_undo(*, match: Match, by=None, reason: str = "", expected_version: int | None = None) -> Match:
    """Take back a final score recorded by mistake: the match is open again at 0–0 (the score
    stays in its history) and leaves the rated history."""
    with transaction.atomic():
        match = lock(match, expected_version)
        if match.status != MatchStatus.FINISHED or match.games.exists():
            raise ValidationError({"score_a": [_("This match has no final score of its own to undo.")]})
        match.score_a = match.score_b = 0
        match.status = MatchStatus.IN_PROGRESS
        match.winner = None
        match.finished_at = None
        return result_save(match, by=by, reason=reason or in_site_language(gettext_noop("final score undone")))


def match_forfeit(
    *, match: Match, forfeited_by: Player, by=None, reason: str = "", expected_version: int | None = None
) -> Match:
    """`forfeited_by` gives the match up (a no-show or withdrawal): the opponent wins, unrated."""
    with transaction.atomic():
        match = lock(match, expected_version)
        try:
            side = match.side_of(forfeited_by)
        except ValueError as error:
            raise ValidationError({"forfeited_by": [str(error)]}) from None
        if match.status == MatchStatus.FINISHED:
            raise ValidationError({"forfeited_by": [_("The match is already finished: it cannot be forfeited.")]})
        if match.status == MatchStatus.FORFEITED:
            raise ConflictError(_("The match has already been forfeited."))
        match.status = MatchStatus.FORFEITED
        match.forfeited_by = forfeited_by
        match.winner = match.player_at(1 - side)
        match.finished_at = timezone.now()
        score = replay(match, [GameOutcome.from_row(g) for g in match.games.order_by("number")])
        return publish(match, score, by=by, reason=reason or in_site_language(gettext_noop("forfeit")))


def match_forfeit_undo(*, match: Match, by=None, reason: str = "", expected_version: int | None = None) -> Match:
    """Take back a forfeit given by mistake: the match goes on from its games, as they were.

    The forfeit stays in the match's history; the score, the Crawford game and the status are
    worked out again from the games (a match whose games had already finished it is finished).
    """
    with transaction.atomic():
        match = lock(match, expected_version)
        if match.status != MatchStatus.FORFEITED:
            raise ValidationError({"non_field_errors": [_("The match was not forfeited: there is no forfeit to undo.")]})
        match.status = MatchStatus.IN_PROGRESS
        match.forfeited_by = None
        match.winner = None
        match.finished_at = None
        score = replay(match, [GameOutcome.from_row(g) for g in match.games.order_by("number")])
        return publish(match, score, by=by, reason=reason or in_site_language(gettext_noop("forfeit undone")))


_UNCHANGED = object()


def match_update(
    *,
    match: Match,
    by=None,
    rated: bool = _UNCHANGED,
    played_on: datetime = _UNCHANGED,
    reason: str = "",
    expected_version: int | None = None,
) -> Match:
    """Mark a match rated or unrated, or move the date it was played; the ratings follow.

    Either changes what the ratings count, so once committed every rating system is recomputed
    (through `match_result_changed`, like a changed result). The earlier version stays in the
    match's history. Nothing changes, and nothing is recomputed, when the values are the same.
    """
    errors = {}
    if rated is not _UNCHANGED and not isinstance(rated, bool):
        errors["rated"] = [_("Say whether the match is rated: true or false.")]
    if played_on is not _UNCHANGED and not isinstance(played_on, datetime):
        errors["played_on"] = [_("Give the date and time the match was played.")]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        match = lock(match, expected_version)
        changes = {
            name: value
            for name, value in (("rated", rated), ("played_on", played_on))
            if value is not _UNCHANGED and getattr(match, name) != value
        }
        if not changes:
            return match
        for name, value in changes.items():
            setattr(match, name, value)
        match.version += 1
        match._history_user = by
        match._change_reason = reason or in_site_language(gettext_noop("%(fields)s changed"), {
            "fields": " and ".join(name.replace("_", " ") for name in changes)})
        match.save(update_fields=[*changes, "version"])
        match_result_changed.send(sender=Match, match=match)
    return match


def match_void(*, match: Match, by=None, reason: str) -> Match:
    """The match no longer counts (its tournament pairing was undone): it leaves the rated
    history. Its games and result stay, and the change is kept in its history with `reason`."""
    return match_update(match=match, by=by, rated=False, reason=reason)
