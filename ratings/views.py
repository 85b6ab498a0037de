"""Rating pages: the list (live or an official list, which staff publish from it), the published
formula, a player's chances, and recompute progress.

Reads go through `ratings.selectors` (always the published run); each page runs a fixed number
of queries whatever the page size.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from array import array

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models.functions import Lower
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.utils.formats import date_format, get_format
from django.views.decorators.http import require_POST

from config.errors import ConflictError
from config.exports import SafeCsvWriter
from config.widgets import WIDGETS
from games.models import Player
from games.people import RATING_OFFICE, public_name

from . import calibrated, charts, selectors, services
from .api import official_list_csv_response
from .models import RunStatus, SystemChoice
from .permissions import may_publish_rating_list
from .ranks import established_ratings, list_countries, official_list_countries, ratings_version, ratings_versions
from .systems import CrawfordParameters, fibs, params

PAGE_SIZE = 50
SORTS = {
    "rating": ("-rating",),  # the list index gives this order without sorting
    "name": (Lower("player__name"), "player_id"),
    "country": ("player__country", "-rating", "player_id"),
    "club": (Lower("player__club"), "-rating", "player_id"),
    "matches": ("-matches", "-rating", "player_id"),
    "experience": ("-experience", "-rating", "player_id"),
}
"""Each column's natural order; `dir=reverse` turns it round. `surname` is sorted in Python."""
SURNAME = "surname"
GROUPS = {"": gettext_lazy("Everybody"), "0": gettext_lazy("Established"), "1": gettext_lazy("Provisional")}


def _system(value: str | None) -> str:
    return value if value in services.system_labels() else services.default_system()


class RatingFilterForm(forms.Form):
    q = forms.CharField(label=gettext_lazy("Player name"), required=False, max_length=120,
                        help_text=gettext_lazy("Any part of the name: “berg” finds Anna Berg and Bergström."))
    country = forms.ChoiceField(label=gettext_lazy("Country"), required=False)
    club = forms.CharField(label=gettext_lazy("Club"), required=False, max_length=120,
                           help_text=gettext_lazy("Any part of the club's name."))

    def __init__(self, *args, countries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", _("All countries"))] + [(c, c) for c in countries]


def surname_key(name: str) -> tuple[str, str]:
    """Sort key of a name by its last word (the surname in most of the names on a list)."""
    words = name.split()
    return (words[-1].casefold() if words else "", name.casefold())


RANKS_KEPT_SECONDS = 60 * 60


def rank_of(values: array, rating: float) -> int:
    """1 + the number of established ratings above `rating`."""
    return len(values) - bisect.bisect_right(values, rating) + 1


def _ranks(system: str, ratings: list, version: str | None = None) -> dict[int, int]:
    """Each listed established player's rank in the whole established list of the system (of the
    published ratings' `version`, when the caller has it)."""
    if not any(not r.provisional for r in ratings):
        return {}
    values = established_ratings(system, version)
    return {r.pk: rank_of(values, r.rating) for r in ratings if not r.provisional}


def _whole_order(ratings, system: str, group: str, sort: str, *, filtered: bool,
                 version: str | None = None) -> list[int] | None:
    """The whole live list's ids in the order of `sort`, kept in the cache per published run, so a
    deep page is a slice rather than a sort of every rating; None for a filtered list or the rating
    order (which its index gives without sorting). Surnames are sorted here: names hold no surname
    column."""
    if filtered or sort == "rating":
        return None
    key = f"{sort}-order:{system}:{version or ratings_version(system)}:{group}"
    order = cache.get(key)
    if order is None:
        order = _order(ratings, sort)
        cache.set(key, order, RANKS_KEPT_SECONDS)
    return order


def _order(ratings, sort: str) -> list[int]:
    if sort == SURNAME:
        named = sorted(ratings.order_by().values_list("pk", "player__name"), key=lambda row: surname_key(row[1]))
        return [pk for pk, _ in named]
    return list(ratings.order_by(*SORTS[sort]).values_list("pk", flat=True))


class PublishListForm(forms.Form):
    """Staff: publish the official list of the system shown, dated `as_of`."""

    as_of = forms.DateField(label=gettext_lazy("Date of the list"), widget=forms.DateInput(attrs={"type": "date"}))
    note = forms.CharField(label=gettext_lazy("Note (optional)"), required=False, max_length=500)


def _official(lists: list, value: str | None):
    """The official list a `list` parameter names among the system's lists; None for the live list."""
    return next((official for official in lists if str(official.pk) == (value or "")), None)


def _change(then, separator: str = ".") -> tuple[str, str]:
    """A player's change since an official list as shown, with the site's colour for it:
    ("+12.3", "win"), ("−4.0", "loss") with a real minus sign, ("0.0", ""), or ("new", "meta")
    for a player who was not on the list; in the reader's language (its word, its decimal
    `separator`)."""
    if then is None:
        return pgettext("a player not on the last official list", "new"), "meta"
    shown = round(then.change, 1) + 0.0
    if shown > 0:
        return f"+{shown:.1f}".replace(".", separator), "win"
    if shown < 0:
        return f"\u2212{-shown:.1f}".replace(".", separator), "loss"
    return f"{0.0:.1f}".replace(".", separator), ""


def _row_words() -> dict[str, str]:
    """What every row of the list says, translated (and escaped) once per page rather than once per row."""
    return {key: escape(text) for key, text in {
        "rank": _("Rank"), "not_ranked": _("Provisional: not ranked yet"), "p": pgettext("provisional rating", "P"),
        "provisional": _("Provisional"), "rating": _("Rating"), "change": _("Change"), "rank_then": _("Rank then"),
        "provisional_then": _("Provisional then"), "country": _("Country"), "club": _("Club"),
        "matches": _("Matches"), "matches_unit": pgettext("after a number", "matches"),
        "experience": _("Experience"), "nobody": _("No player matches these filters."),
    }.items()}


def _rows_html(rows: list, *, previous, columns: int) -> str:
    """The list's rows, drawn by Jinja2 (`templates/jinja2/ratings/rows.html`): a page of 50 rows
    in Django's engine spent more on its loop and its per-row translations than on its queries."""
    return mark_safe(get_template("ratings/rows.html", using="jinja2").render({
        "rows": rows, "previous": previous, "columns": columns, "words": _row_words(),
        "player_url": reverse("player", args=[0])[:-2]}))


def rating_list(request):
    system = _system(request.GET.get("system"))
    group = request.GET.get("provisional") if request.GET.get("provisional") in GROUPS else ""
    sort = request.GET.get("sort") if request.GET.get("sort") in SORTS or request.GET.get("sort") == SURNAME \
        else "rating"
    reverse_ = request.GET.get("dir") == "reverse"
    lists = list(selectors.official_lists(system=system))
    official = _official(lists, request.GET.get("list"))
    version = ratings_version(system) if official is None else None
    countries = list_countries(system, version) if official is None else official_list_countries(official.pk)
    previous = selectors.official_list_before(lists, official)
    form = RatingFilterForm(request.GET or None, countries=countries)
    form.is_valid()
    filters = getattr(form, "cleaned_data", {})  # the fields that were valid
    provisional = {"": None, "0": False, "1": True}[group]
    if official is None:
        ratings = selectors.rating_list(system=system, country=filters.get("country") or None,
                                        provisional=provisional)
    else:
        ratings = selectors.official_list_rows(official_list=official, country=filters.get("country") or None,
                                               provisional=provisional)
    if filters.get("club"):
        ratings = ratings.filter(player__club__icontains=filters["club"])
    for word in (filters.get("q") or "").split():
        ratings = ratings.filter(player__name__icontains=word)
    if request.GET.get("format") == "csv":
        if official is not None:
            return official_list_csv_response(official, previous)
        return _csv(ratings.order_by(*SORTS["rating"]), system)
    filtered = official is not None or any(filters.get(k) for k in ("q", "country", "club"))
    order = _whole_order(ratings, system, group, sort, filtered=filtered, version=version)
    order = _page_order(ratings, order, sort, reverse_, searched=bool(filters.get("q")))
    page = _page(ratings, order, request.GET.get("page"), system=system, version=version, official=official,
                 previous=previous)
    keep = request.GET.copy()
    keep.pop("page", None)
    columns = _columns(keep, sort, reverse_, previous)
    staff = may_publish_rating_list(request.user)
    return render(request, "ratings/list.html", {
        "nav": "ratings",
        "system": system,
        "system_label": services.system_labels()[system],
        "provisional": group == "1",
        "group": group,
        "form": form,
        "page": page,
        "sort": sort,
        "columns": columns,
        "rows_html": _rows_html(page.object_list, previous=previous, columns=len(columns)),
        "sort_choices": [("rating", _("Rating")), ("name", _("First name")), (SURNAME, _("Surname")),
                         ("country", _("Country")), ("club", _("Club")), ("matches", _("Matches")),
                         ("experience", _("Experience"))],
        "query": keep.urlencode(),
        "csv": "?" + _with(keep, format="csv", sort=None, dir=None),
        "official": official,
        "previous": previous,
        "lists": lists,
        "rated_at": selectors.live_rated_at(system=system) if official is None else None,
        "publish_form": PublishListForm(initial={"as_of": timezone.localdate()}) if staff else None,
        "system_tabs": [(k, label, "?" + _with(keep, system=k, list=None))
                        for k, label in services.system_labels().items()],
        "group_tabs": [(key, label, "?" + _with(keep, system=system, provisional=key or None))
                       for key, label in GROUPS.items()],
    })


def _page_order(ratings, order, sort: str, reverse_: bool, *, searched: bool):
    """The ids of the list's rows in the order asked: the whole list's order where it is kept
    (`order`, from `_whole_order`) or the surname's, else the database's."""
    if order is not None or sort == SURNAME:
        order = _order(ratings, sort) if order is None else order
        return order[::-1] if reverse_ else order
    ordered = ratings.order_by(*SORTS[sort])
    order = (ordered.reverse() if reverse_ else ordered).values_list("pk", flat=True)
    if searched:
        # A name searched for finds a few players: their ids in one query, counted here,
        # rather than a count and then a page, each reading every player. (A country or a
        # club alone finds thousands, whose first page the rating index reads at once.)
        order = list(order)
    return order


def _page(ratings, order, number, *, system: str, version, official, previous):
    """The page `number` of the list: the page's ids first (a narrow sort, which a deep page of
    a long list needs), then its rows, each with its rank and its change since `previous`."""
    page = Paginator(order, PAGE_SIZE).get_page(number)
    ids = list(page.object_list)
    rows = {r.pk: r for r in ratings.model.objects.filter(pk__in=ids).select_related("player")}
    page.object_list = [rows[pk] for pk in ids if pk in rows]
    if official is None:  # an official list keeps its ranks
        ranks = _ranks(system, page.object_list, version)
        for r in page.object_list:
            r.rank = ranks.get(r.pk)
    then = selectors.rating_changes_since(official_list=previous, ratings=page.object_list)
    separator = get_format("DECIMAL_SEPARATOR")
    for r in page.object_list:
        r.then = then.get(r.player_id)
        r.change, r.trend = _change(r.then, separator)
    return page


def _columns(keep, sort: str, reverse_: bool, previous) -> list[dict]:
    """The list's column heads, each sortable one with the link that sorts by it (or the other
    way, for the column sorted by now); the change and the rank then only beside an earlier list."""
    columns = []
    for key, label, css in (("rank", "#", "num"), ("name", _("Player"), ""), (SURNAME, _("Surname"), "hide-narrow"),
                            ("rating", _("Rating"), "num"), ("change", _("Change"), "num"),
                            ("rank_then", _("Rank then"), "num hide-narrow"), ("country", _("Country"), ""),
                            ("club", _("Club"), "hide-narrow"), ("matches", _("Matches"), "num"),
                            ("experience", _("Experience"), "num hide-narrow")):
        if key in ("change", "rank_then"):
            if previous is not None:
                columns.append({"label": label, "css": css, "sort": None, "href": None, "next": None})
            continue
        key = "rating" if key == "rank" else key
        natural = "descending" if key in ("rating", "matches", "experience") else "ascending"
        flipped = {"ascending": "descending", "descending": "ascending"}[natural]
        current = key == sort and label != "#"
        columns.append({
            "label": label, "css": css,
            "sort": (flipped if reverse_ else natural) if current else None,
            "href": "?" + _with(keep, sort=key, dir="reverse" if current and not reverse_ else None),
            "next": flipped if current and not reverse_ else natural,
        })
    return columns


@require_POST
def rating_list_publish(request):
    """Staff: publish the official list of a system from the rating list page."""
    if not may_publish_rating_list(request.user):
        raise PermissionDenied(_("Only a rating officer or a site admin publishes official rating lists."))
    system = _system(request.POST.get("system"))
    back = f"{reverse('rating-list')}?system={system}"
    form = PublishListForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(text for texts in form.errors.values() for text in texts))
        return redirect(back)
    try:
        official = services.rating_list_publish(system=system, as_of=form.cleaned_data["as_of"], by=request.user,
                                                note=form.cleaned_data["note"])
    except (ValidationError, ConflictError) as error:
        texts = error.messages if isinstance(error, ValidationError) else [str(error)]
        messages.error(request, " ".join(texts))
        return redirect(back)
    messages.success(request, ngettext(
        "The official %(system)s list of %(day)s is published: %(players)s player.",
        "The official %(system)s list of %(day)s is published: %(players)s players.", official.players,
    ) % {"system": services.system_labels()[system], "day": date_format(official.as_of, _("j M Y")),
         "players": official.players})
    return redirect(f"{back}&list={official.pk}")


def _csv(ratings, system: str) -> HttpResponse:
    """The filtered list as CSV, best first, with each established player's rank."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{system}.csv"'
    writer = SafeCsvWriter(response)
    writer.writerow(["rank", "player_id", "name", "country", "club", "rating", "deviation", "provisional",
                     "matches", "experience"])
    rows = list(ratings.values_list("pk", "player_id", "player__name", "player__country", "player__club", "rating",
                                    "deviation", "provisional", "matches", "experience"))
    values = established_ratings(system)
    for pk, player_id, name, country, club, rating, deviation, provisional, matches, experience in rows:
        rank = "" if provisional else rank_of(values, rating)
        writer.writerow([rank, player_id, name, country, club, f"{rating:.1f}",
                         "" if deviation is None else f"{deviation:.0f}", "yes" if provisional else "no",
                         matches, experience])
    return response


def _with(query, **changes) -> str:
    query = query.copy()
    for key, value in changes.items():
        query.pop(key, None)
        if value is not None:
            query[key] = value
    return query.urlencode()


FORMULA_KEPT_SECONDS = 60 * 60 * 24


def rating_formula(request):
    """The formula page. Its body is kept in the cache per language and time zone, published
    ratings (each system's `ratings_version`: the accuracy tables and charts are worked out from
    them) and calibrations shown (their rows as read): two queries when it is kept, four when it is
    drawn (the accuracy and the loss over time, two grouping queries over every rated match)."""
    in_force, latest = calibrated.calibrations_shown()
    adopted_by = public_name(in_force.adopted_by, RATING_OFFICE) if in_force and in_force.adopted_by_id else ""
    key = "formula:" + hashlib.sha256(repr((
        settings.CRAWFORD_VERSION, get_language(), timezone.get_current_timezone_name(),
        sorted(ratings_versions().items()), list(services.system_labels()), adopted_by,
        [(c.pk, c.status, c.parameters, c.matches, c.reason, c.created_at, c.adopted_at) if c else None
         for c in (in_force, latest)],
    )).encode()).hexdigest()
    body = _kept_body(key)
    if body is None:
        body = render_to_string("ratings/_formula.html", _formula_context(in_force, latest, adopted_by))
        _keep_body(key, body)
    return render(request, "ratings/formula.html", {"nav": "ratings", "body": mark_safe(body)})


def _kept_body(key: str) -> str | None:
    try:
        return cache.get(key)
    except Exception:  # a cache outage costs the queries, never the page
        return None


def _keep_body(key: str, body: str) -> None:
    try:
        cache.set(key, body, FORMULA_KEPT_SECONDS)
    except Exception:
        pass


def _formula_context(in_force, latest, adopted_by: str) -> dict:
    lengths = [1, 3, 5, 7, 11, 17, 25]
    differences = [0, 50, 100, 200, 400]
    table = [
        (d, [round(100 * fibs.underdog_chance(d, n), 1) for n in lengths]) for d in differences
    ]
    accuracy = selectors.rating_accuracy()
    monthly, periods = selectors.rating_loss_over_time() if accuracy else (True, [])
    parameters = calibrated.parameters_from(in_force.parameters) if in_force else CrawfordParameters()
    return {
        "calibration_in_force": in_force,
        "adopted_by": adopted_by,
        "parameters_in_force": _parameters_words(parameters),
        "crawford": parameters,
        "newcomer_start": parameters.initial_rating + parameters.newcomer_offset,
        "newcomer_below": -parameters.newcomer_offset,
        "latest_calibration": latest,
        "params": params,
        "accuracy": _accuracy_table(accuracy),
        "reliability_chart": charts.reliability_chart(accuracy),
        "loss_chart": charts.loss_chart(monthly, periods),
        "accuracy_matches": max((a.overall.matches for a in accuracy.values()), default=0),
        "experienced_after": fibs.EXPERIENCED_AFTER,
        "luck_adjusted_enabled": "skill" in services.system_labels(),
        "lengths": lengths,
        "table": table,
        "example_gain": round(4 * math.sqrt(7) * 0.5, 2),
    }


def _parameters_words(parameters: CrawfordParameters) -> str:
    """The parameters in a line, in the reader's language (`calibration.describe` says it in English)."""
    return _("C %(c)s, founders' RD %(rd)s, newcomers %(offset)s with RD %(newcomer_rd)s, σ %(sigma)s, τ %(tau)s, "
             "growth per match %(growth)s") % {
        "c": f"{parameters.length_constant:g}", "rd": f"{parameters.initial_deviation:g}",
        "offset": f"{parameters.newcomer_offset:+g}", "newcomer_rd": f"{parameters.newcomer_start_deviation:g}",
        "sigma": f"{parameters.initial_volatility:g}", "tau": f"{parameters.tau:g}",
        "growth": f"{parameters.match_growth:g}"}


def _accuracy_table(accuracy: dict) -> dict:
    """Both systems' rows side by side, per length and per reliability bin: (label, fibs row or
    None, crawford row or None, crawford's log loss minus fibs's or None)."""
    fibs_, crawford = accuracy.get("fibs"), accuracy.get("crawford")

    def side_by_side(attribute: str) -> list:
        rows: dict[str, list] = {}
        for index, system in enumerate((fibs_, crawford)):
            if system is None:
                continue
            found = [system.overall] if attribute == "overall" else getattr(system, attribute)
            for row in found:
                rows.setdefault(row.label, [row.label, None, None])[index + 1] = row
        table = []
        for label, fibs_row, crawford_row in rows.values():
            difference = crawford_row.log_loss - fibs_row.log_loss if fibs_row and crawford_row else None
            table.append((label, fibs_row, crawford_row, difference))
        return table

    return {"overall": side_by_side("overall"), "by_length": side_by_side("by_length"),
            "reliability": side_by_side("reliability")}


class ChancesForm(forms.Form):
    default_renderer = WIDGETS

    player_a = forms.CharField(label=gettext_lazy("Player A"), max_length=120,
                               help_text=gettext_lazy("Type part of the name and pick one."),
                               widget=forms.TextInput(attrs={"list": "players-a", "autocomplete": "off",
                                                             "data-suggest": "players-a"}))
    player_b = forms.CharField(label=gettext_lazy("Player B"), max_length=120,
                               help_text=gettext_lazy("Type part of the name and pick one."),
                               widget=forms.TextInput(attrs={"list": "players-b", "autocomplete": "off",
                                                             "data-suggest": "players-b"}))
    length = forms.IntegerField(label=gettext_lazy("Match length (points)"), min_value=1, max_value=99, initial=7)
    system = forms.ChoiceField(label=gettext_lazy("Rating system"), choices=(), initial=SystemChoice.CRAWFORD)
    as_of = forms.DateField(label=gettext_lazy("As of (optional)"), required=False,
                            help_text=gettext_lazy("The ratings at the end of that day; empty: today's."),
                            widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = list(services.system_labels().items())


FORECAST_FIELDS = {"a": "player_a", "b": "player_b", "length": "length", "system": "system", "as_of": "as_of"}


SUGGESTED = 10
"""Names offered while a player's name is typed."""


def _labelled(name: str, club: str) -> str:
    return f"{name} ({club})" if club else name


def resolve_player(text: str, field: str) -> str | int:
    """A typed player: a number, a whole name, "Name (Club)" as the suggestions give it, or a part
    of one name. Several players fitting are named back (with their clubs) to choose from."""
    text = text.strip()
    if text.isdigit():
        return text
    labelled = re.fullmatch(r"(.+?) \((.+)\)", text)
    if labelled:
        rows = list(Player.objects.filter(name__iexact=labelled[1], club__iexact=labelled[2])
                    .values_list("pk", flat=True)[:2])
        if len(rows) == 1:
            return rows[0]
    exact = list(Player.objects.filter(name__iexact=text).values_list("pk", "name", "club")[:6])
    rows = exact or list(Player.objects.filter(name__icontains=text).order_by("name")
                         .values_list("pk", "name", "club")[:6])
    if len(rows) == 1:
        return rows[0][0]
    if len(rows) > 1:
        names = "; ".join(_labelled(name, club) for _, name, club in rows[:5])
        more = "…" if len(rows) > 5 else ""
        raise ValidationError({field: [_("Several players fit %(text)s: %(names)s%(more)s. Type more of the name, "
                                         "or pick one from the suggestions.") % {"text": repr(text), "names": names,
                                                                                "more": more}]})
    return text


def player_suggestions(request):
    """Players whose name holds the typed text, for the name fields' suggestions (JSON)."""
    q = request.GET.get("q", "").strip()
    rows = []
    if len(q) >= 2 and "\x00" not in q:  # no name holds a NUL (and PostgreSQL refuses to compare with one)
        rows = list(Player.objects.filter(name__icontains=q).order_by(Lower("name"), "id")
                    .values_list("name", "club", "country")[:SUGGESTED])
    return JsonResponse({"players": [{"value": _labelled(n, c), "label": " · ".join(x for x in (c, k) if x)}
                                     for n, c, k in rows]})


def _percent(chance: float) -> str:
    """A chance in whole percent, as Django's `widthratio chance 1 100` writes it."""
    return str(round(float(chance) * 100))


def _forecast_html(forecast, system_label: str) -> str:
    """The chances page's forecast, drawn by Jinja2 (`templates/jinja2/ratings/forecast.html`): its
    sentences translated here and filled with escaped values, as `blocktranslate` fills them."""
    prediction = forecast.prediction
    texts = {key: escape(text) for key, text in {
        "player": _("Player"), "rating": _("Rating"), "chance": _("Chance to win"), "provisional": _("provisional"),
    }.items()}
    texts["heading"] = mark_safe(_("%(length)s-point match, %(system_label)s") % {
        "length": escape(forecast.length), "system_label": escape(system_label)})
    if forecast.as_of:
        texts["as_of"] = mark_safe(_("The ratings at the end of %(day)s: results played later do not count.") % {
            "day": escape(date_format(forecast.as_of, _("j M Y")))})
    if prediction.p_a_low is not None:
        texts["range"] = mark_safe(_(
            "Allowing for how uncertain both ratings are, %(name)s's chance lies between %(low)s%% and %(high)s%% "
            "(95%% interval).") % {"name": escape(forecast.player_a.name), "low": _percent(prediction.p_a_low),
                                   "high": _percent(prediction.p_a_high)})
    texts["formula"] = mark_safe(_("The longer the match, the more the better player's edge counts. "
                                   "<a href=\"%(formula_url)s\">The formula</a>.") % {
        "formula_url": escape(reverse("rating-formula"))})
    return mark_safe(get_template("ratings/forecast.html", using="jinja2").render({
        "forecast": forecast, "texts": texts, "player_url": reverse("player", args=[0])[:-2],
        "rows": [(player.pk, escape(player.name), rating, _percent(chance)) for player, rating, chance in (
            (forecast.player_a, forecast.rating_a, prediction.p_a),
            (forecast.player_b, forecast.rating_b, prediction.p_b))]}))


def chances(request):
    form = ChancesForm(request.GET if "player_a" in request.GET else None)
    forecast = None
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            forecast = selectors.match_forecast(
                player_a=resolve_player(data["player_a"], "a"), player_b=resolve_player(data["player_b"], "b"),
                length=data["length"], system=data["system"], as_of=data.get("as_of"),
            )
        except ValidationError as error:
            for key, texts in error.message_dict.items():
                for text in texts:
                    form.add_error(FORECAST_FIELDS.get(key), text)
    return render(request, "ratings/chances.html", {
        "nav": "chances",
        "form": form,
        "forecast": forecast,
        "forecast_html": _forecast_html(forecast, services.system_labels().get(forecast.system)) if forecast else "",
    }, status=400 if form.is_bound and form.errors else 200)


def run_progress(request):
    """The latest recompute of each system; the fragment alone when the page polls it."""
    runs = selectors.rating_runs_latest()
    busy = any(run.status in (RunStatus.QUEUED, RunStatus.RUNNING) for run in runs)
    context = {"runs": runs, "busy": busy, "labels": services.system_labels(),
               "poll_url": reverse("rating-runs")}
    if request.headers.get("X-Requested-With") == "fetch" or request.GET.get("fragment"):
        return render(request, "ratings/_runs.html", context)
    return render(request, "ratings/runs.html", dict(context, nav="ratings"))


def runs_context() -> dict:
    """For pages that show the progress bar (the TD desk): one query."""
    runs = selectors.rating_runs_latest()
    return {"runs": runs, "busy": any(r.status in (RunStatus.QUEUED, RunStatus.RUNNING) for r in runs),
            "labels": services.system_labels(), "poll_url": reverse("rating-runs")}

