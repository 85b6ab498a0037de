"""manage.py recompute_ratings [--system NAME]: rate the whole history now, in this process."""

import time

from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.management.base import TranslatedCommand

from config.errors import ConflictError
from ratings import selectors, services


class Command(TranslatedCommand):
    help = gettext_lazy("Recompute ratings from the whole history and publish them (every system by default).")

    def add_arguments(self, parser):
        parser.add_argument("--system", help=_("fibs or crawford (default: both)"))

    def handle(self, *args, system=None, **options):
        try:
            names = services.system_names(system)
        except ValidationError as error:
            raise CommandError(" ".join(error.message_dict["system"])) from None
        for name in names:
            started = time.perf_counter()
            try:
                run = services.rating_recompute_now(system=name)
            except ConflictError as error:
                raise CommandError(str(error)) from None
            seconds = time.perf_counter() - started
            top = selectors.rating_list(system=name).first()
            best = (_("; highest %(player)s %(rating)s") % {"player": top.player.name,
                                                               "rating": number_format(top.rating, 1)} if top else "")
            self.stdout.write(
                _("%(system)s: run %(run)s rated %(matches)s matches of %(players)s players in %(seconds)s s")
                % {"system": name, "run": run.pk, "matches": number_format(run.matches_total, force_grouping=True),
                   "players": number_format(run.players, force_grouping=True), "seconds": number_format(seconds, 1)}
                + best
            )
