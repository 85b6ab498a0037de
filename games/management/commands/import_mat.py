"""`manage.py import_mat FILE…`: load verified match files; re-running adds nothing.

Each file is verified move by move and stored in its own transaction, so one bad file never stops
the others. The report names the files imported, those already there and those that failed with
why; the exit status is 1 when any failed.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.matfiles import MatchFileRejected, decode_match_file, match_file_import


class Command(BaseCommand):
    help = "Import .mat match files (each verified move by move, each in its own transaction)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+")

    def handle(self, *args, files, **options):
        imported, already, failed = [], [], []
        for path in files:
            try:
                match, created = self.import_one(path)
            except MatchFileRejected as rejected:
                failed.append((path, rejected.errors_text))
                self.stderr.write(f"{path}: not imported")
                for line in rejected.errors_text:
                    self.stderr.write(f"  {line}")
                continue
            except Exception as error:  # noqa: BLE001 - whatever went wrong, the next file still goes
                failed.append((path, [f"{type(error).__name__}: {error}"]))
                self.stderr.write(f"{path}: not imported\n  {type(error).__name__}: {error}")
                continue
            if created:
                imported.append(path)
                self.stdout.write(f"{path}: imported as match {match.pk} ({match.score_a}–{match.score_b})")
            else:
                already.append(path)
                self.stdout.write(f"{path}: already imported as match {match.pk}; nothing added")
        self.stdout.write(
            f"{len(files)} file(s): {len(imported)} imported, {len(already)} already there, {len(failed)} failed."
        )
        if failed:
            names = ", ".join(path for path, _ in failed)
            raise CommandError(f"{len(failed)} of {len(files)} file(s) not imported: {names}", returncode=1)

    @staticmethod
    def import_one(path: str):
        file = Path(path)
        if not file.is_file():
            raise MatchFileRejected(f"No such file: {path}")
        return match_file_import(text=decode_match_file(file.read_bytes()), name=file.name)
