"""Results the players claimed, ruled at the desk: a report confirmed by the TD, a dispute upheld,
settled by one of its versions, or by a score the TD types."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.languages import in_site_language

from ... import services
from ...forms import ScoreForm
from ...models import ResultReport
from .base import DeskPost, posted_int


def confirm(d: DeskPost):
    target = d.report()
    services.result_confirm(report=target, by=d.user)
    messages.success(d.request, _("%(match)s: result confirmed.") % {"match": target.pairing.slot})


def rule(d: DeskPost):
    target = d.pairing()
    if d.post.get("from_report"):
        source = get_object_or_404(ResultReport, pk=posted_int(d.post.get("from_report")), pairing=target)
        score_a, score_b = source.score_a, source.score_b
    else:
        form = ScoreForm(d.post, prefix=f"rule{target.pk}")
        if not form.is_valid():
            if form.has_error("version"):
                raise BadRequest(_("Not a valid version."))
            messages.error(d.request, _("%(match)s: give both players' points.") % {"match": target.slot})
            d.outcome.refuse()
            return
        score_a, score_b = form.cleaned_data["score_a"], form.cleaned_data["score_b"]
    services.result_override(pairing=target, by=d.user, score_a=score_a, score_b=score_b,
                             note=in_site_language(gettext_noop("ruled at the desk")), expected_version=d.version(f"rule{target.pk}-version"))
    messages.success(d.request, _("%(match)s ruled: %(player_a)s %(score_a)s–%(score_b)s %(player_b)s.") % {
        "match": target.slot, "player_a": target.player_a.name, "score_a": score_a, "score_b": score_b,
        "player_b": target.player_b.name})


ACTIONS = {"confirm": confirm, "rule": rule}
