"""manage.py export_results EVENT [FILE.csv]: an event's results, for another Crawford to import."""

from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.languages import list_join
from config.management.base import TranslatedCommand

from tournaments import selectors
from tournaments.models import Tournament


class Command(TranslatedCommand):
    help = gettext_lazy(
        "Write the finished matches of an event (its address, e.g. harbour-cup-2026) as a results CSV that "
        "import_results reads: played_on,player_a,player_b,length,score_a,score_b,event,source_id. Run on the "
        "laptop an event was played on without internet, then import_results FILE on the club's server: each "
        "match is stored once, however often the file is imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help=gettext_lazy("the event's address (its slug, as in /events/<slug>/)"))
        parser.add_argument("file", type=Path, nargs="?", default=None,
                            help=gettext_lazy("where to write (default: <event>-results.csv in this folder; - for the screen)"))

    def handle(self, *args, event: str, file: Path | None = None, **options):
        tournament = Tournament.objects.filter(slug=event).first()
        if tournament is None:
            known = list_join(Tournament.objects.order_by("-start_date").values_list("slug", flat=True)[:10])
            raise CommandError(_("There is no event %(event)r. Events: %(events)s.")
                               % {"event": event, "events": known or _("none yet")})
        text = selectors.results_export_csv(tournament)
        if file is not None and str(file) == "-":
            self.stdout.write(text, ending="")
            return
        file = file or Path(f"{tournament.slug}-results.csv")
        try:
            file.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(_("Cannot write %(file)s: %(error)s") % {"file": file, "error": error}) from None
        count = text.count(chr(10)) - 1
        self.stdout.write(ngettext("%(file)s: %(count)s result of %(event)s. On the club's server: manage.py "
                                   "import_results %(name)s",
                                   "%(file)s: %(count)s results of %(event)s. On the club's server: manage.py "
                                   "import_results %(name)s", count)
                          % {"file": file, "count": count, "event": tournament.name, "name": file.name})
