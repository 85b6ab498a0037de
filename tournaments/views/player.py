"""A player's own matches: report a result, confirm or dispute the opponent's report."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.fields import ID, VERSION, posted_number
from games.models import Player

from .. import services
from ..forms import DisputeForm
from ..models import (
    Entry,
    EntryStatus,
    FlightStatus,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
)
from ..permissions import check_in_window_is_open, player_id_of
from .public import refresh_seconds
from .common import REFUSALS, error_text, report_typed_score

# -- a player's own matches ----------------------------------------------------------------------


def _posted_id(request, name: str) -> int:
    """A whole number the form carries (an id, a version). The page always sends one; anything
    else (`abc`, `1.5`, `1e3`, `²`, nothing) is a broken or forged form: 400, never a server error."""
    return posted_number(request.POST, name, field=VERSION if name.endswith("version") else ID)


def _my_action(request, player: Player):
    """Carry out one POSTed action of a player on his own match, through the services."""
    action = request.POST.get("action", "")
    user = request.user
    anchor = re.sub(r"[^A-Za-z0-9_-]", "", request.POST.get("anchor", ""))[:40]
    back = redirect(f"{reverse('my-matches')}#{anchor}")
    mine = Q(player_a=player) | Q(player_b=player)

    def report():
        return get_object_or_404(ResultReport.objects.select_related(
            "pairing__flight__tournament", "pairing__player_a", "pairing__player_b"),
            Q(pairing__player_a=player) | Q(pairing__player_b=player), pk=_posted_id(request, "report"))

    try:
        if action == "check_in":
            entry = get_object_or_404(Entry.objects.select_related("flight__tournament", "player", "tournament"),
                                      player=player, pk=_posted_id(request, "entry"))
            services.entry_check_in(entry=entry, by=user)
            messages.success(request, _("You are checked in for %(event)s, %(flight)s.")
                             % {"event": entry.tournament.name, "flight": entry.flight.name})
        elif action == "report":
            pairing = get_object_or_404(
                Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"), mine,
                pk=_posted_id(request, "pairing"))
            _posted_id(request, f"p{pairing.pk}-version")
            made = report_typed_score(request, pairing)
            if made is not None:
                said = {"player_a": pairing.player_a.name, "player_b": pairing.player_b.name,
                        "score_a": made.score_a, "score_b": made.score_b}
                messages.success(request, (
                    _("%(player_a)s %(score_a)s–%(score_b)s %(player_b)s reported. It counts when your opponent "
                      "confirms it.") if made.status == ReportStatus.PENDING
                    else _("%(player_a)s %(score_a)s–%(score_b)s %(player_b)s reported.")) % said)
        elif action == "confirm":
            made = services.result_confirm(report=report(), by=user)
            messages.success(request, _("%(match)s: result confirmed.") % {"match": made.pairing.slot})
        elif action == "dispute":
            target = report()
            form = DisputeForm(request.POST, prefix=f"r{target.pk}")
            if not form.is_valid():
                messages.error(request, " ".join(form.errors["reason"]))
                return back
            # An empty reason is the service's to refuse: the rule lives there.
            services.result_dispute(report=target, by=user, reason=form.cleaned_data["reason"])
            messages.success(request, _("%(match)s: disputed. The TD will rule on it.") % {"match": target.pairing.slot})
        else:
            messages.error(request, _("Unknown action."))
    except REFUSALS as error:
        messages.error(request, error_text(error))
    return back


@login_required(login_url="login")
def my_matches(request):
    """The matches of the player this login belongs to: what to play next, reporting a result,
    and answering the opponent's report (confirm, or dispute for the TD to rule)."""
    player_id = player_id_of(request.user)
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    if player is None:
        return render(request, "tournaments/my_matches.html", {"nav": "me", "player": None})
    if request.method == "POST":
        return _my_action(request, player)
    mine = Q(player_a=player) | Q(player_b=player)
    pairings = list(
        Pairing.objects.filter(mine, status__in=[PairingStatus.PENDING, PairingStatus.PLAYING],
                               player_b__isnull=False)
        .select_related("flight__tournament", "round", "player_a", "player_b", "match")
        .order_by("flight__tournament__start_date", "flight__position", "round__number", "id")
    )
    reports = {}
    for r in (ResultReport.objects.filter(pairing__in=pairings, status__in=[ReportStatus.PENDING,
                                                                              ReportStatus.DISPUTED])
              .order_by("pairing_id", "version")):
        reports[r.pairing_id] = r  # the latest version
    rows = []
    for p in pairings:
        r = reports.get(p.pk)
        rows.append({
            "pairing": p,
            "opponent": p.player_b if p.player_a_id == player.pk else p.player_a,
            "report": r,
            "mine": r is not None and r.submitted_for_id == player.pk,
            "answer": r is not None and r.status == ReportStatus.PENDING and r.submitted_for_id != player.pk,
        })
    now = timezone.now()
    entries = [
        {"entry": e, "open": check_in_window_is_open(e.flight, now),
         "later": bool(e.flight.check_in_opens and e.flight.check_in_opens > now)}
        for e in Entry.objects.filter(player=player, flight__status=FlightStatus.DRAFT,
                                      status__in=[EntryStatus.REGISTERED, EntryStatus.CHECKED_IN])
        .select_related("flight__tournament").order_by("flight__tournament__start_date", "flight__position")
    ]
    return render(request, "tournaments/my_matches.html", {"nav": "me", "player": player, "rows": rows,
                                                           "entries": entries, "refresh": refresh_seconds()})
