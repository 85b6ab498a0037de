"""Results at the desk: a final score typed into a queue row (Save), a walkover or no-show, the
undo of a result entered by mistake; a Save's answer with only what it changed, and the Saves the
desk's offline queue sends as JSON."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.core.exceptions import BadRequest, ValidationError
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language, list_join

from ... import selectors, services
from ...forms import ScoreForm
from ...models import FlightFormat, Pairing, PairingStatus, Tournament
from ..common import REFUSALS, error_text, save_key
from .base import RECENT_UNDO, DeskPost, match_label, posted_int, result_words, still_to_play, tabled_words
from .selectors import QUEUE_STATES, row_state, score_may_be_typed

SCORES_WANTED = gettext_noop("Give both players' points, as whole numbers.")


def _row_refused(d: DeskPost, target: Pairing, field: str, text: str, status: int, *, ask: bool = False) -> None:
    """The Save is refused beside its row, with what was typed kept and the cursor on the field;
    `ask`: an improbable score, which the row offers to record as typed."""
    kept = {name: d.post.get(f"p{target.pk}-{name}", "") for name in ("score_a", "score_b")}
    d.outcome.row_errors[target.pk] = {**kept, "field": field, "text": text, "ask": ask}
    d.outcome.focus = f"p{target.pk}-{field[-1]}"
    d.outcome.refuse(status)


def score(d: DeskPost):
    """Save a final score typed in the queue; with a key (`Idempotency-Key`), once per key."""
    target = d.pairing()
    form = ScoreForm(d.post, prefix=f"p{target.pk}")
    if not form.is_valid():
        if form.has_error("version"):
            raise BadRequest(_("Not a valid version."))
        _row_refused(d, target, "score_a" if form.has_error("score_a") else "score_b", _(SCORES_WANTED), 400)
        return
    data = form.cleaned_data
    try:
        key = save_key(d.request)
        if key is None:
            made = services.result_report(pairing=target, by=d.user, score_a=data["score_a"], score_b=data["score_b"],
                                          note=data["note"], expected_version=data["version"],
                                          improbable_confirmed=form.improbable_confirmed())
            scores = (made.score_a, made.score_b)
        else:  # typed with a key: judged on the result the match holds, once per key
            answer = services.result_report_once(key=key, pairing=target, by=d.user, score_a=data["score_a"],
                                                 score_b=data["score_b"], note=data["note"],
                                                 improbable_confirmed=form.improbable_confirmed())
            if not answer.stored:
                field = "score_b" if "score_b" in answer.body.get("fields", {}) else "score_a"
                _row_refused(d, target, field, answer.body["message"], answer.status,
                             ask=answer.body.get("error") == "improbable")
                return
            scores = (answer.body["score_a"], answer.body["score_b"])
    except services.ImprobableScore as error:
        _row_refused(d, target, "score_a" if "score_a" in error.message_dict else "score_b", error_text(error), 400,
                     ask=True)
        return
    except REFUSALS as error:
        field = "score_b" if isinstance(error, ValidationError) and "score_b" in getattr(
            error, "message_dict", {}) else "score_a"
        _row_refused(d, target, field, error_text(error), 409 if isinstance(error, ConflictError) else 400)
        return
    messages.success(d.request, _("%(match)s: %(player_a)s %(score_a)s–%(score_b)s %(player_b)s recorded.") % {
        "match": match_label(target, flight_named=len(d.flight_names) > 1), "player_a": target.player_a.name,
        "score_a": scores[0], "score_b": scores[1], "player_b": target.player_b.name})
    d.outcome.focus = f"next-after-{target.pk}"
    d.outcome.saved = target


def walkover(d: DeskPost):
    target = d.pairing()
    winner_id = posted_int(d.post.get("winner"), "player")
    if winner_id not in (target.player_a_id, target.player_b_id):
        raise BadRequest(_("The winner of a walkover plays the match."))
    winner = target.player_a if winner_id == target.player_a_id else target.player_b
    loser = target.player_b if winner_id == target.player_a_id else target.player_a
    reason = d.post.get(f"p{target.pk}-reason", "").strip() or in_site_language(
        gettext_noop("%(player)s did not show up"), {"player": loser.name})
    services.pairing_walkover(pairing=target, winner=winner, reason=reason, by=d.user,
                              expected_version=d.version(f"p{target.pk}-version"))
    messages.success(d.request, _("%(match)s: walkover to %(winner)s (%(reason)s).") % {
        "match": target.slot, "winner": winner.name, "reason": reason})


def undo(d: DeskPost):
    target = d.pairing()
    was = result_words(target)
    try:
        services.pairing_undo(pairing=target, by=d.user, reason=in_site_language(gettext_noop("undone at the desk")),
                              expected_version=d.version(f"undo{target.pk}-version"))
    except services.DownstreamStarted as error:
        messages.error(d.request, _(
            "Matches drawn from %(flight)s %(match)s have started (%(started)s): undo it on its correction page, "
            "which shows what goes with it.") % {
            "flight": target.flight.name, "match": target.slot, "started": list_join(error.started)})
        d.outcome.refuse()
        return
    except services.WithdrawalStands as error:  # the withdrawal's undo brings the match back: offered here
        messages.error(d.request, error_text(error))
        d.outcome.withdrawal = error.entry
        d.outcome.refuse()
        return
    messages.success(d.request, _("Undone: %(result)s. The match is open again.") % {"result": was})


ACTIONS = {"score": score, "walkover": walkover, "undo": undo}


def _changed_rows(tournament: Tournament, saved: Pairing, changes: dict, flight_named: bool) -> list[dict]:
    """The rows a Save sends: the saved match, those the bracket's advance made and, when a table
    was freed or asked for, every match waiting for a table with the one a full redraw would offer
    it (so no two rows offer the same table)."""
    rows, tabled = [], tabled_words()
    for p in changes["rows"]:
        state = row_state(p, None)
        rows.append({"p": p, "state": state, "report": None, "error": None, "offer": "",
                     "label": match_label(p, flight_named=flight_named, tabled=tabled),
                     "entry": score_may_be_typed(p, state)})
    if tournament.tables and (any(r["state"] == "call" for r in rows) or any(
            p.table and p.pk == saved.pk for p in changes["rows"])):
        open_rows = selectors.desk_open_rows(tournament)
        offers = services.table_offers(tournament, open_rows)
        sent = {r["p"].pk for r in rows}
        rows += [{"p": p, "state": "call", "report": None, "error": None, "entry": True,
                  "label": match_label(p, flight_named=flight_named, tabled=tabled)}
                 for p in open_rows if p.pk not in sent and p.status == PairingStatus.PENDING and not p.table
                 and not p.has_report]
        for r in rows:
            if r["state"] == "call":
                r["offer"] = offers.get(r["p"].pk, "")
    return rows


def _reshaped(saved: Pairing, changes: dict) -> bool:
    """Whether a Save changed the queue's shape: it finished a round, or a round gets its first
    open match."""
    open_by_round = changes["open_by_round"]
    if saved.round_id not in open_by_round:
        return True
    arrived = defaultdict(int)
    for p in changes["rows"]:
        if p.pk != saved.pk and p.status in (PairingStatus.PENDING, PairingStatus.PLAYING):
            arrived[p.round_id] += 1
    return any(sum(open_by_round.get(round_id, {}).values()) <= n for round_id, n in arrived.items())


def save_answer(request, tournament: Tournament, saved: Pairing, *, newest: int, flight_named: bool):
    """A Save's answer with htmx: only what it changed, as out-of-band swaps (the confirmation
    naming the match, the room's counts, the round's progress, the latest results to undo) and
    the rows to put in place (the saved match and those the bracket's advance made); desk.js puts
    each row where it belongs and keeps what the TD is typing elsewhere. The players' side is not
    read. None when the Save changed the queue's shape: the whole desk is redrawn then."""
    changes = selectors.desk_save_changes(tournament, saved=saved.pk, newest=newest, recent=RECENT_UNDO)
    if _reshaped(saved, changes):
        return None
    open_by_round = changes["open_by_round"]
    counts = {state: sum(line[state] for line in open_by_round.values()) for state in QUEUE_STATES}
    rows = _changed_rows(tournament, saved, changes, flight_named)
    groups = []
    for round_id, line in open_by_round.items():
        mine = [r for r in rows if r["p"].round_id == round_id]
        if mine:
            groups.append({"key": f"{mine[0]['p'].flight_id}-{mine[0]['p'].round_number}",
                           "length": mine[0]["p"].round_length, "open": sum(line.values())})
    whys = []
    flight = saved.flight
    if flight.format in (FlightFormat.SWISS, FlightFormat.ROUND_ROBIN, FlightFormat.SWISS_KNOCKOUT):
        still = sum(sum(line.values()) for round_id, line in open_by_round.items()
                    if changes["flight_of_round"][round_id] == flight.pk)
        whys.append({"id": f"why-round-{flight.pk}", "text": still_to_play(still, saved.round.number)})
    rows_html = mark_safe(get_template("desk/rows.html", using="jinja2").render({
        "rows": rows, "csrf": get_token(request),
        "more_url": reverse("desk-correct", args=[tournament.slug, 0])[:-2]}))
    response = render(request, "tournaments/desk_event.html#saved", {
        "tournament": tournament, "counts": counts, "groups": groups, "whys": whys, "rows_html": rows_html,
        "recent": [{"p": p, "words": result_words(p)} for p in changes["latest"]],
    })
    response["HX-Reswap"] = "none"  # the desk's main part stays: only the parts swapped out of band change
    return response


def save_json(request, tournament: Tournament) -> JsonResponse:
    """A Save sent by the desk's offline queue (static/offline-queue.js): JSON in its answer, the
    key required. The first answer of a key is its answer for good (`services.save_once`); a
    result that meets another one answers 409 with both scores."""
    post = request.POST
    if post.get("action") != "score":
        return JsonResponse({"error": "invalid", "message": _(
            "Only a result's Save is sent this way: everything else needs the desk itself.")}, status=400)
    target = get_object_or_404(Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"),
                               pk=posted_int(post.get("pairing")), flight__tournament=tournament)
    try:
        key = save_key(request)
    except ValidationError as error:
        return _json_answer(services.idempotency.refusal_answer(error))
    if key is None:
        return JsonResponse({"error": "invalid", "message": _("A Save sent this way carries an Idempotency-Key.")},
                            status=400)
    form = ScoreForm(post, prefix=f"p{target.pk}")
    form.fields["version"].required = False  # a kept Save is judged on the result, not on the row's version
    if not form.is_valid():
        fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
        return JsonResponse({"error": "invalid", "fields": fields, "message": _(SCORES_WANTED)}, status=400)
    data = form.cleaned_data
    return _json_answer(services.result_report_once(key=key, pairing=target, by=request.user,
                                                    score_a=data["score_a"], score_b=data["score_b"],
                                                    note=data["note"], improbable_confirmed=form.improbable_confirmed()))


def _json_answer(answer) -> JsonResponse:
    response = JsonResponse(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
