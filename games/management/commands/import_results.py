"""manage.py import_results FILE.csv: load match results (final scores) from a CSV file."""

from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.languages import list_join
from config.management.base import TranslatedCommand

from games import results


class Command(TranslatedCommand):
    help = gettext_lazy(
        "Import finished matches from a CSV with the header played_on,player_a,player_b,length,score_a,score_b "
        "(optional event, source_id and new_player columns; others are ignored). Every row is checked first; "
        "one bad row stores nothing. Rows imported before from the same sheet (the file's name, or --sheet) "
        "are skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help=_("the CSV file"))
        parser.add_argument("--check", action="store_true", help=_("only check the file; store nothing"))
        parser.add_argument("--sheet", default=None,
                            help=_("the sheet's name, which a row's identity includes (default: the file's name); "
                                   "give the same name when a sheet is exported again under another file name"))
        parser.add_argument("--new-players", default="",
                            help=_('names that are new players even when near a player\'s, comma-separated: '
                                   '"David L,Anne K"'))
        parser.add_argument("--accept-new-names", action="store_true",
                            help=_("every name that is nobody's is a new player, even when near a player's"))

    def handle(self, *args, file: Path, check: bool = False, sheet: str | None = None, new_players: str = "",
               accept_new_names: bool = False, **options):
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(_("Cannot read %(file)s: %(error)s") % {"file": file, "error": error}) from None
        try:
            text, note = results.results_file_decode(data)
            if note:
                self.stderr.write(_("%(file)s: %(note)s.") % {"file": file, "note": note})
            sheet = file.name if sheet is None else sheet
            if not sheet.strip():
                raise CommandError(_("--sheet: give the sheet a name (or leave --sheet out for the file's name)."))
            rows = results.results_file_read(text=text, sheet=sheet)
            if check:
                self.stdout.write(ngettext("%(file)s: %(count)s row, valid.", "%(file)s: %(count)s rows, all valid.",
                                           len(rows)) % {"file": file, "count": len(rows)})
                return
            report = results.results_import(
                rows=rows, new_players=[name for name in new_players.split(",") if name.strip()],
                accept_new_names=accept_new_names,
            )
        except results.ResultsFileError as error:
            lines = "\n".join("  " + _("line %(line)s: %(message)s") % {"line": line, "message": message}
                              for line, message in error.problems)
            raise CommandError(_("%(file)s: nothing imported; fix these rows:") % {"file": file} + f"\n{lines}") from None
        self.stdout.write(_imported_line(file, report.imported, report.already_there, len(report.players_created)))
        if report.not_in_sheet:
            shown = list_join(str(pk) for pk in report.not_in_sheet[:20])
            more = (ngettext(" and %(count)s more", " and %(count)s more", len(report.not_in_sheet) - 20)
                    % {"count": len(report.not_in_sheet) - 20}
                    if len(report.not_in_sheet) > 20 else "")
            self.stderr.write(
                ngettext("%(count)s match imported from this sheet before is not in it now (match %(matches)s): it "
                         "stays stored. If the sheet corrects it, correct or withdraw that match.",
                         "%(count)s matches imported from this sheet before are not in it now (match %(matches)s): "
                         "they stay stored. If the sheet corrects them, correct or withdraw those matches.",
                         len(report.not_in_sheet))
                % {"count": len(report.not_in_sheet), "matches": shown + more}
            )


def _imported_line(file: Path, imported: int, already: int, new: int) -> str:
    """What an import stored, one count per part, each in the plural form its own count asks for
    ("results.csv: imported 1 match, 2 already there, 3 new players.")."""
    # Translators: the file, then the three counts of an import below, each already written out.
    return _("%(file)s: %(imported)s, %(already)s, %(new)s.") % {
        "file": file,
        "imported": ngettext("imported %(count)s match", "imported %(count)s matches", imported) % {"count": imported},
        "already": ngettext("%(count)s already there", "%(count)s already there", already) % {"count": already},
        "new": ngettext("%(count)s new player", "%(count)s new players", new) % {"count": new},
    }
