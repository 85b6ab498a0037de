"""manage.py calibrate_ratings: fit the variance-adjusted rating's parameters on this site's history."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from ratings import calibrated
from ratings.calibration import describe
from ratings.models import CalibrationStatus
from ratings.permissions import may_adopt_rating_parameters


class Command(BaseCommand):
    help = (
        "Fit crawford's parameters on this site's rated matches by time-series validation (rolling origins on "
        "the first 80%, online and frozen forecasts), and show the candidate beside the parameters in force and "
        "FIBS on the last 20%. A candidate that wins in both forecast modes, with the whole interval below zero, "
        "is adopted only when a staff member confirms it (--by USERNAME, then yes, or --yes); adopting reruns "
        "the history. Under 500 rated matches the defaults stay."
    )

    def add_arguments(self, parser):
        parser.add_argument("--by", help="the staff member who confirms the adoption (username)")
        parser.add_argument("--yes", action="store_true", help="adopt a winning candidate without asking")
        parser.add_argument("--adopt", type=int, metavar="ID", help="adopt an earlier candidate instead of fitting")

    def handle(self, *args, by=None, yes=False, adopt=None, **options):
        staff = None
        if by is not None:
            staff = get_user_model().objects.filter(username=by).first()
            if staff is None or not may_adopt_rating_parameters(staff):
                raise CommandError(f"{by} is neither a rating officer nor a site admin: only they adopt rating"
                                   " parameters.")
        if adopt is not None:
            self._adopt(adopt, staff)
            return
        in_force = calibrated.calibration_in_force()
        self.stdout.write("Parameters in force: " + describe(calibrated.parameters_in_force(adopted=in_force)) + (
            f" (adopted {in_force.adopted_at:%d %b %Y})" if in_force else " (the defaults)"))
        found = calibrated.rating_calibration_fit(by=staff, log=lambda line: self.stdout.write("  " + line))
        if found.report:
            self.stdout.write(found.report)
        self.stdout.write(f"Calibration {found.pk}: {found.get_status_display()}. {found.reason}")
        if found.status != CalibrationStatus.CANDIDATE:
            return
        if staff is None:
            self.stdout.write(f"To adopt it, a staff member runs: manage.py calibrate_ratings --adopt {found.pk} --by USERNAME")
            return
        if not yes and input(f"Adopt calibration {found.pk} and rerun the history? [yes/no] ").strip().lower() != "yes":
            self.stdout.write("Not adopted.")
            return
        self._adopt(found.pk, staff)

    def _adopt(self, calibration_id: int, staff) -> None:
        if staff is None:
            raise CommandError("Adopting needs a staff member's confirmation: --by USERNAME.")
        try:
            adopted = calibrated.rating_calibration_adopt(calibration_id=calibration_id, by=staff)
        except calibrated.CalibrationError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Calibration {adopted.pk} adopted by {staff.get_username()}: "
                          f"{describe(calibrated.parameters_from(adopted.parameters))}. The history is being rated again.")
