"""`manage.py import_mat FILE…`: load verified match files; re-running adds nothing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.matfiles import MatchFileRejected, decode_match_file, match_file_import


class Command(BaseCommand):
    help = "Import .mat match files (each verified move by move, each in its own transaction)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+")

    def handle(self, *args, files, **options):
        failed = 0
        for path in files:
            file = Path(path)
            try:
                if not file.is_file():
                    raise MatchFileRejected(f"No such file: {path}")
                match, created = match_file_import(text=decode_match_file(file.read_bytes()), name=file.name)
            except MatchFileRejected as rejected:
                failed += 1
                self.stderr.write(f"{path}: not imported")
                for line in rejected.errors_text:
                    self.stderr.write(f"  {line}")
                continue
            if created:
                self.stdout.write(f"{path}: imported as match {match.pk} ({match.score_a}–{match.score_b})")
            else:
                self.stdout.write(f"{path}: already imported as match {match.pk}; nothing added")
        if failed:
            raise CommandError(f"{failed} of {len(files)} file(s) not imported.")
