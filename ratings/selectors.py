"""Reads of the published ratings.

Every read selects the rows of the system's published run with the pointer in the same SQL
statement (a subquery), so a read sees one whole run: the one published before a recompute, or
the one after, never half of each.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Floor, Greatest, Least, Ln, TruncDate
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from config.exports import SafeCsvWriter
from config.fields import MATCH_LENGTH, whole_number
from games.models import Player
from games.people import related_names

from .models import OfficialList, OfficialListRow, Rating, RatingChange, RatingCheckpoint, RatingRun, RatingSystemState
from .calibrated import system_in_force
from .services import system_labels, system_names
from .services.lists import end_of_day, ratings_as_of
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


def match_rating_changes(*, match) -> list[dict]:
    """How a match moved each player's published rating in every enabled system (one query): a
    row per player (A first) with (label, change or None) per system; empty when no system rated it."""
    labels = system_labels()
    runs = Q()
    for system in labels:
        runs |= Q(run_id=published_run(system))
    rows = RatingChange.objects.filter(
        runs, match_id=match.pk, player_id__in=[match.player_a_id, match.player_b_id]
    ).values_list("run__system", "player_id", "rating_before", "rating_after", "deviation_after")
    found: dict[tuple[int, str], dict] = {}
    for system, player_id, before, after, deviation in rows:
        found[player_id, system] = {"before": before, "after": after, "delta": after - before, "deviation": deviation}
    if not found:
        return []
    return [
        {"player": player, "changes": [(label, found.get((player.pk, system))) for system, label in labels.items()]}
        for player in (match.player_a, match.player_b)
    ]


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


def system_as_published(system: str):
    """The rating system as its published run rated: this site's parameters in force, settled as
    that run settled them (crawford: a player without results is a newcomer once the history has
    its founders)."""
    engine = system_in_force(system)
    settled = (RatingCheckpoint.objects.filter(run_id=published_run(system), head=True)
               .values_list("settled_value", flat=True).first())
    return engine.settled_with(settled)


def player_rating(*, player: Player, system: str = "fibs", engine=None) -> PlayerRating:
    """A player's published rating in `system` as the engine's record; a player without one
    is a new player, as `engine` (by default the system as published) starts him."""
    (system,) = system_names(system)
    row = Rating.objects.filter(system=system, run_id=published_run(system), player=player).first()
    if row is None:
        return (engine or system_as_published(system)).new_rating(player.pk)
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
        raise ValidationError({field: [_("No player is called %(name)s.") % {"name": repr(text)}]})
    if text.isdigit():
        try:
            pk = whole_number(text)
        except ValidationError:
            raise ValidationError({field: [_("No player has id %(id)s.") % {"id": text[:20]}]}) from None
        player = Player.objects.filter(pk=pk).first()
        if player is None:
            raise ValidationError({field: [_("No player has id %(id)s.") % {"id": text}]})
        return player
    players = list(Player.objects.filter(name__iexact=" ".join(text.split()))[:2])
    if not players:
        raise ValidationError({field: [_("No player is called %(name)s.") % {"name": repr(text)}]})
    if len(players) > 1:
        raise ValidationError({field: [_("Several players are called %(name)s: give the player's id instead.")
                                       % {"name": repr(text)}]})
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
    as_of: date | None = None
    """The day whose ratings it used (None: the published ratings, today)."""

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
            "as_of": self.as_of.isoformat() if self.as_of else None,
        }


def _as_of_date(value) -> date:
    """A forecast's `as_of`: a date, or its text YYYY-MM-DD, not after today."""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value.strip())
        except ValueError:
            raise ValidationError({"as_of": [_("Give the date as YYYY-MM-DD.")]}) from None
    if not isinstance(value, date) or isinstance(value, datetime):
        raise ValidationError({"as_of": [_("Give the date as YYYY-MM-DD.")]})
    if value > timezone.localdate():
        raise ValidationError({"as_of": [
            _("%(day)s is after today: a forecast as of a date uses the results played by then.")
            % {"day": date_format(value, _("j M Y"))}]})
    return value


def match_forecast(
    *, player_a: str | int, player_b: str | int, length: str | int, system: str = "fibs",
    on: date | datetime | None = None, as_of: date | str | None = None,
) -> MatchForecast:
    """Each player's chance to win an N-point match between A and B (by id or name) from the
    published ratings; for the variance-adjusted rating, deviations grown to `on` (today by
    default) and a 95% interval. Raises `ValidationError` with a message per field.

    With `as_of` (a day, not after today), the ratings are those the players had at the end of
    that day (`ratings_as_of`: results played later count for nothing; a player without a
    result by then is a new player) and deviations are grown to the end of that day, with the
    player's volatility as published now (the rating changes do not keep it)."""
    errors = {}
    if as_of not in (None, ""):
        try:
            as_of = _as_of_date(as_of)
        except ValidationError as error:
            errors.update(error.message_dict)
    else:
        as_of = None
    try:
        (system,) = system_names(system or "fibs")
    except ValidationError as error:
        errors.update(error.message_dict)
    try:
        length = whole_number(length, field=MATCH_LENGTH)
    except ValidationError:
        errors["length"] = [_("The length is a whole number of points, from 1 to 99.")]
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
    # this site's adopted parameters, as its runs rate; how they settled (where a newcomer
    # starts) is read only for a player without a rating
    engine = system_in_force(system)
    if as_of is None:
        rating_a = player_rating(player=found["a"], system=system)
        rating_b = player_rating(player=found["b"], system=system)
    else:
        rating_a, rating_b = _player_ratings_as_of(found["a"], found["b"], system=system, as_of=as_of)
        on = end_of_day(as_of)
    if system == "crawford":
        prediction = engine.predict(rating_a, rating_b, length, on=on or timezone.now())
    else:
        prediction = engine.predict(rating_a, rating_b, length)
    return MatchForecast(system, length, found["a"], found["b"], rating_a, rating_b, prediction, as_of)


def _player_ratings_as_of(*players: Player, system: str, as_of: date) -> list[PlayerRating]:
    """The players' ratings at the end of `as_of` (a new player's, as the system as published
    starts him, for one without a result by then), each with the volatility published now, where
    the system has one."""
    ids = [player.pk for player in players]
    known = ratings_as_of(system=system, run_id=published_run(system), as_of=as_of, player_ids=ids)
    volatility = dict(Rating.objects.filter(system=system, run_id=published_run(system), player_id__in=ids,
                                            volatility__isnull=False).values_list("player_id", "volatility"))
    return [replace(known[pk], volatility=volatility.get(pk)) if pk in known
            else system_as_published(system).new_rating(pk) for pk in ids]


@dataclass(frozen=True)
class AccuracyRow:
    """How well one system forecast a group of matches, each before it was rated.

    `log_loss` is the mean of −ln(chance given to the result that happened), `brier` the mean of
    (chance − result)²; `predicted` is the favourite's mean forecast chance and `won` how often
    the favourite won, so a well calibrated system has the two close."""

    label: str
    matches: int
    log_loss: float
    brier: float
    predicted: float
    won: float


@dataclass(frozen=True)
class SystemAccuracy:
    """A system's forecasts of the published history: overall, per match length, and in bins of
    the favourite's forecast chance (a reliability table)."""

    system: str
    overall: AccuracyRow
    by_length: list[AccuracyRow]
    reliability: list[AccuracyRow]


ACCURACY_BINS = 5
"""Reliability bins of the favourite's chance: 50-60%, 60-70%, 70-80%, 80-90%, 90-100%."""


def _scored_forecasts():
    """The forecasts the formula page scores: one row per match of each published run of FIBS and
    crawford, the favourite's (at exactly even, the player with the lower id)."""
    return RatingChange.objects.filter(
        Q(run_id=published_run("fibs")) | Q(run_id=published_run("crawford")),
        Q(expected__gt=0.5) | Q(expected=0.5, player_id__lt=F("opponent_id")),
    )


def _chance_of_what_happened():
    """The chance the forecast gave to the result that happened."""
    chance = F("expected")
    return Case(When(won=True, then=chance), default=Value(1.0) - chance, output_field=FloatField())


def rating_accuracy() -> dict[str, SystemAccuracy]:
    """Each system's forecasts of every match of its published run, scored against the results.

    A run keeps, per match and player, the chance the system gave him before the match was
    rated (`RatingChange.expected`; for the variance-adjusted rating with both players'
    deviations), so this is how well each rating predicted this site's own matches, updated
    with every recompute. One row per match is scored: the favourite's (at exactly even, the
    player with the lower id). One query for both systems, grouped by system, length and bin;
    systems without a published run are left out."""
    chance, happened = F("expected"), _chance_of_what_happened()
    rows = (
        _scored_forecasts()
        .annotate(bin=Least(Floor(chance * ACCURACY_BINS * 2), Value(2 * ACCURACY_BINS - 1.0)))
        .values("run__system", "length", "bin")
        .annotate(
            matches=Count("id"),
            loss=Sum(-Ln(Greatest(happened, Value(1e-15)))),
            squares=Sum((Case(When(won=True, then=Value(1.0)), default=Value(0.0)) - chance)
                        * (Case(When(won=True, then=Value(1.0)), default=Value(0.0)) - chance)),
            predicted=Sum(chance),
            won_count=Sum(Case(When(won=True, then=Value(1)), default=Value(0), output_field=IntegerField())),
        )
        .order_by()
    )
    groups: dict[str, dict[str, dict]] = {}
    for row in rows:
        system = row["run__system"]
        low = int(row["bin"]) * 10
        keys = (("overall", _("All")), (("length", row["length"]), _("%(length)s pt") % {"length": row["length"]}),
                (("bin", low), f"{low}–{low + 10}%"))
        for key, label in keys:
            total = groups.setdefault(system, {}).setdefault(key, {"label": label, "n": 0, "loss": 0.0,
                                                                    "squares": 0.0, "predicted": 0.0, "won": 0})
            total["n"] += row["matches"]
            total["loss"] += row["loss"]
            total["squares"] += row["squares"]
            total["predicted"] += row["predicted"]
            total["won"] += row["won_count"]

    def scored(total: dict) -> AccuracyRow:
        n = total["n"]
        return AccuracyRow(total["label"], n, total["loss"] / n, total["squares"] / n,
                           total["predicted"] / n, total["won"] / n)

    result = {}
    for system in system_names():
        if system not in groups:
            continue
        totals = groups[system]
        result[system] = SystemAccuracy(
            system,
            scored(totals["overall"]),
            [scored(totals[key]) for key in sorted(k for k in totals if k[0] == "length")],
            [scored(totals[key]) for key in sorted(k for k in totals if k[0] == "bin")],
        )
    return result


@dataclass(frozen=True)
class LossPeriod:
    """Both systems' log loss over the matches of one period (a month, or a block of days when
    the history spans few months), the favourite's row of each match scored as in
    `rating_accuracy`. `difference` is crawford's minus fibs's: below zero, crawford forecast
    that period better."""

    first: date
    last: date
    matches: int
    fibs: float
    crawford: float

    @property
    def difference(self) -> float:
        return self.crawford - self.fibs


LOSS_MONTHS_AT_LEAST = 4
"""A history spanning fewer months is shown in blocks of days with about as many matches each."""
LOSS_BLOCKS = 6


def rating_loss_over_time() -> tuple[bool, list[LossPeriod]]:
    """FIBS's and crawford's log loss on this site's matches over time: (monthly, periods), oldest
    first. One query whatever the number of matches, grouped by system and day in the database;
    the days make months, or, when the history spans fewer than `LOSS_MONTHS_AT_LEAST` months,
    `LOSS_BLOCKS` blocks of whole days with about as many matches each. Only days both systems
    forecast count; empty without both published runs."""
    chance, happened = F("expected"), _chance_of_what_happened()
    rows = (
        _scored_forecasts()
        .annotate(day=TruncDate("played_on"))
        .values("run__system", "day")
        .annotate(matches=Count("id"), loss=Sum(-Ln(Greatest(happened, Value(1e-15)))))
        .order_by()
    )
    days: dict[date, dict[str, tuple[int, float]]] = {}
    for row in rows:
        days.setdefault(row["day"], {})[row["run__system"]] = (row["matches"], row["loss"])
    both = [(day, found["fibs"], found["crawford"]) for day, found in sorted(days.items())
            if "fibs" in found and "crawford" in found]
    if not both:
        return True, []
    months = sorted({(day.year, day.month) for day, _, _ in both})
    monthly = len(months) >= LOSS_MONTHS_AT_LEAST
    groups: list[list] = []
    if monthly:
        for day, fibs_day, crawford_day in both:
            if not groups or (groups[-1][-1][0].year, groups[-1][-1][0].month) != (day.year, day.month):
                groups.append([])
            groups[-1].append((day, fibs_day, crawford_day))
    else:
        total = sum(crawford_day[0] for _, _, crawford_day in both)
        share = total / LOSS_BLOCKS
        counted = 0
        for day, fibs_day, crawford_day in both:
            if not groups or counted >= share * len(groups):
                groups.append([])
            groups[-1].append((day, fibs_day, crawford_day))
            counted += crawford_day[0]
    periods = []
    for group in groups:
        fibs_n = sum(f[0] for _, f, _ in group)
        crawford_n = sum(c[0] for _, _, c in group)
        periods.append(LossPeriod(
            first=group[0][0], last=group[-1][0], matches=crawford_n,
            fibs=sum(f[1] for _, f, _ in group) / fibs_n, crawford=sum(c[1] for _, _, c in group) / crawford_n,
        ))
    return monthly, periods


# -- official lists --------------------------------------------------------------------------------


def official_lists(*, system: str | None = None) -> QuerySet[OfficialList]:
    """The official lists of `system` (of every system by default), latest first, each with who
    published it."""
    lists = OfficialList.objects.select_related(*related_names("published_by")).order_by("-as_of", "system")
    if system:
        (system,) = system_names(system)
        lists = lists.filter(system=system)
    return lists


def official_list_before(lists: list[OfficialList], official: OfficialList | None) -> OfficialList | None:
    """From `official_lists`: the list the given one is compared with, the one dated before it;
    for the live ratings (None), the latest list."""
    if official is None:
        return lists[0] if lists else None
    return next((other for other in lists if other.as_of < official.as_of), None)


def official_list_rows(
    *, official_list: OfficialList | int, country: str | None = None, club: str | None = None,
    provisional: bool | None = None,
) -> QuerySet[OfficialListRow]:
    """The rows of an official list, best first, with their players."""
    rows = OfficialListRow.objects.filter(official_list=official_list).select_related("player")
    if country:
        rows = rows.filter(player__country__iexact=country)
    if club:
        rows = rows.filter(player__club__iexact=club)
    if provisional is not None:
        rows = rows.filter(provisional=provisional)
    return rows.order_by("-rating", "player_id")


@dataclass(frozen=True)
class Then:
    """A player's line on an earlier official list, and how far he has moved since."""

    rating: float
    rank: int | None
    change: float


def rating_changes_since(
    *, official_list: OfficialList | None, ratings: Iterable[Rating | OfficialListRow]
) -> dict[int, Then]:
    """For each of `ratings` (a page of the live list or of an official list), his line on
    `official_list` and his change since, by player id; a player who was not on it is left out
    (he is new). One query whatever the number of rows; none without a list."""
    ratings = list(ratings)
    if official_list is None or not ratings:
        return {}
    earlier = OfficialListRow.objects.filter(
        official_list=official_list, player_id__in=[r.player_id for r in ratings]
    ).order_by().values_list("player_id", "rating", "rank")
    found = {player_id: (rating, rank) for player_id, rating, rank in earlier}
    return {r.player_id: Then(found[r.player_id][0], found[r.player_id][1], r.rating - found[r.player_id][0])
            for r in ratings if r.player_id in found}


def live_rated_at(*, system: str) -> datetime | None:
    """When the system's published ratings were computed (its published run's end)."""
    (system,) = system_names(system)
    return RatingRun.objects.filter(pk=published_run(system)).values_list("finished_at", flat=True).first()


def official_list_csv(*, official_list: OfficialList, previous: OfficialList | None) -> str:
    """The whole official list as CSV, best first: each player's rank and rating, and his rank,
    rating and change since the list before it (empty for a new player or the first list).
    Text a spreadsheet would run as a formula is neutralised. Two queries."""
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["as_of", "rank", "player_id", "name", "country", "club", "rating", "deviation", "provisional",
                     "matches", "experience", "previous_rank", "previous_rating", "change"])
    rows = official_list_rows(official_list=official_list)
    then = {}
    if previous is not None:
        then = {player_id: (rating, rank) for player_id, rating, rank in OfficialListRow.objects.filter(
            official_list=previous).order_by().values_list("player_id", "rating", "rank")}
    for row in rows.iterator(chunk_size=2000):
        before = then.get(row.player_id)
        writer.writerow([
            official_list.as_of.isoformat(), row.rank or "", row.player_id, row.player.name, row.player.country,
            row.player.club, f"{row.rating:.1f}", "" if row.deviation is None else f"{row.deviation:.0f}",
            "yes" if row.provisional else "no", row.matches, row.experience,
            "" if before is None or before[1] is None else before[1],
            "" if before is None else f"{before[0]:.1f}",
            "" if before is None else round(row.rating - before[0], 1) + 0.0,
        ])
    return out.getvalue()


def match_rating_changes_html(match) -> str:
    """How the match moved each player's rating, as a section of games' match page (`games.pages`)."""
    return render_to_string("ratings/_match_changes.html", {"match": match, "rows": match_rating_changes(match=match)})
