"""This site's own parameters for the variance-adjusted rating: fit, adopt, and the system in force.

`rating_calibration_fit` fits crawford's parameters on the site's rated history by the
time-series validation of `ratings.calibration` (rolling origins on the first 80%, online and
frozen forecasts) and scores the candidate beside the parameters in force and FIBS on the last
20%, which the fit never saw. It stores what it found as a `RatingCalibration`: *refused* (too
little history: the defaults stay), *not better*, or a *candidate* when it beats the parameters in
force in both forecast modes with the whole 95% interval of the difference below zero.
`rating_calibration_adopt` makes a candidate the parameters in force, on a staff member's
confirmation, and reruns the whole history with them. `system_in_force(name)` is the rating
system every run and forecast uses.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime, timedelta

import numpy as np
from django.db import transaction
from django.db.models import Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext_lazy

from config.languages import in_site_language
from games.people import related_names

from . import calibration
from .models import CalibrationStatus, RatingCalibration
from .systems import CrawfordParameters, MatchRecord, get_system

MIN_MATCHES = 500
"""Below this many rated matches the site's history cannot tell parameters apart: the fit is
refused and the defaults stay."""

FIT_MATCHES = 100_000
"""A fit uses the latest this many rated matches (all of a club's): one evaluation of a parameter
set on 100,000 matches takes about 12 s on a loaded two-core machine, the whole fit some 8
minutes; a longer history adds time, not information about this season's players."""

RESAMPLES = 2000
BOOTSTRAP_SEED = 7
FITTED = ("initial_deviation", "newcomer_offset", "newcomer_deviation", "initial_volatility", "tau",
          "length_constant", "match_growth")
"""The parameters a calibration stores (the others keep their defaults)."""


class CalibrationError(ValueError):
    """A calibration cannot be adopted (not a winning candidate, or no staff member confirms)."""


def parameters_from(stored: dict) -> CrawfordParameters:
    known = {f.name for f in fields(CrawfordParameters)}
    return CrawfordParameters(**{name: value for name, value in stored.items() if name in known})


def parameters_as_dict(parameters: CrawfordParameters) -> dict:
    values = asdict(parameters)
    return {name: values[name] for name in FITTED}


def calibration_in_force(system: str = "crawford") -> RatingCalibration | None:
    """The latest adopted calibration of `system`, None when the defaults are in force."""
    return (RatingCalibration.objects.filter(system=system, status=CalibrationStatus.ADOPTED)
            .order_by("-adopted_at", "-pk").first())


def calibrations_shown(system: str = "crawford") -> tuple[RatingCalibration | None, RatingCalibration | None]:
    """(the calibration in force, the latest fit) for the formula page, in one query."""
    latest = RatingCalibration.objects.filter(system=system).order_by("-created_at", "-pk").values("pk")[:1]
    rows = list(RatingCalibration.objects.filter(system=system).filter(
        Q(status=CalibrationStatus.ADOPTED) | Q(pk=Subquery(latest))).select_related(*related_names("adopted_by"))
        .order_by("-adopted_at", "-pk")[:2])
    in_force = next((row for row in rows if row.status == CalibrationStatus.ADOPTED), None)
    return in_force, max(rows, key=lambda row: (row.created_at, row.pk), default=None)


def parameters_in_force(system: str = "crawford", *, adopted: RatingCalibration | None = None) -> CrawfordParameters:
    """crawford's parameters in force: those of the calibration adopted (`adopted`, when the
    caller has it already), else the defaults."""
    adopted = adopted or calibration_in_force(system)
    return CrawfordParameters() if adopted is None else parameters_from(adopted.parameters)


def system_in_force(name: str):
    """The rating system `name` as runs and forecasts use it: crawford with the parameters this
    site adopted (the defaults when none); every other system as `get_system` builds it."""
    if name == "crawford":
        return get_system(name, parameters=parameters_in_force(name))
    return get_system(name)


def site_history() -> list[MatchRecord]:
    """Every rated match of the site, in time order, as the rating systems take it."""
    from .services import rated_history

    history = rated_history()
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    players = history.players.tolist()
    return [
        MatchRecord(match_id, epoch + timedelta(microseconds=on), players[a], players[b], length, "a" if won else "b")
        for match_id, on, a, b, length, won in zip(
            history.match_ids.tolist(), history.played_on.tolist(), history.player_a.tolist(),
            history.player_b.tolist(), history.lengths.tolist(), history.a_won.tolist(), strict=True)
    ]


@dataclass
class Verdict:
    """What a fit found: per forecast mode the held-out log loss of FIBS, the parameters in force
    and the candidate, and the candidate's difference from the parameters in force with its
    interval; whether it wins in both modes."""

    wins: bool
    lines: list[str]
    differences: dict[str, tuple[float, float, float]]


def judge(history: list[MatchRecord], candidate: CrawfordParameters, running: CrawfordParameters) -> Verdict:
    """Score FIBS, the parameters in force and the candidate on the last 20% of `history`, in
    both modes. The candidate wins when, in both, the whole 95% paired interval of its log loss
    minus the running parameters' lies below zero."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    sample = [calibration.Sample("this site", history)]
    lines, differences = [], {}
    for mode in calibration.MODES:
        comparison = calibration.compare(sample, {"fibs": None, "in force": running, "candidate": candidate}, mode)
        lines += calibration.format_comparison(comparison, "fibs", rng, RESAMPLES, min_length_matches=20)
        mean, low, high = comparison.against("candidate", "in force", rng, RESAMPLES)
        differences[mode] = (mean, low, high)
        lines.append(f"  candidate − in force ({mode}): {mean:+.4f} [{low:+.4f}, {high:+.4f}]")
    wins = candidate != running and all(high < 0.0 for _, _, high in differences.values())
    return Verdict(wins, lines, differences)


def rating_calibration_fit(*, system: str = "crawford", by=None, grid=None, log=None) -> RatingCalibration:
    """Fit the parameters of `system` (crawford) on this site's rated history and store what was
    found (see the module). Nothing changes in the ratings: adopting is a separate step."""
    if system != "crawford":
        raise CalibrationError(_("only crawford's parameters are fitted, not %(system)s's") % {"system": system})
    history = site_history()
    running = parameters_in_force(system)
    if len(history) < MIN_MATCHES:
        return RatingCalibration.objects.create(
            system=system, status=CalibrationStatus.REFUSED, parameters=parameters_as_dict(running),
            matches=len(history), created_by=by,
            reason=in_site_language(ngettext_lazy(
                "This site has %(count)s rated match; a fit needs at least %(least)s to tell parameters apart, "
                "so the parameters in force stay.",
                "This site has %(count)s rated matches; a fit needs at least %(least)s to tell parameters apart, "
                "so the parameters in force stay.", "count"), {"count": len(history), "least": MIN_MATCHES}),
        )
    total, history = len(history), history[-FIT_MATCHES:]
    seen = (in_site_language(ngettext_lazy("%(count)s rated match (the latest of %(total)s)",
                                           "%(count)s rated matches (the latest of %(total)s)", "count"),
                             {"count": len(history), "total": total}) if total > len(history)
            else in_site_language(ngettext_lazy("%(count)s rated match", "%(count)s rated matches", "count"),
                                  {"count": len(history)}))
    candidate, objective = calibration.fit([calibration.Sample("this site", history)], running,
                                           grid=grid or calibration.GRID, log=log)
    verdict = judge(history, candidate, running)
    held_out = len(history) - calibration.cut(history, calibration.FIT_SHARE)
    figures = "; ".join(f"{mode} {mean:+.4f} [{low:+.4f}, {high:+.4f}]"
                        for mode, (mean, low, high) in verdict.differences.items())
    if verdict.wins:
        status = CalibrationStatus.CANDIDATE
        reason = in_site_language(gettext_noop(
            "Fitted on the first 80%% of %(seen)s; on the last %(held_out)s, which the fit never saw, it forecasts "
            "better than the parameters in force (log loss difference %(figures)s)."),
            {"seen": seen, "held_out": held_out, "figures": figures})
    else:
        status = CalibrationStatus.NOT_BETTER
        reason = in_site_language(gettext_noop(
            "Fitted on the first 80%% of %(seen)s; on the last %(held_out)s it does not beat the parameters in "
            "force in both forecast modes with the interval below zero (%(figures)s), so they stay."),
            {"seen": seen, "held_out": held_out, "figures": figures})
    return RatingCalibration.objects.create(
        system=system, status=status, parameters=parameters_as_dict(candidate), matches=len(history),
        created_by=by, reason=reason,
        report="\n".join([f"candidate: {calibration.describe(candidate)} (fitting objective {objective:+.5f})",
                          f"in force: {calibration.describe(running)}", *verdict.lines]),
    )


def rating_calibration_adopt(*, calibration_id: int, by) -> RatingCalibration:
    """Make a winning candidate the parameters in force (a staff member confirms it: `by`), the
    calibration in force before it superseded, and rerun the whole history with them."""
    from .services import rating_recompute_request

    from .permissions import may_adopt_rating_parameters

    if by is None or not may_adopt_rating_parameters(by):
        raise CalibrationError(_("only a rating officer or a site admin can adopt rating parameters"))
    with transaction.atomic():
        chosen = RatingCalibration.objects.select_for_update().filter(pk=calibration_id).first()
        if chosen is None:
            raise CalibrationError(_("there is no calibration %(id)s") % {"id": calibration_id})
        if chosen.status != CalibrationStatus.CANDIDATE:
            raise CalibrationError(_("calibration %(id)s is not a candidate to adopt (%(status)s)")
                                   % {"id": chosen.pk, "status": chosen.get_status_display()})
        RatingCalibration.objects.filter(system=chosen.system, status=CalibrationStatus.ADOPTED).update(
            status=CalibrationStatus.SUPERSEDED)
        chosen.status = CalibrationStatus.ADOPTED
        chosen.adopted_at = timezone.now()
        chosen.adopted_by = by
        chosen.save(update_fields=["status", "adopted_at", "adopted_by"])
        rating_recompute_request(system=chosen.system)
    return chosen
