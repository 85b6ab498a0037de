"""manage.py recompute_ratings [--system NAME]: rate the whole history now, in this process."""

import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from config.errors import ConflictError
from ratings import selectors, services


class Command(BaseCommand):
    help = "Recompute ratings from the whole history and publish them (every system by default)."

    def add_arguments(self, parser):
        parser.add_argument("--system", help="fibs or crawford (default: both)")

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
            best = f"; highest {top.player.name} {top.rating:.1f}" if top else ""
            self.stdout.write(
                f"{name}: run {run.pk} rated {run.matches_total:,} matches of {run.players:,} players "
                f"in {seconds:.1f} s{best}"
            )
