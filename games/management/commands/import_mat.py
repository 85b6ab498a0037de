"""`manage.py import_mat FILE…`: load verified match files; re-running adds nothing.

Each file is verified move by move and stored in its own transaction, so one bad file never stops
the others. The report names the files imported, those already there and those that failed with
why; the exit status is 1 when any failed.
"""

from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.languages import list_join
from config.management.base import TranslatedCommand

from games.matfiles import MatchFileRejected, decode_match_file, match_file_import


class Command(TranslatedCommand):
    help = gettext_lazy("Import .mat match files (each verified move by move, each in its own transaction).")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help=_("the .mat files"))

    def handle(self, *args, files, **options):
        imported, already, failed = [], [], []
        for path in files:
            try:
                match, created = self.import_one(path)
            except MatchFileRejected as rejected:
                failed.append((path, rejected.errors_text))
                self.stderr.write(_("%(path)s: not imported") % {"path": path})
                for line in rejected.errors_text:
                    self.stderr.write(f"  {line}")
                continue
            except Exception as error:  # noqa: BLE001 - whatever went wrong, the next file still goes
                failed.append((path, [f"{type(error).__name__}: {error}"]))
                self.stderr.write(_("%(path)s: not imported") % {"path": path} + f"\n  {type(error).__name__}: {error}")
                continue
            if created:
                imported.append(path)
                self.stdout.write(_("%(path)s: imported as match %(match)s (%(score)s)")
                                  % {"path": path, "match": match.pk, "score": f"{match.score_a}–{match.score_b}"})
            else:
                already.append(path)
                self.stdout.write(_("%(path)s: already imported as match %(match)s; nothing added")
                                  % {"path": path, "match": match.pk})
        self.stdout.write(
            ngettext("%(count)s file: %(imported)s imported, %(already)s already there, %(failed)s failed.",
                     "%(count)s files: %(imported)s imported, %(already)s already there, %(failed)s failed.",
                     len(files))
            % {"count": len(files), "imported": len(imported), "already": len(already), "failed": len(failed)}
        )
        if failed:
            names = list_join(path for path, __ in failed)
            raise CommandError(ngettext("%(failed)s of %(count)s file not imported: %(names)s",
                                        "%(failed)s of %(count)s files not imported: %(names)s", len(files))
                               % {"failed": len(failed), "count": len(files), "names": names}, returncode=1)

    @staticmethod
    def import_one(path: str):
        file = Path(path)
        if not file.is_file():
            raise MatchFileRejected(_("No such file: %(path)s") % {"path": path})
        return match_file_import(text=decode_match_file(file.read_bytes()), name=file.name)
