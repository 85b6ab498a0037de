"""A TD rules on a result from its own page: a dispute or a correction, or an undo, with what goes
with it downstream shown before it is done."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.languages import in_site_language

from games.models import Player

from ... import selectors, services
from ...forms import ScoreForm
from ...models import Pairing, PairingStatus, Tournament
from ..common import REFUSALS, error_text
from .base import posted_int, result_words, td_event, td_page


@td_page
def desk_correct(request, slug: str, pk: int):
    """A TD rules on a result: a dispute or a correction, with its downstream effect shown first."""
    tournament = td_event(request, slug)
    pairing = get_object_or_404(
        Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b", "winner", "match"),
        pk=pk, flight__tournament=tournament,
    )
    undo = request.POST.get("undo") if request.method == "POST" else None
    if undo is not None and pairing.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
        return _correct_undo(request, tournament, pairing, confirmed=undo == "confirmed")
    initial = {"version": pairing.version, "score_a": pairing.score_a, "score_b": pairing.score_b}
    # A result kept offline that met another one: the TD chose to send his own as a correction.
    typed = {name: request.GET.get(name, "") for name in ("score_a", "score_b")}
    if all(value.isascii() and value.isdigit() and len(value) <= 3 for value in typed.values()):
        initial.update({name: int(value) for name, value in typed.items()})
    form = ScoreForm(request.POST or None, initial=initial)
    if request.method == "POST" and not form.is_valid() and form.has_error("version"):
        raise BadRequest(_("Not a valid version."))
    preview = None
    if request.method == "POST" and form.is_valid():
        done, preview = _rule(request, pairing, form)
        if done:
            return redirect("desk-event", slug=tournament.slug)
    refed = []
    if preview:
        _affected_names(preview["affected"])
        refed = sorted({item["flight"] for item in preview["affected"] if item["flight"] != pairing.flight.name})
    return _correct_page(request, tournament, pairing, form=form, preview=preview, refed=refed)


def _rule(request, pairing: Pairing, form: ScoreForm) -> tuple[bool, dict | None]:
    """The score typed: applied when the TD saw its preview for this very score, else previewed.
    Returns whether it is done, and the preview to show."""
    data = form.cleaned_data
    if data["score_a"] == data["score_b"]:
        form.add_error("score_b", _("A match has a winner: the scores cannot be equal."))
        return False, None
    winner_id = pairing.player_a_id if data["score_a"] > data["score_b"] else pairing.player_b_id
    if request.POST.get("previewed") == f"{data['score_a']}-{data['score_b']}":
        try:
            services.result_override(
                pairing=pairing, by=request.user, score_a=data["score_a"], score_b=data["score_b"],
                note=data["note"], apply_downstream=True, expected_version=data["version"],
            )
        except REFUSALS as error:
            form.add_error(None, error_text(error))
            return False, None
        messages.success(request, _("%(match)s ruled: %(player_a)s %(score_a)s–%(score_b)s %(player_b)s.") % {
            "match": pairing.slot, "player_a": pairing.player_a.name, "score_a": data["score_a"],
            "score_b": data["score_b"], "player_b": pairing.player_b.name})
        return True, None
    try:
        return False, selectors.correction_preview(pairing=pairing, winner_id=winner_id)
    except REFUSALS as error:
        form.add_error(None, error_text(error))
        return False, None


def _affected_names(affected: list[dict]) -> None:
    ids = {pid for item in affected for pid in (item["players"] + (item["becomes"] or [])) if pid}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    bye, undecided = _("bye"), _("to be decided")
    for item in affected:
        item["names"] = [names.get(pid, bye) if pid else bye for pid in item["players"]]
        item["becomes_names"] = [names.get(pid, undecided) if pid else undecided for pid in (item["becomes"] or [])]


def _correct_undo(request, tournament: Tournament, pairing: Pairing, *, confirmed: bool):
    """Undo a result or walkover from its correction page: first what goes with it, then, confirmed, done."""
    words = result_words(pairing)
    error, withdrawal = "", None
    if confirmed:
        try:
            services.pairing_undo(pairing=pairing, by=request.user, reason=in_site_language(gettext_noop("undone at the desk")), apply_downstream=True,
                                  expected_version=posted_int(request.POST.get("version"), "version"))
        except REFUSALS as refused:
            error = error_text(refused)
            withdrawal = getattr(refused, "entry", None)  # services.WithdrawalStands: its undo is offered
        else:
            messages.success(request, _("Undone: %(result)s. The match is open again.") % {"result": words})
            return redirect("desk-event", slug=tournament.slug)
    undo_preview = services.undo_preview(pairing=pairing)
    _affected_names(undo_preview["affected"])
    form = ScoreForm(initial={"version": pairing.version, "score_a": pairing.score_a, "score_b": pairing.score_b})
    return _correct_page(request, tournament, pairing, form=form, undo_preview=undo_preview, undo_error=error,
                         withdrawal=withdrawal, status=400 if error else 200)


def _correct_page(request, tournament, pairing, *, form, preview=None, refed=(), undo_preview=None,
                  undo_error="", withdrawal=None, status=None):
    reports = list(pairing.reports.select_related("submitted_by", "submitted_for", "winner").order_by("-version"))
    return render(request, "tournaments/desk_correct.html", {
        "undo_preview": undo_preview, "undo_error": undo_error, "withdrawal": withdrawal,
        "undoable": pairing.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER),
        "nav": "desk", "runs_events": True, "tournament": tournament, "pairing": pairing, "form": form,
        "preview": preview,
        "reports": reports, "refed": refed,
    }, status=status or (400 if form.errors else 200))
