"""manage.py calibrate_ratings: fit the variance-adjusted rating's parameters on this site's history."""

from django.contrib.auth import get_user_model
from django.utils.formats import date_format
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from config.management.base import TranslatedCommand

from ratings import calibrated
from ratings.calibration import describe
from ratings.models import CalibrationStatus
from ratings.permissions import may_adopt_rating_parameters


class Command(TranslatedCommand):
    help = gettext_lazy(
        "Fit crawford's parameters on this site's rated matches by time-series validation (rolling origins on "
        "the first 80%, online and frozen forecasts), and show the candidate beside the parameters in force and "
        "FIBS on the last 20%. A candidate that wins in both forecast modes, with the whole interval below zero, "
        "is adopted only when a staff member confirms it (--by USERNAME, then yes, or --yes); adopting reruns "
        "the history. Under 500 rated matches the defaults stay."
    )

    def add_arguments(self, parser):
        parser.add_argument("--by", help=_("the staff member who confirms the adoption (username)"))
        parser.add_argument("--yes", action="store_true", help=_("adopt a winning candidate without asking"))
        parser.add_argument("--adopt", type=int, metavar="ID", help=_("adopt an earlier candidate instead of fitting"))

    def handle(self, *args, by=None, yes=False, adopt=None, **options):
        staff = None
        if by is not None:
            staff = get_user_model().objects.filter(username=by).first()
            if staff is None or not may_adopt_rating_parameters(staff):
                raise CommandError(_("%(user)s is neither a rating officer nor a site admin: only they adopt rating "
                                     "parameters.") % {"user": by})
        if adopt is not None:
            self._adopt(adopt, staff)
            return
        in_force = calibrated.calibration_in_force()
        self.stdout.write(_("Parameters in force: %(parameters)s%(since)s") % {
            "parameters": describe(calibrated.parameters_in_force(adopted=in_force)),
            "since": _(" (adopted %(date)s)") % {"date": date_format(in_force.adopted_at, "d M Y")} if in_force
            else _(" (the defaults)")})
        found = calibrated.rating_calibration_fit(by=staff, log=lambda line: self.stdout.write("  " + line))
        if found.report:
            self.stdout.write(found.report)
        self.stdout.write(_("Calibration %(id)s: %(status)s. %(reason)s")
                          % {"id": found.pk, "status": found.get_status_display(), "reason": found.reason})
        if found.status != CalibrationStatus.CANDIDATE:
            return
        if staff is None:
            self.stdout.write(_("To adopt it, a staff member runs: manage.py calibrate_ratings --adopt %(id)s --by "
                                "USERNAME") % {"id": found.pk})
            return
        question = _("Adopt calibration %(id)s and rerun the history? [yes/no] ") % {"id": found.pk}
        if not yes and input(question).strip().lower() not in {"yes", pgettext("the answer typed to a question", "yes")}:
            self.stdout.write(_("Not adopted."))
            return
        self._adopt(found.pk, staff)

    def _adopt(self, calibration_id: int, staff) -> None:
        if staff is None:
            raise CommandError(_("Adopting needs a staff member's confirmation: --by USERNAME."))
        try:
            adopted = calibrated.rating_calibration_adopt(calibration_id=calibration_id, by=staff)
        except calibrated.CalibrationError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_("Calibration %(id)s adopted by %(user)s: %(parameters)s. The history is being rated again.")
                          % {"id": adopted.pk, "user": staff.get_username(),
                             "parameters": describe(calibrated.parameters_from(adopted.parameters))})
