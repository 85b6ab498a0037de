"""Official rating lists: a dated copy of a system's published ratings, with ranks, kept
unchanged for ever."""

from __future__ import annotations

import logging
from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import ConflictError
from games.permissions import is_rating_officer

from ..models import OfficialList, OfficialListRow, Rating, RatingSystemState, SystemChoice
from .systems import system_names
from .writing import BULK_BATCH

logger = logging.getLogger("ratings.recompute")


def rating_list_publish(*, system: str, as_of: date, by=None, note: str = "") -> OfficialList:
    """Publish the official list of `system` dated `as_of`: a copy of the system's published
    ratings, each established player with his rank (ties share one; provisional players have
    none), kept unchanged for ever.

    `by` is the staff member publishing it (None from the command line). The date may not be
    after today, nor before or on the date of the system's last official list (400, on
    `as_of`); two people publishing the same day's list at once get one list, and the later
    one a `ConflictError` (409) from the database's unique constraint. The copy holds the
    system's state row, so a recompute that finishes meanwhile publishes after it, never
    under it."""
    errors: dict[str, list[str]] = {}
    try:
        (system,) = system_names(system)
    except ValidationError as error:
        errors.update(error.message_dict)
    if by is not None and not is_rating_officer(by):
        raise PermissionDenied("Only a rating officer or a site admin publishes official rating lists.")
    if not isinstance(as_of, date) or isinstance(as_of, datetime):
        errors["as_of"] = ["Give the list's date as YYYY-MM-DD."]
    elif as_of > timezone.localdate():
        errors["as_of"] = [f"{as_of:%d %b %Y} is after today: a list is dated the day it stands for."]
    note = (note or "").strip()
    if len(note) > 500:
        errors["note"] = ["The note has at most 500 characters."]
    if errors:
        raise ValidationError(errors)
    label = SystemChoice(system).label
    with transaction.atomic():
        state = RatingSystemState.objects.select_for_update().filter(system=system).first()
        run = state.published_run if state is not None else None
        if run is None:
            raise ValidationError({"system": [f"{label} has no published ratings yet: recompute them first."]})
        last = _last_official_list(system)
        if last is not None and as_of < last.as_of:
            raise ValidationError({"as_of": [
                f"The last official {label} list is dated {last.as_of:%d %b %Y}: a new one cannot be dated earlier."
            ]})
        if last is not None and as_of == last.as_of:
            raise ValidationError({"as_of": [f"There is already an official {label} list of {as_of:%d %b %Y}."]})
        try:
            with transaction.atomic():
                official = OfficialList.objects.create(
                    system=system, as_of=as_of, run=run, rated_at=run.finished_at, published_at=timezone.now(),
                    published_by=by, note=note,
                )
        except IntegrityError:
            raise ConflictError(
                f"Someone else published the official {label} list of {as_of:%d %b %Y} a moment ago."
            ) from None
        ratings = Rating.objects.filter(run=run).order_by("-rating", "player_id").values_list(
            "player_id", "rating", "deviation", "provisional", "matches", "experience"
        )
        rows, above, previous, rank = [], 0, None, None
        for player_id, rating, deviation, provisional, matches, experience in ratings.iterator(chunk_size=5000):
            if not provisional:
                above += 1
                if rating != previous:
                    rank, previous = above, rating
            rows.append(OfficialListRow(
                official_list=official, player_id=player_id, rank=None if provisional else rank, rating=rating,
                deviation=deviation, provisional=provisional, matches=matches, experience=experience,
            ))
        OfficialListRow.objects.bulk_create(rows, batch_size=BULK_BATCH)
        official.players = len(rows)
        official.save(update_fields=["players"])
    logger.info("%s: official list of %s published with %d players", system, as_of, len(rows))
    return official


def _last_official_list(system: str) -> OfficialList | None:
    """The system's official list with the latest date."""
    return OfficialList.objects.filter(system=system).order_by("-as_of").first()
