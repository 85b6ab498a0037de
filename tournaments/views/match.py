"""A match's public page, reached from the QR code of its slip: who plays, where, how long, how it
stands; and reporting from it, by a player with his login or with the code on his half of the slip.

The page shows nothing private: the players by their public names (their player records), never a
login. What it writes goes through the same services as `/me/` and the API (`result_report`,
`result_confirm`, `result_dispute`); a code only says which player is acting.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.errors import ConflictError
from config.security import SLIP_CODE_REFUSAL, slip_code_blocked, slip_code_failed
from games.engine.errors import ScoringError
from ratings.selectors import match_rating_changes_html

from .. import services
from ..forms import SlipAnswerForm, SlipReportForm
from ..models import Pairing, ReportStatus, ResultReport
from ..permissions import WrongSlipCode, is_td, side_of
from .common import REFUSALS, form_errors, save_key, wants_json


def _pairing(slug: str, pk: int) -> Pairing:
    return get_object_or_404(
        Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b", "match", "winner"),
        pk=pk, flight__tournament__slug=slug, player_b__isnull=False)


def _open_report(pairing: Pairing) -> ResultReport | None:
    """The latest report still waiting for an answer or a ruling, if any."""
    return (ResultReport.objects.filter(pairing=pairing, status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED])
            .select_related("submitted_for").order_by("-version").first())


def match_url(request, pairing: Pairing) -> str:
    """The address a slip's QR code holds: short, and the same for as long as the pairing exists.
    On the address the TD opened the site at, unless SLIP_BASE_URL names another (a venue without
    internet: the TD opens localhost, the players' phones the laptop's address on the venue's wifi)."""
    path = reverse("event-match", args=[pairing.flight.tournament.slug, pairing.pk])
    return settings.SLIP_BASE_URL + path if settings.SLIP_BASE_URL else request.build_absolute_uri(path)


def event_match(request, slug: str, pk: int):
    pairing = _pairing(slug, pk)
    report = _open_report(pairing)
    report_form = answer_form = None
    status = 200
    if request.method == "POST" and wants_json(request):
        return _report_json(request, pairing)
    if request.method == "POST":
        status, report_form, answer_form = _act(request, pairing, report)
        if status is None:
            return redirect(reverse("event-match", args=[slug, pk]) + "#result", permanent=False)
    tournament = pairing.flight.tournament
    user = request.user
    side = side_of(user, pairing) if user.is_authenticated else None
    td = user.is_authenticated and is_td(user, tournament)
    answering = report is not None and report.status == ReportStatus.PENDING
    if report_form is None:
        report_form = SlipReportForm(pairing=pairing, initial={"version": pairing.version})
    if answer_form is None and answering:
        answer_form = SlipAnswerForm(initial={"report": report.pk, "answer": "confirm"})
    reporter = report.submitted_for if report is not None else None
    bound = next((f for f in (report_form, answer_form) if f is not None and f.is_bound), None)
    return render(request, "tournaments/match.html", {
        "tournament": tournament, "pairing": pairing, "report": report, "reporter": reporter,
        "answerer": (None if reporter is None else
                     pairing.player_b if reporter.pk == pairing.player_a_id else pairing.player_a),
        "report_form": report_form, "answer_form": answer_form, "answering": answering,
        "me": None if side is None else (pairing.player_a, pairing.player_b)[side], "td": td,
        "nav": "events", "canonical": match_url(request, pairing),
        # A result's rating changes, as the match's own page (its games too) shows them.
        "rating_changes": match_rating_changes_html(pairing.match) if pairing.decided and pairing.match_id else "",
        # A refusal of a form the page no longer shows (the match was decided, the report replaced).
        "refused": bound.non_field_errors() if bound is not None and (
            pairing.decided or (bound is answer_form and not answering)
            or (bound is report_form and report is not None and not answering)) else [],
    }, status=status)


def _act(request, pairing: Pairing, report: ResultReport | None):
    """Carry out a POSTed report or answer. (None, …) when done; else the status to answer with
    and the forms, bound, with the refusal beside the field it concerns."""
    answering = request.POST.get("action") == "answer"
    form = SlipAnswerForm(request.POST) if answering else SlipReportForm(request.POST, pairing=pairing)
    forms_ = (None, form) if answering else (form, None)
    if not form.is_valid():
        return 400, *forms_
    code = form.cleaned_data["code"] or None
    signed_in = request.user.is_authenticated
    if code is None and not signed_in:
        form.add_error("code", _("Type the code printed on your half of the slip, or log in as yourself."))
        return 400, *forms_
    if code is not None:
        blocked = slip_code_blocked(request, pairing_id=pairing.pk)
        if blocked:
            form.add_error("code", SLIP_CODE_REFUSAL[blocked])
            return 429, *forms_
    by = request.user if signed_in else None
    data = form.cleaned_data
    try:
        if answering:
            if report is None or report.pk != data["report"]:
                raise ConflictError(_("That report has been replaced meanwhile: read the result again below."))
            if data["answer"] == "confirm":
                services.result_confirm(report=report, by=by, code=code)
                messages.success(request, _("Result confirmed: it counts now."))
            else:
                services.result_dispute(report=report, by=by, code=code, reason=data["reason"])
                messages.success(request, _("Result disputed: the TD will rule on it."))
        else:
            key = save_key(request)
            if key is None:
                made = services.result_report(pairing=pairing, by=by, code=code, score_a=data["score_a"],
                                              score_b=data["score_b"], expected_version=data["version"])
                scores, pending = (made.score_a, made.score_b), made.status == ReportStatus.PENDING
            else:  # typed with a key: once per key, judged on the result the match holds
                answer = services.result_report_once(key=key, pairing=pairing, by=by, code=code,
                                                     score_a=data["score_a"], score_b=data["score_b"])
                if not answer.stored:
                    form.add_error(None, answer.body["message"])
                    return answer.status, *forms_
                scores = (answer.body["score_a"], answer.body["score_b"])
                pending = answer.body["report_status"] == ReportStatus.PENDING
            said = {"player_a": pairing.player_a.name, "player_b": pairing.player_b.name,
                    "score_a": scores[0], "score_b": scores[1]}
            messages.success(request, (
                _("%(player_a)s %(score_a)s–%(score_b)s %(player_b)s reported. It counts when your opponent "
                  "confirms it.") if pending
                else _("%(player_a)s %(score_a)s–%(score_b)s %(player_b)s reported.")) % said)
    except WrongSlipCode as error:
        slip_code_failed(request, pairing_id=pairing.pk)
        form.add_error("code", str(error))
        return 403, *forms_
    except REFUSALS as error:
        if isinstance(error, (ValidationError, ScoringError)):
            form_errors(form, error)
            return 400, *forms_
        form.add_error(None, str(error))
        return (409 if isinstance(error, ConflictError) else 403), *forms_
    return None, None, None


def _report_json(request, pairing: Pairing) -> JsonResponse:
    """A player's report kept on his phone while the network was down and sent when it returned
    (static/offline-queue.js): the key required, JSON in the answer, his code checked and counted
    as on the page. The phone says "sent" only for a 2xx answer."""
    if request.POST.get("action") != "report":
        return JsonResponse({"error": "invalid", "message": _("Only a report of the result is sent this way.")},
                            status=400)
    form = SlipReportForm(request.POST, pairing=pairing)
    form.fields["version"].required = False  # judged on the result the match holds when it arrives
    try:
        key = save_key(request)
    except ValidationError as error:
        return JsonResponse(services.idempotency.refusal_answer(error).body, status=400)
    if key is None:
        return JsonResponse({"error": "invalid", "message": _("A report sent this way carries an Idempotency-Key.")},
                            status=400)
    if not form.is_valid():
        fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
        return JsonResponse({"error": "invalid", "fields": fields,
                             "message": " ".join(text for texts in fields.values() for text in texts)}, status=400)
    code = form.cleaned_data["code"] or None
    by = request.user if request.user.is_authenticated else None
    if code is None and by is None:
        return JsonResponse({"error": "invalid", "fields": {"code": [_(
            "Type the code printed on your half of the slip, or log in as yourself.")]}, "message": _(
            "Type the code printed on your half of the slip, or log in as yourself.")}, status=400)
    if code is not None:
        blocked = slip_code_blocked(request, pairing_id=pairing.pk)
        if blocked:
            return JsonResponse({"error": "blocked", "message": str(SLIP_CODE_REFUSAL[blocked])}, status=429)
    try:
        answer = services.result_report_once(key=key, pairing=pairing, by=by, code=code,
                                             score_a=form.cleaned_data["score_a"], score_b=form.cleaned_data["score_b"])
    except WrongSlipCode as error:
        slip_code_failed(request, pairing_id=pairing.pk)
        return JsonResponse({"error": "wrong_code", "fields": {"code": [str(error)]}, "message": str(error)}, status=403)
    except REFUSALS as error:  # a missing right (a login that is neither player nor TD)
        return JsonResponse({"error": "forbidden", "message": str(error)}, status=403)
    response = JsonResponse(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
