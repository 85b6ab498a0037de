"""Draws at the desk: a flight added, its settings changed, its first round drawn and started, the
next round of a Swiss or a round robin; and the first draw of a flight, seen before it is made.

The draw page shows the seed list and round 1 as `selectors.draw_preview` works them out, and lets
the TD move seeds (Up / Down buttons), keep two players apart or fix a pairing in round 1, and then
confirm, which calls `services.flight_start` with exactly the inputs shown. Nothing is stored
before the confirmation: the whole state (seed order, pairs, the random draw's number, the flight's
version) travels in the form, so the page works without script and two TDs may look at once; the
second to confirm is told the draw is made (409) and nothing of his is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.core.exceptions import BadRequest, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.errors import ConflictError
from config.fields import DRAW_NUMBER, posted_number
from games.engine.errors import ScoringError

from ... import draws, selectors, services
from ...forms import FlightForm, FlightSettingsForm
from ...models import Flight
from ..common import REFUSALS, error_text, form_errors
from .base import DeskPost, posted_int, td_event, td_page

# -- the desk's draw actions ---------------------------------------------------------------------


def flight_add(d: DeskPost):
    form = d.forms["flight"] = FlightForm(d.post, prefix="flight", flights=d.flight_names)
    if not form.is_valid():
        return
    try:
        made = services.flight_create(tournament=d.tournament, by=d.user, **form.service_data)
    except (ValidationError, ScoringError) as error:
        form_errors(form, error)
        return
    messages.success(d.request, _("Flight %(flight)s added.") % {"flight": made.name})
    d.forms.pop("flight")


def settings(d: DeskPost):
    target = d.flight()
    form = FlightSettingsForm(d.post, prefix=f"f{target.pk}")
    if not form.is_valid():
        messages.error(d.request, f"{target.name}: " + " ".join(
            f"{form.fields[name].label}: {' '.join(texts)}" if name in form.fields else " ".join(texts)
            for name, texts in form.errors.items()))
        d.outcome.refused = True
        return
    data = {name: value for name, value in form.cleaned_data.items() if form.add_prefix(name) in d.post}
    services.flight_update(flight=target, by=d.user, expected_version=data.pop("version", None), **data)
    messages.success(d.request, _("%(flight)s: settings saved.") % {"flight": target.name})


def start_flight(d: DeskPost):
    target = d.flight()
    services.flight_start(flight=target, by=d.user, expected_version=d.version())
    messages.success(d.request, _("%(flight)s started: the first round is drawn.") % {"flight": target.name})


def start_round(d: DeskPost):
    target = d.flight()
    made = services.round_start(flight=target, by=d.user, expected_version=d.version())
    messages.success(d.request, _("%(flight)s round %(round)d started.") % {"flight": target.name, "round": made.number})


ACTIONS = {"flight": flight_add, "settings": settings, "start_flight": start_flight, "start_round": start_round}


# -- the first draw of a flight ------------------------------------------------------------------


def _pairs(values: list[str]) -> list[tuple[int, int]]:
    pairs = []
    for value in values:
        a, sep, b = value.partition("-")
        if not sep:
            raise BadRequest(_("Not a pair of players: “%(value)s”.") % {"value": value[:20]})
        pairs.append((posted_int(a, "player"), posted_int(b, "player")))
    return pairs


def _rating_label() -> str:
    try:
        from ratings.services import default_system, system_labels
    except ImportError:
        return ""
    return system_labels().get(default_system(), "")


@dataclass
class _Draw:
    """The draw as the form carries it, and what the TD's last change leaves for the page."""

    seeds: list[int] | None
    apart: list[tuple[int, int]]
    fixed: list[tuple[int, int]]
    random_seed: int | None
    version: int | None
    focus: str = ""
    alert: str = ""
    rule_error: str = ""
    status: int = 200
    context: dict = field(default_factory=dict)

    @classmethod
    def posted(cls, post) -> _Draw:
        return cls(
            seeds=[posted_int(v, "player") for v in post.getlist("seeds")] or None,
            apart=_pairs(post.getlist("apart")), fixed=_pairs(post.getlist("fixed")),
            random_seed=(posted_number(post, "random_seed", what="draw number", field=DRAW_NUMBER)
                         if post.get("random_seed") else None),
            version=posted_int(post.get("version"), "version") if post.get("version") else None)


def _confirm(request, flight: Flight, draw: _Draw):
    """Start the flight with the draw shown. True when it is started; a refusal is left on `draw`,
    and a draw that is now made by someone else is shown as such."""
    try:
        services.flight_start(flight=flight, by=request.user, seeds=draw.seeds, apart=draw.apart, fixed=draw.fixed,
                              random_seed=draw.random_seed, expected_version=draw.version)
    except REFUSALS as error:
        draw.alert = error_text(error)
        draw.status = 409 if isinstance(error, ConflictError) else 400
        flight.refresh_from_db()
        # The field or the settings changed: show the draw as it now stands.
        draw.seeds, draw.version = None, None
        return False
    return True


def _add_rule(request, flight: Flight, draw: _Draw, kind: str) -> None:
    """Keep two players apart, or make them meet in round 1, when the draw can still be made so."""
    a, b = request.POST.get("pair_a", ""), request.POST.get("pair_b", "")
    if not (a and b):
        draw.rule_error = _("Choose two players.")
    else:
        pair = (posted_int(a, "player"), posted_int(b, "player"))
        apart, fixed = (draw.apart + [pair], draw.fixed) if kind == "apart" else (draw.apart, draw.fixed + [pair])
        try:
            selectors.draw_preview(flight=flight, by=request.user, seeds=draw.seeds, random_seed=draw.random_seed,
                                   apart=apart, fixed=fixed)
        except (ValidationError, ConflictError) as error:
            draw.rule_error = error_text(error)
        else:
            draw.apart, draw.fixed = apart, fixed
            draw.focus = "pair-a"
    if draw.rule_error:
        draw.status, draw.focus = 400, "pair-a"


def _drop_rule(value: str, draw: _Draw) -> None:
    kind, _sep, pair_text = value.partition(":")
    (pair,) = _pairs([pair_text])
    if kind == "apart" and pair in draw.apart:
        draw.apart.remove(pair)
    elif kind == "fixed" and pair in draw.fixed:
        draw.fixed.remove(pair)
    draw.focus = "pair-a"


def _move_seed(value: str, draw: _Draw) -> None:
    who, _sep, way = value.partition(":")
    player = posted_int(who, "player")
    seeds = draw.seeds
    if player not in seeds or way not in ("up", "down"):
        raise BadRequest(_("Not a seed to move."))
    i = seeds.index(player)
    j = i - 1 if way == "up" else i + 1
    if 0 <= j < len(seeds):
        seeds[i], seeds[j] = seeds[j], seeds[i]
    edge = (way == "up" and j <= 0) or (way == "down" and j >= len(seeds) - 1)
    draw.focus = f"move-{player}-{'down' if way == 'up' else 'up'}" if edge else f"move-{player}-{way}"


def _preview(request, flight: Flight, draw: _Draw):
    """The draw as it stands. A seed list overtaken by a check-in or a withdrawal starts again from
    the seeding method; rules that name a player no longer checked in are dropped; either way the
    TD is told why."""
    attempts = ((draw.seeds, draw.apart, draw.fixed), (None, draw.apart, draw.fixed), (None, [], []))
    for number, (seeds, apart, fixed) in enumerate(attempts):
        try:
            preview = selectors.draw_preview(flight=flight, by=request.user, seeds=seeds,
                                             random_seed=draw.random_seed, apart=apart, fixed=fixed)
        except (ConflictError, ValidationError) as error:
            draw.status = 409 if isinstance(error, ConflictError) else max(draw.status, 400)
            said = error_text(error)
            if number == 1 and (draw.apart or draw.fixed):
                said = _("The pairs kept apart or made to meet are cleared: %(reason)s") % {"reason": said}
            draw.alert = f"{draw.alert} {said}".strip() if said not in draw.alert else draw.alert
            continue
        if draw.version is not None and preview["version"] != draw.version and not draw.alert:
            preview["version"] = draw.version  # a later change of the settings is caught at the confirmation
        return preview
    return None


def _drawn_page(request, context: dict, alert: str, status: int):
    return render(request, "tournaments/desk_draw.html", {
        **context, "alert": alert, "drawn": True, "focus": "draw-alert"}, status=status)


@td_page
def desk_draw(request, slug: str, pk: int):
    """Draw and start a flight: the preview, its changes, and the confirmation."""
    tournament = td_event(request, slug)
    flight = get_object_or_404(Flight.objects.select_related("tournament"), pk=pk, tournament=tournament)
    desk_url = f"{reverse('desk-event', args=[tournament.slug])}#flight-{flight.pk}"
    page = {"tournament": tournament, "flight": flight, "desk_url": desk_url, "nav": "desk", "runs_events": True}
    if flight.status != "draft" and request.method != "POST":
        messages.info(request, _("%(flight)s has been drawn already.") % {"flight": flight.name})
        return redirect(desk_url)
    if flight.status != "draft":
        return _drawn_page(request, page, str(draws.already_started(flight)), 409)
    post = request.POST
    draw = _Draw.posted(post)
    action = post.get("action", "")
    if request.method == "POST" and action == "confirm":
        if _confirm(request, flight, draw):
            messages.success(request, _("%(flight)s started: the first round is drawn.") % {"flight": flight.name})
            return redirect(desk_url)
        if flight.status != "draft":
            return _drawn_page(request, page, draw.alert, draw.status)
    elif request.method == "POST" and action in ("apart", "fixed"):
        _add_rule(request, flight, draw, action)
    elif request.method == "POST" and post.get("drop"):
        _drop_rule(post["drop"], draw)
    elif request.method == "POST" and post.get("move") and draw.seeds:
        _move_seed(post["move"], draw)
    elif request.method == "POST" and action == "reset":
        draw.seeds, draw.focus = None, "seed-list"
    preview = _preview(request, flight, draw)
    focus = draw.focus or ("draw-alert" if draw.alert else "")
    context = {**page, "preview": preview, "alert": draw.alert, "rule_error": draw.rule_error, "focus": focus,
               "rating_label": _rating_label()}
    if preview is not None:
        context.update(_rows(preview, flight, focus))
    return render(request, "tournaments/desk_draw.html", context, status=draw.status)


def _rows(preview: dict, flight: Flight, focus: str) -> dict:
    """The seed rows (with the button to focus), round 1 with the halves of a knockout marked, and
    the rules in words."""
    names = {p["id"]: p["name"] for p in preview["seeds"]}
    seed_rows = [{**s, "focus_up": focus == f"move-{s['id']}-up", "focus_down": focus == f"move-{s['id']}-down"}
                 for s in preview["seeds"]]
    fixed = {frozenset(pair) for pair in preview["fixed"]}
    knockout = flight.format in ("single_elimination", "double_elimination")
    tables, count = [], len(preview["round"])
    for n, t in enumerate(preview["round"]):
        half = ""
        if knockout and count >= 2 and n in (0, count // 2):
            half = _("Top half") if n == 0 else _("Bottom half")
        players = frozenset(p["id"] for p in (t["player_a"], t["player_b"]) if p)
        tables.append({**t, "half": half, "fixed": players in fixed})
    rules = [{"kind": kind, "a": names[a], "b": names[b], "value": f"{a}-{b}"}
             for kind in ("apart", "fixed") for a, b in preview[kind]]
    return {"seed_rows": seed_rows, "tables": tables, "rules": rules}
