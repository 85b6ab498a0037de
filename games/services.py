"""Writes to players, matches and games: the only way they change.

Each service is atomic, validates through the rules engine, and raises either a Django
`ValidationError` / engine `ScoringError` (bad input: 400, nothing changed) or `ConflictError`
(a concurrent or stale write: 409, nothing changed). The ratings learn about changed results from
the `match_result_changed` signal, sent inside the transaction. A match that decides something
above it (an event's pairing) is written through its keeper (`games.keepers`), which takes its
own locks first and calls these functions inside `keeper_writes`; called any other way on such a
match they refuse (`KeptMatchError`, a 409).
"""

from __future__ import annotations

import dataclasses
import functools
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext_lazy
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models import Value
from django.db.models.functions import Lower
from django.utils import timezone

from config.errors import ConflictError
from config.languages import in_site_language

from . import keepers
from .engine.errors import ScoringError
from .engine.final_score import check_final_score
from .names import same_name, surname_first
from .permissions import may_create_players
from .engine.scoring import (
    OUTCOME_FIELDS,
    CrawfordState,
    GameOutcome,
    MatchKind,
    MatchRules,
    MatchScore,
    SessionRules,
)
from .models import Game, Match, MatchStatus, Player, VariationChoice
from .signals import match_result_changed

# -- players -------------------------------------------------------------------------------------

MONEY_ONLY = {
    "jacoby": gettext_lazy("The Jacoby rule is never used in match play."),
    "beavers": gettext_lazy("Beavers are never used in match play."),
    "raccoons": gettext_lazy("Raccoons are never used in match play."),
    "automatic_doubles": gettext_lazy("Automatic doubles are never used in match play."),
}
"""The money-play options a match refuses, each with its refusal."""


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"name": [_("A player needs a name.")]})
    longest = Player._meta.get_field("name").max_length
    if len(name) > longest:
        raise ValidationError({"name": [_("A player's name is at most %(longest)s characters: %(name)s… has %(length)s.")
                                        % {"longest": longest, "name": name[:40], "length": len(name)}]})
    return name


def player_create(
    *,
    name: str,
    country: str = "",
    club: str = "",
    federation_id: str | None = None,
    confirm_duplicate: bool = False,
    ask_near: bool = False,
    by=None,
) -> Player:
    """Add a player. A second player of the same name and club needs `confirm_duplicate`.

    `by`, when given, must be allowed to (`permissions.may_create_players`): the desk, the API and
    the admin ask this one rule; imports and commands run by the site itself pass no `by`.

    With `ask_near`, a name that is not another player's but near one (an accent, a near
    spelling, "Surname, Given", a lone given name) is refused with the candidates
    (`NearNamesError`): the caller uses one of them, or asks again without `ask_near`.
    """
    if by is not None and not may_create_players(by):
        raise PermissionDenied(_("Only a TD, a rating officer or a site admin adds a player record."))
    name = _clean_name(name)
    club = " ".join((club or "").split())
    country = (country or "").strip().upper()
    if country and (len(country) != 2 or not country.isalpha()):
        raise ValidationError({"country": [_("Give the country as its two-letter code, for example DK or US.")]})
    federation_id = (federation_id or "").strip() or None
    if ask_near:
        from .selectors import player_matcher

        found = [c for c in player_matcher().candidates(surname_first(name) or name, club=club)
                 if not same_name(c.name, name)]
        if found:
            raise NearNamesError({name: found}, how=" " + _("Use that player, or send create to add a new one."))
    with transaction.atomic():
        same = _same_name_and_club(name, club)
        twin = same.order_by("twin", "id").first()
        if twin and not confirm_duplicate:
            if club:
                said = _("%(name)s of %(club)s is already player %(id)s.") % {"name": twin.name, "club": club,
                                                                               "id": twin.pk}
            else:
                said = _("%(name)s with no club is already player %(id)s.") % {"name": twin.name, "id": twin.pk}
            raise ValidationError({"name": [said + " " + _(
                "If this is a different person, confirm the duplicate (confirm_duplicate) or tell them apart by club "
                "or federation id.")]})
        twin_number = 0 if twin is None else 1 + max(same.values_list("twin", flat=True))
        player = Player(name=name, country=country, club=club, federation_id=federation_id, twin=twin_number)
        player._history_user = by
        _save_player(player)
    return player


def _same_name_and_club(name: str, club: str):
    """Players of this name and club in any case, lower-cased by the database as its constraint is."""
    return Player.objects.annotate(lname=Lower("name"), lclub=Lower("club")).filter(
        lname=Lower(Value(name)), lclub=Lower(Value(club)))


def _save_player(player: Player) -> None:
    """Save, letting the database's unique constraints decide between two requests at once: the
    one that loses gets a ConflictError naming the player already there (the API's 409)."""
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        others = Player.objects.exclude(pk=player.pk) if player.pk else Player.objects.all()
        if player.federation_id:
            holder = others.filter(federation_id=player.federation_id).first()
            if holder is not None:
                raise ConflictError(_("Federation id %(federation_id)s belongs to player %(id)s (%(name)s).") % {
                    "federation_id": player.federation_id, "id": holder.pk, "name": holder.name},
                    existing=holder) from None
        twin = _same_name_and_club(player.name, player.club).filter(twin=player.twin).exclude(pk=player.pk).first()
        if twin is not None:
            raise ConflictError(_("%(name)s was added as player %(id)s at the same moment: check that it is not the "
                                  "same person before adding another.") % {"name": twin.name, "id": twin.pk},
                                existing=twin) from None
        raise


def player_update(*, player: Player, by=None, **changes) -> Player:
    allowed = {"name", "country", "club", "federation_id"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValidationError({field: [_("This field cannot be changed.")] for field in sorted(unknown)})
    if "name" in changes:
        changes["name"] = _clean_name(changes["name"])
    if "country" in changes:
        country = (changes["country"] or "").strip().upper()
        if country and (len(country) != 2 or not country.isalpha()):
            raise ValidationError({"country": [_("Give the country as its two-letter code, for example DK or US.")]})
        changes["country"] = country
    if "federation_id" in changes:
        changes["federation_id"] = (changes["federation_id"] or "").strip() or None
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        fed = changes.get("federation_id")
        if fed and Player.objects.filter(federation_id=fed).exclude(pk=player.pk).exists():
            raise ValidationError({"federation_id": [_("Federation id %(federation_id)s belongs to another player.")
                                                     % {"federation_id": fed}]})
        renamed = {"name", "club"} & set(changes)
        for field, value in changes.items():
            setattr(player, field, value)
        if renamed:
            # Renamed into a name and club another player has: a further twin, as an edit always allowed.
            same = _same_name_and_club(player.name, player.club).exclude(pk=player.pk)
            taken = set(same.values_list("twin", flat=True))
            if player.twin in taken:
                player.twin = 1 + max(taken)
        player._history_user = by
        _save_player(player)
    return player


class AmbiguousNamesError(ValidationError):
    """Names that several players share: an import cannot say which one it means. `names` holds them
    in lower case."""

    def __init__(self, names: list[str]):
        self.names = {name.lower() for name in names}
        super().__init__({"name": [f"Several players are named {name}: the file cannot say which one." for name in names]})


class NearNamesError(ValidationError):
    """Names that are no player's but near some players' ("Soren Thygesen" for Søren Thygesen): a
    person says which is meant. `candidates` maps each such name to its `games.names.Candidate`s,
    which the API lists beside the messages; `message_of` maps each name to its message."""

    def __init__(self, candidates: dict, *, field: str = "name", how: str = ""):
        self.candidates = candidates
        self.message_of = {
            name: _("%(name)s is no player here.") % {"name": name} + " " + did_you_mean(found) + how
            for name, found in candidates.items()
        }
        super().__init__({field: list(self.message_of.values())})


def did_you_mean(found) -> str:
    """ "Did you mean Søren Thygesen (Copenhagen BG, player 12)?" for a name's candidates."""
    def one(candidate) -> str:
        if candidate.club:
            return _("%(name)s (%(club)s, player %(key)s)") % {"name": candidate.name, "club": candidate.club,
                                                             "key": candidate.key}
        return _("%(name)s (player %(key)s)") % {"name": candidate.name, "key": candidate.key}
    named = functools.reduce(lambda first, second: _("%(first)s or %(second)s") % {"first": first, "second": second},
                             [one(c) for c in found])
    return _("Did you mean %(players)s?") % {"players": named}


IMPORT_LOOKUP_BATCH = 500
"""Names looked up in one query when an import resolves its players."""


def _players_by_names(keys: list[str], wanted: dict[str, str]) -> dict[str, int]:
    """{lower-case name: id} of the one player of each name (any case), or the player an import
    created under it; `AmbiguousNamesError` for a name several players share."""
    by_name: dict[str, set[int]] = {}
    by_import: dict[str, int] = {}
    for start in range(0, len(keys), IMPORT_LOOKUP_BATCH):
        batch = keys[start:start + IMPORT_LOOKUP_BATCH]
        rows = (
            Player.objects.annotate(lname=Lower("name"))
            .filter(Q(lname__in=batch) | Q(imported_name__in=batch))
            .values_list("pk", "lname", "imported_name")
        )
        for pk, lname, imported in rows:
            by_name.setdefault(lname, set()).add(pk)
            if imported:
                by_import[imported] = pk
    ambiguous = sorted(wanted[key] for key in keys if len(by_name.get(key, ())) > 1)
    if ambiguous:
        raise AmbiguousNamesError(ambiguous)
    ids = {key: next(iter(by_name[key])) for key in keys if key in by_name}
    ids.update((key, by_import[key]) for key in keys if key not in ids and key in by_import)
    return ids


def players_get_or_create_by_names(
    *, names, by=None, new_names=(), accept_near: bool = False
) -> tuple[dict[str, int], list[str]]:
    """For imports: the id of the one player of each name (any case), creating the players nobody
    is named. Returns ({lower-case name: player id}, the names created).

    A name nobody has but near a player's raises `NearNamesError`, unless the import says it is
    a new player: named in `new_names` (any case), or every such name with `accept_near`. A name
    a player has exactly is always that player, even when `new_names` holds it.

    A name several players share raises `AmbiguousNamesError` before anything is created. A new
    player gets the import's name in `imported_name`, which is unique: two imports that create
    the same new player at once insert one row, and the later one takes it (the database decides,
    no process-local lock). A player renamed since an import created him is still found by it.
    """
    wanted: dict[str, str] = {}
    for name in names:
        clean = _clean_name(name)
        wanted.setdefault(clean.lower(), clean)
    keys = list(wanted)
    ids = _players_by_names(keys, wanted)
    missing = [key for key in keys if key not in ids]
    if missing and not accept_near:
        from .selectors import player_matcher

        readings = {wanted[key]: surname_first(wanted[key]) or wanted[key] for key in missing}
        found = player_matcher().candidates_many(list(set(readings.values())))
        declared = {" ".join(name.split()).lower() for name in new_names}
        near = {
            name: found[read] for name, read in readings.items()
            if read in found and name.lower() not in declared
        }
        if near:
            # Another import may have created some of these names since they were looked up (the
            # matcher then finds the very name): those are found now; only the rest are near.
            ids.update(_players_by_names([name.lower() for name in near], wanted))
            near = {name: candidates for name, candidates in near.items() if name.lower() not in ids}
            missing = [key for key in keys if key not in ids]
        if near:
            raise NearNamesError(near, how=" " + _("Write the name as the record has it, or add the new player first."))
    created: list[str] = []
    for start in range(0, len(missing), IMPORT_LOOKUP_BATCH):
        batch = [Player(name=wanted[key], imported_name=key) for key in missing[start:start + IMPORT_LOOKUP_BATCH]]
        try:
            with transaction.atomic():
                Player.objects.bulk_create(batch)
                Player.history.bulk_history_create(batch, default_user=by)
            made = batch
        except IntegrityError:  # another import created some of them meanwhile: one by one
            made = []
            for player in batch:
                player.pk = None
                try:
                    player._history_user = by
                    with transaction.atomic():
                        player.save()
                    made.append(player)
                except IntegrityError:
                    player = Player.objects.get(imported_name=player.imported_name)
                ids[player.imported_name] = player.pk
        for player in made:
            ids[player.imported_name] = player.pk
            created.append(player.name)
    return ids, created


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
    crawford_rule: bool = True,
    variation: str = VariationChoice.BACKGAMMON,
    by=None,
) -> Match:
    """Start a match to `length` points, or a money session with its options.

    `crawford_rule=False` is a match played without the Crawford rule (as some match files say);
    `variation` is "backgammon" or "nackgammon" (the opening position of every game)."""
    if player_a.pk == player_b.pk:
        raise ValidationError({"player_b": [_("A match needs two different players.")]})
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
        errors = {
            field: [MONEY_ONLY[field]]
            for field, on in money.items()
            if on
        }
        if errors:
            raise ValidationError(errors)
        MatchRules(length=length, cube_cap=cube_cap)  # raises ScoringError with the field
    else:
        if length:
            raise ValidationError({"length": [_("A money session has no length: leave it at 0.")]})
        if automatic_doubles and not automatic_double_cap:
            raise ValidationError({"automatic_double_cap": [
                _("Automatic doubles are on: say how many a game may have (1 or more); a cap of 0 allows none.")
            ]})
        if not crawford_rule:
            raise ValidationError({"crawford_rule": [_("The Crawford rule belongs to match play: a session has none.")]})
        SessionRules(
            jacoby=jacoby,
            beavers=beavers,
            raccoons=raccoons,
            automatic_doubles=automatic_doubles,
            automatic_double_cap=automatic_double_cap,
            cube_cap=cube_cap,
        )
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


def _lock(match: Match, expected_version: int | None) -> Match:
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


def _new_score(match: Match) -> MatchScore:
    """An empty score sheet under the match's rules (without the Crawford rule where it is off)."""
    players = (match.player_a.name, match.player_b.name)
    if match.kind == MatchKind.MATCH and not match.crawford_rule:
        return MatchScore.resume(match.rules, score=(0, 0), crawford=CrawfordState.PLAYED, players=players)
    return MatchScore(match.rules, players=players)


def _replay(match: Match, outcomes: list[GameOutcome], *, changed_from: int = 1) -> MatchScore:
    """Score a whole sheet; a refusal names the game it is about."""
    score = _new_score(match)
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
    return _result_save(match, by=by, reason=reason or None)


def _result_save(match: Match, *, by, reason: str | None) -> Match:
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


def _store_game(match: Match, record, *, moves, by, game: Game | None = None, reason: str = "") -> Game:
    game = _fill_game(match, record, moves=moves, by=by, game=game, reason=reason)
    game.save()
    return game


def _fill_game(match: Match, record, *, moves, by, game: Game | None = None, reason: str = "") -> Game:
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


def game_record(
    *, match: Match, number: int, game: GameInput, by=None, expected_version: int | None = None
) -> Match:
    """Record game `number` of `match`. It must be the next game; the rules must allow it."""
    with transaction.atomic():
        match = _lock(match, expected_version)
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
        score = _replay(match, [GameOutcome.from_row(g) for g in games])
        record = score.record(game.outcome())
        try:
            with transaction.atomic():
                _store_game(match, record, moves=game.moves, by=by)
        except IntegrityError:
            raise ConflictError(_("Game %(number)s was just recorded by someone else: reload the match.")
                                % {"number": number}) from None
        return _publish(match, score, by=by, reason=in_site_language(gettext_noop("game %(number)s recorded"), {"number": number}))


def match_games_record(*, match: Match, games: list[GameInput], by=None, reason: str = "") -> Match:
    """Record a whole score sheet at once on a match that has no game yet (an imported match file):
    one lock, one replay, the games inserted together, one new match state. The rules refuse a game
    as `game_record` would, naming it; then nothing is stored."""
    with transaction.atomic():
        match = _lock(match, None)
        if match.status == MatchStatus.FORFEITED:
            raise ScoringError(gettext_noop("The match was forfeited: no game can be recorded."))
        if match.games.exists():
            raise ValidationError({"number": [_("This match already has games: record the next one by itself.")]})
        score = _new_score(match)
        rows = []
        for game in games:
            try:
                record = score.record(game.outcome())
            except ScoringError as error:
                raise ScoringError(f"game {score.next_game_number}: {error.message}", field=error.field) from None
            rows.append(_fill_game(match, record, moves=game.moves, by=by))
        Game.objects.bulk_create(rows, batch_size=500)
        reason = reason or in_site_language(gettext_noop("imported"))
        Game.history.bulk_history_create(rows, batch_size=500, default_user=by, default_change_reason=reason)
        return _publish(match, score, by=by, reason=in_site_language(
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
        match = _lock(match, expected_version)
        games = list(match.games.order_by("number"))
        if not 1 <= number <= len(games):
            raise ValidationError({"number": [_("This match has no game %(number)s.") % {"number": number}]})
        outcomes = [GameOutcome.from_row(g) for g in games]
        outcomes[number - 1] = game.outcome()
        score = _replay(match, outcomes, changed_from=number)
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
            _store_game(match, record, moves=moves, by=by, game=stored, reason=note)
        return _publish(match, score, by=by,
                        reason=reason or in_site_language(gettext_noop("game %(number)s corrected"), {"number": number}))


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
        score = _replay(match, [GameOutcome.from_row(g) for g in games])
        return _publish(match, score, by=by, reason=reason or in_site_language(gettext_noop("game %(number)s deleted"),
                                                                         {"number": last.number}))


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
        return _result_save(match, by=by, reason=reason or in_site_language(gettext_noop("final score recorded")))


def match_final_score_undo(*, match: Match, by=None, reason: str = "", expected_version: int | None = None) -> Match:
    """Take back a final score recorded by mistake: the match is open again at 0–0 (the score
    stays in its history) and leaves the rated history."""
    with transaction.atomic():
        match = _lock(match, expected_version)
        if match.status != MatchStatus.FINISHED or match.games.exists():
            raise ValidationError({"score_a": [_("This match has no final score of its own to undo.")]})
        match.score_a = match.score_b = 0
        match.status = MatchStatus.IN_PROGRESS
        match.winner = None
        match.finished_at = None
        return _result_save(match, by=by, reason=reason or in_site_language(gettext_noop("final score undone")))


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
            raise ValidationError({"forfeited_by": [_("The match is already finished: it cannot be forfeited.")]})
        if match.status == MatchStatus.FORFEITED:
            raise ConflictError(_("The match has already been forfeited."))
        match.status = MatchStatus.FORFEITED
        match.forfeited_by = forfeited_by
        match.winner = match.player_at(1 - side)
        match.finished_at = timezone.now()
        score = _replay(match, [GameOutcome.from_row(g) for g in match.games.order_by("number")])
        return _publish(match, score, by=by, reason=reason or in_site_language(gettext_noop("forfeit")))


def match_forfeit_undo(*, match: Match, by=None, reason: str = "", expected_version: int | None = None) -> Match:
    """Take back a forfeit given by mistake: the match goes on from its games, as they were.

    The forfeit stays in the match's history; the score, the Crawford game and the status are
    worked out again from the games (a match whose games had already finished it is finished).
    """
    with transaction.atomic():
        match = _lock(match, expected_version)
        if match.status != MatchStatus.FORFEITED:
            raise ValidationError({"non_field_errors": [_("The match was not forfeited: there is no forfeit to undo.")]})
        match.status = MatchStatus.IN_PROGRESS
        match.forfeited_by = None
        match.winner = None
        match.finished_at = None
        score = _replay(match, [GameOutcome.from_row(g) for g in match.games.order_by("number")])
        return _publish(match, score, by=by, reason=reason or in_site_language(gettext_noop("forfeit undone")))


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
        match = _lock(match, expected_version)
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
