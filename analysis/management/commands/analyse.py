"""`manage.py analyse [--all | MATCH ...] [--plies N] [--redo]`: analyse stored matches with GNU Backgammon."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.languages import list_join
from config.management.base import TranslatedCommand

from analysis import services
from analysis.models import AnalysisStatus, MatchAnalysis
from games.models import Match, MatchFile

BATCH = 10
"""Matches analysed by one GNU Backgammon process."""


class Command(TranslatedCommand):
    help = gettext_lazy("Analyse stored matches (those kept with their moves) with GNU Backgammon, in this process.")

    def add_arguments(self, parser):
        parser.add_argument("matches", nargs="*", type=int, help=_("match ids"))
        parser.add_argument("--all", action="store_true", help=_("every match stored with its moves"))
        parser.add_argument("--plies", type=int, default=None, help=_("analysis depth, 0 to 4 (default: the setting)"))
        parser.add_argument("--redo", action="store_true", help=_("analyse again matches already analysed"))

    def handle(self, *args, matches, all, plies, redo, **options):
        if services.analysis_program() is None:
            raise CommandError(_("GNU Backgammon (gnubg) is not installed, or CRAWFORD_ANALYSIS is off: "
                                 "install it (Debian/Ubuntu: apt-get install gnubg) or set CRAWFORD_GNUBG."))
        if plies is not None and not 0 <= plies <= 4:
            raise CommandError(_("--plies is 0 to 4."))
        if all == bool(matches):
            raise CommandError(_("Name match ids or give --all."))
        ids = list(MatchFile.objects.order_by("match_id").values_list("match_id", flat=True)) if all else matches
        known = set(Match.objects.filter(pk__in=ids).values_list("pk", flat=True))
        missing = [pk for pk in ids if pk not in known]
        if missing:
            raise CommandError(_("No match %(matches)s.") % {"matches": list_join(missing)})
        queued = []
        for match in Match.objects.filter(pk__in=ids).order_by("pk"):
            analysis = services.analysis_request(match=match, plies=plies, force=redo, enqueue=False)
            if analysis is None:
                self.stdout.write(_("match %(match)s: no moves stored, nothing to analyse") % {"match": match.pk})
            elif analysis.status == AnalysisStatus.QUEUED:
                queued.append(match.pk)
        done = failed = 0
        for start in range(0, len(queued), BATCH):
            for match_id, analysis in services.analysis_run_many(match_ids=queued[start:start + BATCH]).items():
                if analysis.status == AnalysisStatus.DONE:
                    done += 1
                    sides = " / ".join(f"PR {s.pr:.2f}" for s in analysis.sides.order_by("side"))
                    self.stdout.write(_("match %(match)s: %(sides)s") % {"match": match_id, "sides": sides})
                else:
                    failed += 1
                    self.stdout.write(_("match %(match)s: failed: %(error)s") % {"match": match_id, "error": analysis.error_text})
        already = MatchAnalysis.objects.filter(match_id__in=ids, status=AnalysisStatus.DONE).exclude(
            match_id__in=queued).count()
        self.stdout.write(_("%(done)s analysed, %(failed)s failed, %(already)s already analysed.")
                          % {"done": done, "failed": failed, "already": already})
        if failed:
            raise SystemExit(1)
