"""Players: adding, changing, and finding them by the names a file or a desk gives."""

from __future__ import annotations

import functools

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models import Value
from django.db.models.functions import Lower

from config.errors import ConflictError

from ..names import same_name, surname_first
from ..permissions import may_create_players
from ..models import Player


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
        from ..selectors import player_matcher

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
        super().__init__({"name": [_("Several players are named %(name)s: the file cannot say which one.") % {"name": name}
                                   for name in names]})


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
        from ..selectors import player_matcher

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
