"""Tables at the desk: the venue's tables, a match seated or moved, every waiting match called to a
table, a match taken to its score sheet; a match's less frequent actions, the match slips and the
projector of the playing hall."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ... import qr, selectors, services, slipcodes
from ...forms import TablesForm
from ...models import Pairing
from ..common import form_errors
from ..match import match_url
from .base import DeskPost, is_htmx, posted_int, td_event, td_page


def tables(d: DeskPost):
    form = d.forms["tables"] = TablesForm(d.post, prefix="tables", flights=d.flight_names)
    if not form.is_valid():
        return
    try:
        services.tables_set(tournament=d.tournament, by=d.user, count=form.cleaned_data["count"],
                            reserved=form.cleaned_data["reserved"])
    except ValidationError as error:
        form_errors(form, error)
        return
    count = form.cleaned_data["count"]
    messages.success(d.request, ngettext("%(count)d table.", "%(count)d tables.", count) % {"count": count})
    d.forms.pop("tables")


def table(d: DeskPost):
    target = d.pairing()
    made = services.pairing_table_set(pairing=target, table=d.post.get(f"p{target.pk}-table", ""), by=d.user,
                                      expected_version=d.version(f"p{target.pk}-version"))
    if made.table:
        said = _("%(match)s: table %(table)s.") % {"match": target.slot, "table": made.table}
    else:
        said = _("%(match)s: no table.") % {"match": target.slot}
    messages.success(d.request, said)


def call_all(d: DeskPost):
    open_ = selectors.pairings_without_a_table(d.tournament)
    called = services.tables_call(tournament=d.tournament, pairings=list(open_), by=d.user)
    messages.success(d.request, ngettext("%(count)d match called to a table.", "%(count)d matches called to a table.",
                                         called) % {"count": called})


def sheet(d: DeskPost):
    """Leave the desk for the match's score sheet (the match is begun first if need be)."""
    target = d.pairing()
    if target.match_id is None:
        target = services.pairing_start(pairing=target, by=d.user)
    if is_htmx(d.request):
        return HttpResponse(status=204, headers={"HX-Redirect": reverse("match-enter", args=[target.match_id])})
    return redirect("match-enter", pk=target.match_id)


ACTIONS = {"tables": tables, "table": table, "call_all": call_all, "sheet": sheet}


@td_page
def desk_more(request, slug: str, pk: int):
    """A match's less frequent actions (move its table, a walkover or no-show), fetched when the
    TD opens *More* on its row so the queue stays light."""
    tournament = td_event(request, slug)
    pairing = get_object_or_404(Pairing.objects.select_related("flight", "player_a", "player_b"), pk=pk,
                                flight__tournament=tournament)
    template = "tournaments/desk_more.html#more" if is_htmx(request) else "tournaments/desk_more.html"
    return render(request, template, {"tournament": tournament, "pairing": pairing, "nav": "desk",
                                      "runs_events": True})


@td_page
def desk_projector(request, slug: str):
    """For a screen in the playing hall: the current round's pairings with their tables, then the
    standings, in large type, cycling and refreshing itself."""
    tournament = td_event(request, slug)
    board = selectors.projector_board(tournament)
    rows, versus = get_template("desk/projector.html", using="jinja2").template.module.pairings, pgettext("versus", "v")
    for block in board["rounds"]:
        block["pairings_html"] = mark_safe(rows(block["pairings"], conditional_escape(versus)))
    context = {"tournament": tournament, "runs_events": True, **board}
    if is_htmx(request):
        return render(request, "tournaments/desk_projector.html#panels", context)
    return render(request, "tournaments/desk_projector.html", context)


@td_page
def desk_slips(request, slug: str):
    """Match slips for the open matches, four to an A4 page. Each player's half carries the QR code
    of the match's public page and his one-time code for reporting there without a login.

    Opening the slips issues codes to the players who have none yet (`services.slip_codes_issue`);
    a player whose code was printed before keeps it, and his half says so. *New slips* (a POST)
    revokes the codes of these matches and prints new ones."""
    tournament = td_event(request, slug)
    round_id = request.POST.get("round") if request.method == "POST" else request.GET.get("round")
    pairings = list(selectors.pairings_for_slips(tournament, posted_int(round_id, "round") if round_id else None))
    renew = request.method == "POST" and request.POST.get("action") == "renew"
    issued = services.slip_codes_issue(tournament=tournament, pairing_ids=[p.pk for p in pairings],
                                       by=request.user, renew=renew)
    urls = {p.pk: match_url(request, p) for p in pairings}
    # Each QR code is drawn once per address and kept in the cache (nothing typed goes into it).
    codes = qr.svgs(list(urls.values()))
    slips, rules = [], {}
    for p in pairings:
        length = p.round.length or 1
        if p.round.length not in rules:
            rules[p.round.length] = ngettext("%(length)s-point match, Crawford rule",
                                             "%(length)s-point match, Crawford rule", p.round.length) % {
                "length": p.round.length}
        url = urls[p.pk]
        halves = [{"player": player, "code": slipcodes.printed(issued[(p.pk, player.pk)])
                   if (p.pk, player.pk) in issued else None} for player in (p.player_a, p.player_b)]
        slips.append({"p": p, "rows": range(1, min(2 * length - 1, 4 + length) + 1), "url": url,
                      "rules": rules[p.round.length], "qr": mark_safe(codes[url]), "halves": halves})
    # The slips are drawn by Jinja2 (`templates/jinja2/desk/slips.html`): a round of 128 matches is
    # a loop Django's engine draws several times slower, a dozen messages translated on each slip.
    slips_html = mark_safe(get_template("desk/slips.html", using="jinja2").render({
        "slips": slips, "event": tournament.name, "versus": pgettext("versus", "v"),
        "cube_cap": tournament.cube_cap, "clock": tournament.clock}))
    return render(request, "tournaments/slips.html", {
        "tournament": tournament, "slips_html": slips_html if slips else "", "nav": "desk", "runs_events": True,
        "round": round_id or "", "renewed": renew,
        "kept": sum(1 for s in slips for h in s["halves"] if h["code"] is None),
    })
