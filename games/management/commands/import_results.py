"""manage.py import_results FILE.csv: load match results (final scores) from a CSV file."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import results


class Command(BaseCommand):
    help = (
        "Import finished matches from a CSV with the header played_on,player_a,player_b,length,score_a,score_b "
        "(optional event and source_id columns; others are ignored). Every row is checked first; one bad row "
        "stores nothing. Rows imported before are skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--check", action="store_true", help="only check the file; store nothing")

    def handle(self, *args, file: Path, check: bool = False, **options):
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        try:
            text, note = results.results_file_decode(data)
            if note:
                self.stderr.write(f"{file}: {note}.")
            rows = results.results_file_read(text=text)
            if check:
                self.stdout.write(f"{file}: {len(rows)} rows, all valid.")
                return
            report = results.results_import(rows=rows)
        except results.ResultsFileError as error:
            lines = "\n".join(f"  line {line}: {message}" for line, message in error.problems)
            raise CommandError(f"{file}: nothing imported; fix these rows:\n{lines}") from None
        self.stdout.write(
            f"{file}: imported {report.imported} matches, {report.already_there} already there, "
            f"{len(report.players_created)} new players."
        )
