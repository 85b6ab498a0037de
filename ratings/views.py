"""Rating pages: the list, the published formula, a player's chances, and recompute progress.

Reads go through `ratings.selectors` (always the published run); each page runs a fixed number
of queries whatever the page size.
"""

from __future__ import annotations

import math

from django import forms
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models.functions import Lower
from django.shortcuts import render
from django.urls import reverse

from games.models import Player

from . import selectors
from .models import RunStatus, SystemChoice
from .systems import fibs, params

PAGE_SIZE = 50
SORTS = {
    "rating": ("-rating",),  # the list index gives this order without sorting
    "name": (Lower("player__name"), "player_id"),
    "country": ("player__country", "-rating", "player_id"),
    "club": (Lower("player__club"), "-rating", "player_id"),
    "matches": ("-matches", "-rating", "player_id"),
    "experience": ("-experience", "-rating", "player_id"),
}
SYSTEM_LABELS = dict(SystemChoice.choices)


def _system(value: str | None) -> str:
    return value if value in SYSTEM_LABELS else SystemChoice.CRAWFORD.value


class RatingFilterForm(forms.Form):
    q = forms.CharField(label="Player name", required=False, max_length=120)
    country = forms.ChoiceField(label="Country", required=False)
    club = forms.CharField(label="Club", required=False, max_length=120)

    def __init__(self, *args, countries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "All countries")] + [(c, c) for c in countries]


def rating_list(request):
    system = _system(request.GET.get("system"))
    provisional = request.GET.get("provisional") == "1"
    sort = request.GET.get("sort") if request.GET.get("sort") in SORTS else "rating"
    countries = list(
        Player.objects.exclude(country="").order_by("country").values_list("country", flat=True).distinct()
    )
    form = RatingFilterForm(request.GET or None, countries=countries)
    form.is_valid()
    filters = getattr(form, "cleaned_data", {})  # the fields that were valid
    ratings = selectors.rating_list(
        system=system, country=filters.get("country") or None, club=filters.get("club") or None,
        provisional=provisional,
    )
    for word in (filters.get("q") or "").split():
        ratings = ratings.filter(player__name__icontains=word)
    ratings = ratings.order_by(*SORTS[sort])
    # The page's ids first (a narrow sort, which a deep page of a long list needs), then its rows.
    page = Paginator(ratings.values_list("pk", flat=True), PAGE_SIZE).get_page(request.GET.get("page"))
    ids = list(page.object_list)
    rows = {r.pk: r for r in ratings.model.objects.filter(pk__in=ids).select_related("player")}
    page.object_list = [rows[pk] for pk in ids if pk in rows]
    keep = request.GET.copy()
    keep.pop("page", None)
    sort_links = {}
    for key in SORTS:
        params_ = keep.copy()
        params_["sort"] = key
        sort_links[key] = "?" + params_.urlencode()
    return render(request, "ratings/list.html", {
        "nav": "ratings",
        "system": system,
        "system_label": SYSTEM_LABELS[system],
        "provisional": provisional,
        "form": form,
        "page": page,
        "rank_offset": page.start_index() - 1 if sort == "rating" else None,
        "sort": sort,
        "sort_links": sort_links,
        "query": keep.urlencode(),
        "system_tabs": [(k, label, "?" + _with(keep, system=k, provisional=None)) for k, label in SYSTEM_LABELS.items()],
        "group_tabs": [
            (False, "Established", "?" + _with(keep, system=system, provisional=None)),
            (True, "Provisional", "?" + _with(keep, system=system, provisional="1")),
        ],
    })


def _with(query, **changes) -> str:
    query = query.copy()
    for key, value in changes.items():
        query.pop(key, None)
        if value is not None:
            query[key] = value
    return query.urlencode()


def rating_formula(request):
    lengths = [1, 3, 5, 7, 11, 17, 25]
    differences = [0, 50, 100, 200, 400]
    table = [
        (d, [round(100 * fibs.underdog_chance(d, n), 1) for n in lengths]) for d in differences
    ]
    return render(request, "ratings/formula.html", {
        "nav": "ratings",
        "params": params,
        "experienced_after": fibs.EXPERIENCED_AFTER,
        "lengths": lengths,
        "table": table,
        "example_gain": round(4 * math.sqrt(7) * 0.5, 2),
    })


class ChancesForm(forms.Form):
    player_a = forms.CharField(label="Player A", max_length=120, help_text="Name or player number.")
    player_b = forms.CharField(label="Player B", max_length=120, help_text="Name or player number.")
    length = forms.IntegerField(label="Match length (points)", min_value=1, max_value=99, initial=7)
    system = forms.ChoiceField(label="Rating system", choices=SystemChoice.choices, initial=SystemChoice.CRAWFORD)


FORECAST_FIELDS = {"a": "player_a", "b": "player_b", "length": "length", "system": "system"}


def chances(request):
    form = ChancesForm(request.GET if "player_a" in request.GET else None)
    forecast = None
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            forecast = selectors.match_forecast(
                player_a=data["player_a"], player_b=data["player_b"], length=data["length"], system=data["system"]
            )
        except ValidationError as error:
            for key, texts in error.message_dict.items():
                for text in texts:
                    form.add_error(FORECAST_FIELDS.get(key), text)
    return render(request, "ratings/chances.html", {
        "nav": "chances",
        "form": form,
        "forecast": forecast,
        "system_label": SYSTEM_LABELS.get(forecast.system) if forecast else "",
    }, status=400 if form.is_bound and form.errors else 200)


def run_progress(request):
    """The latest recompute of each system; the fragment alone when the page polls it."""
    runs = selectors.rating_runs_latest()
    busy = any(run.status in (RunStatus.QUEUED, RunStatus.RUNNING) for run in runs)
    context = {"runs": runs, "busy": busy, "labels": SYSTEM_LABELS,
               "poll_url": reverse("rating-runs")}
    if request.headers.get("X-Requested-With") == "fetch" or request.GET.get("fragment"):
        return render(request, "ratings/_runs.html", context)
    return render(request, "ratings/runs.html", dict(context, nav="ratings"))


def runs_context() -> dict:
    """For pages that show the progress bar (the TD desk): one query."""
    runs = selectors.rating_runs_latest()
    return {"runs": runs, "busy": any(r.status in (RunStatus.QUEUED, RunStatus.RUNNING) for r in runs),
            "labels": SYSTEM_LABELS, "poll_url": reverse("rating-runs")}

