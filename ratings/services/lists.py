"""Official rating lists: a system's published ratings as they stood at the end of the list's
date, with ranks, kept unchanged for ever."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import date, datetime, time, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from config.errors import ConflictError
from games.permissions import is_rating_officer

from ..calibrated import system_in_force
from ..models import OfficialList, OfficialListRow, RatingChange, RatingCheckpoint, RatingSystemState, SystemChoice
from ..ranks import official_list_countries_refresh
from ..systems import PlayerRating
from .systems import system_names
from .writing import BULK_BATCH

logger = logging.getLogger("ratings.recompute")


def _day(day: date) -> str:
    """A date as the reader's language writes it in a sentence ("31 Oct 2025")."""
    return date_format(day, _("j M Y"))


def rating_list_publish(*, system: str, as_of: date, by=None, note: str = "") -> OfficialList:
    """Publish the official list of `system` dated `as_of`: each player's published rating as it
    stood at the end of that day (`ratings_as_of`: results played after it count for nothing,
    players without a result by then are not on it), each established player with his rank (ties
    share one; provisional players have none), kept unchanged for ever. A list dated in the past
    holds what a list published on its day would have held.

    `by` is the staff member publishing it (None from the command line). The date may not be
    after today, nor before or on the date of the system's last official list (400, on
    `as_of`); two people publishing the same day's list at once get one list, and the later
    one a `ConflictError` (409) from the database's unique constraint. The copy holds the
    system's state row, so a recompute that finishes meanwhile publishes after it, never
    under it."""
    system, note = _checked_request(system=system, as_of=as_of, by=by, note=note)
    label = SystemChoice(system).label
    with transaction.atomic():
        state = RatingSystemState.objects.select_for_update().filter(system=system).first()
        run = state.published_run if state is not None else None
        if run is None:
            raise ValidationError({"system": [_("%(system)s has no published ratings yet: recompute them first.")
                                              % {"system": label}]})
        last = _last_official_list(system)
        if last is not None and as_of < last.as_of:
            raise ValidationError({"as_of": [
                _("The last official %(system)s list is dated %(day)s: a new one cannot be dated earlier.")
                % {"system": label, "day": _day(last.as_of)}
            ]})
        if last is not None and as_of == last.as_of:
            raise ValidationError({"as_of": [_("There is already an official %(system)s list of %(day)s.")
                                             % {"system": label, "day": _day(as_of)}]})
        try:
            with transaction.atomic():
                official = OfficialList.objects.create(
                    system=system, as_of=as_of, run=run, rated_at=run.finished_at, published_at=timezone.now(),
                    published_by=by, note=note,
                )
        except IntegrityError:
            raise ConflictError(
                _("Someone else published the official %(system)s list of %(day)s a moment ago.")
                % {"system": label, "day": _day(as_of)}
            ) from None
        known = ratings_as_of(system=system, run_id=run.pk, as_of=as_of)
        ratings = sorted(
            ((r.player, r.rating, r.deviation, r.provisional, r.matches, r.experience) for r in known.values()),
            key=lambda row: (-row[1], row[0]))
        if not ratings:
            raise ValidationError({"as_of": [
                _("No %(system)s result was rated by %(day)s: a list of that date would be empty.")
                % {"system": label, "day": _day(as_of)}
            ]})
        rows = _ranked_rows(official, ratings)
        OfficialListRow.objects.bulk_create(rows, batch_size=BULK_BATCH)
        official.players = len(rows)
        official.save(update_fields=["players"])
    official_list_countries_refresh(official.pk)  # the list's country filter, before any reader asks
    logger.info("%s: official list of %s published with %d players", system, as_of, len(rows))
    return official


def _checked_request(*, system: str, as_of, by, note: str) -> tuple[str, str]:
    """The system's name and the note of a list to publish, once the request is checked: who
    publishes, a date not after today, a note of at most 500 characters."""
    errors: dict[str, list[str]] = {}
    try:
        (system,) = system_names(system)
    except ValidationError as error:
        errors.update(error.message_dict)
    if by is not None and not is_rating_officer(by):
        raise PermissionDenied(_("Only a rating officer or a site admin publishes official rating lists."))
    if not isinstance(as_of, date) or isinstance(as_of, datetime):
        errors["as_of"] = [_("Give the list's date as YYYY-MM-DD.")]
    elif as_of > timezone.localdate():
        errors["as_of"] = [_("%(day)s is after today: a list is dated the day it stands for.") % {"day": _day(as_of)}]
    note = (note or "").strip()
    if len(note) > 500:
        errors["note"] = [_("The note has at most 500 characters.")]
    if errors:
        raise ValidationError(errors)
    return system, note


def _ranked_rows(official: OfficialList, ratings: list[tuple]) -> list[OfficialListRow]:
    """The list's rows, best first: each established player ranked (equal ratings share a rank,
    the next one counts them), each provisional one without a rank."""
    rows, above, previous, rank = [], 0, None, None
    for player_id, rating, deviation, provisional, matches, experience in ratings:
        if not provisional:
            above += 1
            if rating != previous:
                rank, previous = above, rating
        rows.append(OfficialListRow(
            official_list=official, player_id=player_id, rank=None if provisional else rank, rating=rating,
            deviation=deviation, provisional=provisional, matches=matches, experience=experience,
        ))
    return rows


def end_of_day(day: date) -> datetime:
    """The first moment after `day` in the site's time zone: results played before it count."""
    return timezone.make_aware(datetime.combine(day + timedelta(days=1), time()))


def ratings_as_of(*, system: str, run_id, as_of: date, player_ids=None) -> dict[int, PlayerRating]:
    """Each player's rating in the run `run_id` (a run of `system`, or a subquery for one) at the
    end of the day `as_of` (the site's time zone): after his last rated match played by then, as
    the run rated it, with his matches and experience counted up to it; no one without a match by
    then. `player_ids` limits it to those players.

    The deviation is the one after that match, not grown by the days since (a list published on
    its own day copies the ratings so); the volatility is not kept with each match (None).
    Whether a rating is provisional is the system's rule with the run's own settings. Three
    queries: the last match, count and lengths per player; those matches' changes; the run's
    settings."""
    upto = RatingChange.objects.filter(run_id=run_id, played_on__lt=end_of_day(as_of)).order_by()
    if player_ids is not None:
        upto = upto.filter(player_id__in=list(player_ids))
    per_player = upto.values("player_id").annotate(last=Max("sequence"), matches=Count("id"), experience=Sum("length"))
    totals = {row["player_id"]: (row["last"], row["matches"], row["experience"]) for row in per_player}
    if not totals:
        return {}
    last_changes = upto.filter(sequence__in=per_player.values("last")).values_list(
        "player_id", "sequence", "rating_after", "deviation_after", "played_on")
    settled = RatingCheckpoint.objects.filter(run_id=run_id, head=True).values_list("settled_value", flat=True).first()
    engine = system_in_force(system).settled_with(settled)
    found = {}
    for player_id, sequence, rating, deviation, played_on in last_changes.iterator(chunk_size=5000):
        last, matches, experience = totals[player_id]
        if sequence != last:  # the opponent's last match, not his
            continue
        known = PlayerRating(player_id, rating, deviation, None, experience, matches, played_on, False)
        found[player_id] = replace(known, provisional=engine.is_provisional(known))
    return found


def _last_official_list(system: str) -> OfficialList | None:
    """The system's official list with the latest date."""
    return OfficialList.objects.filter(system=system).order_by("-as_of").first()
