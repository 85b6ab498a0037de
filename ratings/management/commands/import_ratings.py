"""manage.py import_ratings FILE.csv [--as-of DATE] [--check] [--by USERNAME]: players' starts from another rating list."""

from datetime import date
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings.permissions import may_import_ratings
from ratings.services.starts import rating_starts_import


class Command(BaseCommand):
    help = (
        "Give players their starting ratings from another list (a federation's, a club's old one): a CSV file with "
        "the columns player (or federation_id), rating, experience and as_of. FIBS starts each at his rating and "
        "experience, crawford at his rating with a deviation that shrinks with his experience. Every row is checked "
        "first: one wrong row names its line and nothing is stored. Importing the same file again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the list, CSV with a header (UTF-8)")
        parser.add_argument("--as-of", help="the list's date (YYYY-MM-DD) for rows without an as_of column")
        parser.add_argument("--check", action="store_true", help="check the file and say what it would do; store nothing")
        parser.add_argument("--by", help="the rating officer who imports it (username), recorded with each start")

    def handle(self, *args, file, as_of=None, check=False, by=None, **options):
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CommandError(f"{file}: no such file.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file}: not UTF-8 text; save the list as CSV in UTF-8.") from None
        dated = None
        if as_of:
            try:
                dated = date.fromisoformat(as_of)
            except ValueError:
                raise CommandError(f"--as-of: {as_of!r} is not a date (YYYY-MM-DD).") from None
        officer = None
        if by:
            officer = get_user_model().objects.filter(username=by).first()
            if officer is None or not may_import_ratings(officer):
                raise CommandError(f"{by} is neither a rating officer nor a site admin: only they import rating lists.")
        try:
            done = rating_starts_import(text=text, source=file.name, by=officer, as_of=dated, check=check)
        except ValidationError as error:
            raise CommandError("\n".join(message for messages in error.message_dict.values() for message in messages))\
                from None
        verb = "would give" if check else "gave"
        self.stdout.write(
            f"{file.name}: {verb} {done.created} players a start, changed {done.changed}, left {done.unchanged} as they"
            f" were; {done.players_created} players {'would be' if check else 'were'} new to this site."
            + (" The ratings are being rated again from the starts." if done.recompute else "")
        )
