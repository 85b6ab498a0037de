"""Reads of the published ratings.

Every read selects the rows of the system's published run with the pointer in the same SQL
statement (a subquery), so a read sees one whole run: the one published before a recompute, or
the one after, never half of each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from games.models import Player

from .models import Rating, RatingChange, RatingRun, RatingSystemState
from .services import system_names
from .systems import PlayerRating, Prediction, get_system


def published_run(system: str) -> Subquery:
    """The id of the system's published run, as a subquery."""
    return Subquery(RatingSystemState.objects.filter(system=system).values("published_run_id")[:1])


def rating_list(
    *, system: str = "fibs", country: str | None = None, club: str | None = None, provisional: bool | None = None
) -> QuerySet[Rating]:
    """The published ratings of `system`, best first, with their players."""
    (system,) = system_names(system)
    ratings = Rating.objects.filter(system=system, run_id=published_run(system)).select_related("player")
    if country:
        ratings = ratings.filter(player__country__iexact=country)
    if club:
        ratings = ratings.filter(player__club__iexact=club)
    if provisional is not None:
        ratings = ratings.filter(provisional=provisional)
    return ratings.order_by("-rating", "player_id")


def rating_history(*, player_id: int, system: str = "fibs") -> QuerySet[RatingChange]:
    """A player's published rating changes in `system`, in the order they were rated."""
    (system,) = system_names(system)
    return (
        RatingChange.objects.filter(run_id=published_run(system), player_id=player_id)
        .select_related("opponent")
        .order_by("sequence")
    )


def rating_map(player_ids: Iterable[int], system: str = "fibs") -> dict[int, float]:
    """Each player's published rating in `system` (for seeding); a player without one has the
    system's starting rating."""
    (system,) = system_names(system)
    ids = list(player_ids)
    found = dict(
        Rating.objects.filter(system=system, run_id=published_run(system), player_id__in=ids).values_list(
            "player_id", "rating"
        )
    )
    start = get_system(system).new_rating(None).rating
    return {player_id: found.get(player_id, start) for player_id in ids}


def player_rating(*, player: Player, system: str = "fibs") -> PlayerRating:
    """A player's published rating in `system` as the engine's record; a player without one
    is a new player."""
    (system,) = system_names(system)
    row = Rating.objects.filter(system=system, run_id=published_run(system), player=player).first()
    if row is None:
        return get_system(system).new_rating(player.pk)
    return PlayerRating(
        player.pk, row.rating, row.deviation, row.volatility, row.experience, row.matches, row.last_played,
        row.provisional,
    )


def rating_runs_latest() -> list[RatingRun]:
    """The latest run of each system (queued, running or finished), with its progress."""
    latest = RatingRun.objects.filter(system=OuterRef("system")).order_by("-requested_at", "-id").values("pk")[:1]
    return list(RatingRun.objects.filter(pk=Subquery(latest)).order_by("system"))


def player_find(text: str | int, *, field: str = "player") -> Player:
    """A player by id or by name (case-insensitive). Raises `ValidationError` on `field` when
    there is none, or several of that name."""
    text = str(text).strip()
    if "\x00" in text:  # no name or id holds one (and PostgreSQL refuses to compare with it)
        raise ValidationError({field: [f"No player is called {text!r}."]})
    if text.isdigit():
        player = Player.objects.filter(pk=int(text)).first()
        if player is None:
            raise ValidationError({field: [f"No player has id {text}."]})
        return player
    players = list(Player.objects.filter(name__iexact=" ".join(text.split()))[:2])
    if not players:
        raise ValidationError({field: [f"No player is called {text!r}."]})
    if len(players) > 1:
        raise ValidationError({field: [f"Several players are called {text!r}: give the player's id instead."]})
    return players[0]


@dataclass(frozen=True)
class MatchForecast:
    """Each player's chance to win a match of a given length, with the ratings it used."""

    system: str
    length: int
    player_a: Player
    player_b: Player
    rating_a: PlayerRating
    rating_b: PlayerRating
    prediction: Prediction

    def as_dict(self) -> dict:
        p = self.prediction
        return {
            "system": self.system,
            "length": self.length,
            "a": {"id": self.player_a.pk, "name": self.player_a.name, "rating": self.rating_a.rating,
                  "deviation": self.rating_a.deviation, "provisional": self.rating_a.provisional},
            "b": {"id": self.player_b.pk, "name": self.player_b.name, "rating": self.rating_b.rating,
                  "deviation": self.rating_b.deviation, "provisional": self.rating_b.provisional},
            "p_a": p.p_a,
            "p_b": p.p_b,
            "difference_deviation": p.difference_deviation,
            "p_a_low": p.p_a_low,
            "p_a_high": p.p_a_high,
        }


def match_forecast(
    *, player_a: str | int, player_b: str | int, length: str | int, system: str = "fibs",
    on: date | datetime | None = None,
) -> MatchForecast:
    """Each player's chance to win an N-point match between A and B (by id or name) from the
    published ratings; for the variance-adjusted rating, deviations grown to `on` (today by
    default) and a 95% interval. Raises `ValidationError` with a message per field."""
    errors = {}
    try:
        (system,) = system_names(system or "fibs")
    except ValidationError as error:
        errors.update(error.message_dict)
    try:
        length = int(str(length).strip())
        if not 1 <= length <= 99:
            raise ValueError
    except ValueError:
        errors["length"] = ["The length is a whole number of points, from 1 to 99."]
    found = {}
    for field, text in (("a", player_a), ("b", player_b)):
        try:
            found[field] = player_find(text, field=field)
        except ValidationError as error:
            errors.update(error.message_dict)
    if not errors and found["a"].pk == found["b"].pk:
        errors["b"] = ["A player cannot play himself."]
    if errors:
        raise ValidationError(errors)
    engine = get_system(system)
    rating_a = player_rating(player=found["a"], system=system)
    rating_b = player_rating(player=found["b"], system=system)
    if system == "crawford":
        prediction = engine.predict(rating_a, rating_b, length, on=on or timezone.now())
    else:
        prediction = engine.predict(rating_a, rating_b, length)
    return MatchForecast(system, length, found["a"], found["b"], rating_a, rating_b, prediction)
