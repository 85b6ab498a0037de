"""The TD's first draw of a flight, seen before it is made.

The page shows the seed list and round 1 as `selectors.draw_preview` works them out, and lets the
TD move seeds (Up / Down buttons), keep two players apart or fix a pairing in round 1, and then
confirm, which calls `services.flight_start` with exactly the inputs shown. Nothing is stored
before the confirmation: the whole state (seed order, pairs, the random draw's number, the flight's
version) travels in the form, so the page works without script and two TDs may look at once; the
second to confirm is told the draw is made (409) and nothing of his is drawn.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from config.errors import ConflictError
from config.fields import DRAW_NUMBER, posted_number

from .. import draws, selectors, services
from ..models import Flight
from .common import REFUSALS, error_text
from .desk import _int, _td_event


def _pairs(values: list[str]) -> list[tuple[int, int]]:
    pairs = []
    for value in values:
        a, sep, b = value.partition("-")
        if not sep:
            raise BadRequest(f"Not a pair of players: {value[:20]!r}.")
        pairs.append((_int(a, "player"), _int(b, "player")))
    return pairs


def _rating_label() -> str:
    try:
        from ratings.services import default_system, system_labels
    except ImportError:
        return ""
    return system_labels().get(default_system(), "")


def desk_draw(request, slug: str, pk: int):
    """Draw and start a flight: the preview, its changes, and the confirmation."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    flight = get_object_or_404(Flight.objects.select_related("tournament"), pk=pk, tournament=tournament)
    desk_url = f"{reverse('desk-event', args=[tournament.slug])}#flight-{flight.pk}"
    if flight.status != "draft" and request.method != "POST":
        messages.info(request, f"{flight.name} has been drawn already.")
        return redirect(desk_url)
    if flight.status != "draft":
        return render(request, "tournaments/desk_draw.html", {
            "tournament": tournament, "flight": flight, "alert": str(draws.already_started(flight)), "drawn": True,
            "focus": "draw-alert", "desk_url": desk_url, "nav": "desk", "runs_events": True}, status=409)
    post = request.POST
    seeds = [_int(v, "player") for v in post.getlist("seeds")] or None
    apart, fixed = _pairs(post.getlist("apart")), _pairs(post.getlist("fixed"))
    random_seed = (posted_number(post, "random_seed", what="draw number", field=DRAW_NUMBER)
                   if post.get("random_seed") else None)
    version = _int(post.get("version"), "version") if post.get("version") else None
    action = post.get("action", "")
    focus, alert, rule_error, status = "", "", "", 200

    if request.method == "POST" and action == "confirm":
        try:
            services.flight_start(flight=flight, by=request.user, seeds=seeds, apart=apart, fixed=fixed,
                                  random_seed=random_seed, expected_version=version)
        except REFUSALS as error:
            alert = error_text(error)
            status = 409 if isinstance(error, ConflictError) else 400
            flight.refresh_from_db()
            if flight.status != "draft":
                return render(request, "tournaments/desk_draw.html", {
                    "tournament": tournament, "flight": flight, "alert": alert, "drawn": True, "focus": "draw-alert",
                    "desk_url": desk_url, "nav": "desk", "runs_events": True}, status=status)
            # The field or the settings changed: show the draw as it now stands.
            seeds, version = None, None
        else:
            messages.success(request, f"{flight.name} started: the first round is drawn.")
            return redirect(desk_url)
    elif request.method == "POST" and action in ("apart", "fixed"):
        a, b = post.get("pair_a", ""), post.get("pair_b", "")
        if not (a and b):
            rule_error = "Choose two players."
        else:
            pair = (_int(a, "player"), _int(b, "player"))
            wanted = (apart + [pair], fixed) if action == "apart" else (apart, fixed + [pair])
            try:
                selectors.draw_preview(flight=flight, by=request.user, seeds=seeds, random_seed=random_seed,
                                       apart=wanted[0], fixed=wanted[1])
            except (ValidationError, ConflictError) as error:
                rule_error = error_text(error)
            else:
                apart, fixed = wanted
                focus = "pair-a"
        if rule_error:
            status, focus = 400, "pair-a"
    elif request.method == "POST" and post.get("drop"):
        kind, _, value = post["drop"].partition(":")
        (pair,) = _pairs([value])
        if kind == "apart" and pair in apart:
            apart.remove(pair)
        elif kind == "fixed" and pair in fixed:
            fixed.remove(pair)
        focus = "pair-a"
    elif request.method == "POST" and post.get("move") and seeds:
        who, _, way = post["move"].partition(":")
        player = _int(who, "player")
        if player not in seeds or way not in ("up", "down"):
            raise BadRequest("Not a seed to move.")
        i = seeds.index(player)
        j = i - 1 if way == "up" else i + 1
        if 0 <= j < len(seeds):
            seeds[i], seeds[j] = seeds[j], seeds[i]
        edge = (way == "up" and j <= 0) or (way == "down" and j >= len(seeds) - 1)
        focus = f"move-{player}-{'down' if way == 'up' else 'up'}" if edge else f"move-{player}-{way}"
    elif request.method == "POST" and action == "reset":
        seeds = None
        focus = "seed-list"

    # A seed list overtaken by a check-in or a withdrawal starts again from the seeding method; rules
    # that name a player no longer checked in are dropped; either way the TD is told why.
    preview = None
    attempts = ((seeds, apart, fixed), (None, apart, fixed), (None, [], []))
    for number, (tried_seeds, tried_apart, tried_fixed) in enumerate(attempts):
        try:
            preview = selectors.draw_preview(flight=flight, by=request.user, seeds=tried_seeds,
                                             random_seed=random_seed, apart=tried_apart, fixed=tried_fixed)
        except (ConflictError, ValidationError) as error:
            status = 409 if isinstance(error, ConflictError) else max(status, 400)
            said = error_text(error)
            if number == 1 and (apart or fixed):
                said = f"The pairs kept apart or made to meet are cleared: {said}"
            alert = f"{alert} {said}".strip() if said not in alert else alert
            continue
        break
    if version is not None and preview is not None and preview["version"] != version and not alert:
        preview["version"] = version  # a later change of the settings is caught at the confirmation
    focus = focus or ("draw-alert" if alert else "")
    context = {"tournament": tournament, "flight": flight, "preview": preview, "alert": alert,
               "rule_error": rule_error, "focus": focus, "desk_url": desk_url, "rating_label": _rating_label(),
               "nav": "desk", "runs_events": True}
    if preview is not None:
        context.update(_rows(preview, flight, focus))
    return render(request, "tournaments/desk_draw.html", context, status=status)


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
            half = "Top half" if n == 0 else "Bottom half"
        players = frozenset(p["id"] for p in (t["player_a"], t["player_b"]) if p)
        tables.append({**t, "half": half, "fixed": players in fixed})
    rules = [{"kind": kind, "a": names[a], "b": names[b], "value": f"{a}-{b}"}
             for kind in ("apart", "fixed") for a, b in preview[kind]]
    return {"seed_rows": seed_rows, "tables": tables, "rules": rules}
