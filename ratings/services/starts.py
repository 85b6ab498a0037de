"""Players' starts from another rating list: a federation (or a club) that moves to Crawford
brings its list, and its members' ratings continue from it instead of restarting at 1500.

The list is a CSV file with a header: `player` (the name) or `federation_id` (or both: the
number finds the player, the name is used when a new one is made), `rating` (the FIBS scale),
`experience` (points played, as the list counts them) and `as_of` (the list's date,
YYYY-MM-DD; a column may give each row its own). `rating_starts_import` checks every row first
and stores nothing when one is wrong, naming its line; a player not on this site yet is made.
Importing the same file again changes nothing; a start that changed asks every system for a
whole recompute (a start counts before the player's first match here, so everything after it
moves). `with_imported_starts` puts the starts into a run's working state.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from datetime import date

import numpy as np
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from config.languages import list_join
from games.models import Player
from games.services import player_create

from ..models import ChangeKind, RatingStart

RATING_RANGE = (0.0, 4000.0)
"""A rating outside these bounds is a typing error, not a player."""

MAX_ROWS = 200_000
MAX_EXPERIENCE = 10_000_000


@dataclass(frozen=True)
class StartRow:
    line: int
    name: str
    federation_id: str
    rating: float
    experience: int
    as_of: date


@dataclass(frozen=True)
class StartsImported:
    """What an import did: starts new, changed and unchanged, players made, and whether it asked
    for a recompute (only when a start changed)."""

    created: int
    changed: int
    unchanged: int
    players_created: int
    recompute: bool
    checked_only: bool = False

    def as_dict(self) -> dict:
        return {"created": self.created, "changed": self.changed, "unchanged": self.unchanged,
                "players_created": self.players_created, "recompute": self.recompute,
                "checked_only": self.checked_only}


def parse_starts(text: str, *, as_of: date | None = None) -> list[StartRow]:
    """The rows of a list's CSV text, every one checked. Raises `ValidationError` with one
    message per wrong line ("line 4: …"), and stores nothing."""
    if "\x00" in text:
        raise ValidationError({"file": [_("The file holds a NUL character: it is not a CSV text file.")]})
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    columns = {name.strip().lower() for name in (reader.fieldnames or []) if name}
    missing = [name for name in ("rating", "experience") if name not in columns]
    if "player" not in columns and "federation_id" not in columns:
        missing.insert(0, "player or federation_id")
    if "as_of" not in columns and as_of is None:
        missing.append("as_of")
    if missing:
        raise ValidationError({"file": [_("The header must name the columns %(columns)s; it lacks %(missing)s.") % {
            "columns": "player (or federation_id), rating, experience, as_of", "missing": list_join(missing)}]})
    rows, errors, seen = [], [], {}
    today = timezone.localdate()
    for number, raw in enumerate(reader, start=2):
        row = {(key or "").strip().lower(): (value or "").strip() for key, value in raw.items() if key}
        if not any(row.values()):
            continue
        if len(rows) + len(errors) >= MAX_ROWS:
            errors.append(_("line %(line)s: a list holds at most %(most)s rows; split the file.") % {
                "line": number, "most": MAX_ROWS})
            break
        problems = []
        name, number_id = " ".join(row.get("player", "").split()), row.get("federation_id", "")
        if not name and not number_id:
            problems.append(_("no player name and no federation number"))
        if len(name) > 120 or len(number_id) > 40:
            problems.append(_("the name or the federation number is too long"))
        rating = _number(row.get("rating", ""))
        if rating is None or not RATING_RANGE[0] < rating < RATING_RANGE[1]:
            problems.append(_("rating %(value)r is not a rating between 0 and 4000") % {"value": row.get("rating", "")})
        experience = row.get("experience", "")
        if not experience.isdigit() or int(experience) > MAX_EXPERIENCE:
            problems.append(_("experience %(value)r is not a whole number of points") % {"value": experience})
        dated = as_of
        if row.get("as_of"):
            try:
                dated = date.fromisoformat(row["as_of"])
            except ValueError:
                problems.append(_("as_of %(value)r is not a date (YYYY-MM-DD)") % {"value": row["as_of"]})
                dated = None
        if dated is not None and dated > today:
            problems.append(_("as_of %(value)s is in the future") % {"value": dated.isoformat()})
        key = ("id", number_id) if number_id else ("name", name.lower())
        if key in seen:
            problems.append(_("the same player as line %(line)s") % {"line": seen[key]})
        seen.setdefault(key, number)
        if problems:
            errors.append(_("line %(line)s: %(problems)s") % {"line": number, "problems": "; ".join(problems)})
            continue
        rows.append(StartRow(number, name, number_id, float(rating), int(experience), dated))
    if errors:
        raise ValidationError({"file": errors})
    if not rows:
        raise ValidationError({"file": [_("The file holds no rows.")]})
    return rows


def _number(text: str) -> float | None:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def rating_starts_import(*, text: str, source: str = "", by=None, as_of: date | None = None,
                         check: bool = False) -> StartsImported:
    """Give the players of a list (`parse_starts`) their starts, in one transaction: nothing is
    stored when a row is wrong or names a player ambiguously. With `check`, only say what it
    would do."""
    rows = parse_starts(text, as_of=as_of)
    with transaction.atomic():
        players, made = _players_of(rows, create=not check)
        current = {start.player_id: start for start in RatingStart.objects.filter(player_id__in=[
            p.pk for p in players.values() if p.pk is not None])}
        created = changed = unchanged = 0
        new_starts, changed_starts = [], []
        for row in rows:
            player = players[row.line]
            start = current.get(player.pk)
            values = (row.rating, row.experience, row.as_of)
            if start is None:
                created += 1
                new_starts.append(RatingStart(player=player, rating=row.rating, experience=row.experience,
                                              as_of=row.as_of, source=source[:200], imported_by=by))
            elif (start.rating, start.experience, start.as_of) == values:
                unchanged += 1
            else:
                changed += 1
                start.rating, start.experience, start.as_of = values
                start.source, start.imported_by = source[:200], by
                changed_starts.append(start)
        recompute = bool(created or changed)
        if check:
            transaction.set_rollback(True)
            return StartsImported(created, changed, unchanged, made, False, True)
        RatingStart.objects.bulk_create(new_starts, batch_size=1000)
        RatingStart.objects.bulk_update(changed_starts, ["rating", "experience", "as_of", "source", "imported_by",
                                                         "imported_at"], batch_size=1000)
        if recompute:
            from .runs import rating_recompute_request  # runs imports the executor, which imports this

            rating_recompute_request(kind=ChangeKind.STARTS)
    return StartsImported(created, changed, unchanged, made, recompute)


def _players_of(rows: list[StartRow], *, create: bool) -> tuple[dict[int, Player], int]:
    """Each row's player, by federation number when it has one, else by name; a player not
    here yet is made (unsaved when not `create`). A name that several players share is an error."""
    by_number = {p.federation_id: p for p in Player.objects.filter(
        federation_id__in=[r.federation_id for r in rows if r.federation_id])}
    names = {r.name.lower() for r in rows if r.name and not r.federation_id or
             (r.federation_id and r.federation_id not in by_number and r.name)}
    by_name: dict[str, list[Player]] = {}
    for player in Player.objects.annotate(lower=Lower("name")).filter(lower__in=names):
        by_name.setdefault(player.lower, []).append(player)
    found, errors, made = {}, [], 0
    for row in rows:
        player = by_number.get(row.federation_id) if row.federation_id else None
        if player is None and row.name:
            same = by_name.get(row.name.lower(), [])
            if len(same) > 1:
                errors.append(_("line %(line)s: several players are called %(name)s; give their federation number")
                              % {"line": row.line, "name": row.name})
                continue
            player = same[0] if same else None
            if player is not None and row.federation_id and (player.federation_id or "") not in ("", row.federation_id):
                errors.append(_("line %(line)s: %(name)s here has federation number %(here)s, not %(number)s")
                              % {"line": row.line, "name": row.name, "here": player.federation_id,
                                 "number": row.federation_id})
                continue
            if player is not None and row.federation_id and not player.federation_id:
                player.federation_id = row.federation_id  # the list tells his number: keep it
                if create:
                    player.save(update_fields=["federation_id"])
        if player is None:
            if not row.name:
                errors.append(_("line %(line)s: no player has federation number %(number)s, and the row gives no name")
                              % {"line": row.line, "number": row.federation_id})
                continue
            if create:
                player = player_create(name=row.name, federation_id=row.federation_id or None)
            else:
                player = Player(name=row.name, federation_id=row.federation_id or None)
            made += 1
        found[row.line] = player
    if errors:
        raise ValidationError({"file": errors})
    return found, made


def with_imported_starts(system, state: dict, players: np.ndarray) -> dict:
    """`state` (a run's working state over `players`, their ids in ascending order) with every
    player who has a start and has not played yet starting from it (`system.imported`)."""
    starts = list(RatingStart.objects.values_list("player_id", "rating", "experience", "as_of"))
    if not starts:
        return state
    ids = np.array([row[0] for row in starts], dtype=np.int64)
    where = np.searchsorted(players, ids)
    inside = where < len(players)
    inside[inside] = players[where[inside]] == ids[inside]
    indexes, chosen = [], []
    for row, i, ok in zip(starts, where.tolist(), inside.tolist()):
        if ok and state["matches"][i] == 0:
            indexes.append(i)
            chosen.append(system.imported(row[0], row[1], row[2], row[3]))
    if not indexes:
        return state
    return system.with_starts(state, indexes, chosen)
