"""manage.py import_ratings FILE.csv [--as-of DATE] [--check] [--by USERNAME]: players' starts from another rating list."""

from datetime import date
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.management.base import TranslatedCommand

from ratings.permissions import may_import_ratings
from ratings.services.starts import rating_starts_import


class Command(TranslatedCommand):
    help = gettext_lazy(
        "Give players their starting ratings from another list (a federation's, a club's old one): a CSV file with "
        "the columns player (or federation_id), rating, experience and as_of. FIBS starts each at his rating and "
        "experience, crawford at his rating with a deviation that shrinks with his experience. Every row is checked "
        "first: one wrong row names its line and nothing is stored. Importing the same file again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help=_("the list, CSV with a header (UTF-8)"))
        parser.add_argument("--as-of", help=_("the list's date (YYYY-MM-DD) for rows without an as_of column"))
        parser.add_argument("--check", action="store_true", help=_("check the file and say what it would do; store nothing"))
        parser.add_argument("--by", help=_("the rating officer who imports it (username), recorded with each start"))

    def handle(self, *args, file, as_of=None, check=False, by=None, **options):
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CommandError(_("%(file)s: no such file.") % {"file": file}) from None
        except UnicodeDecodeError:
            raise CommandError(_("%(file)s: not UTF-8 text; save the list as CSV in UTF-8.") % {"file": file}) from None
        dated = None
        if as_of:
            try:
                dated = date.fromisoformat(as_of)
            except ValueError:
                raise CommandError(_("--as-of: %(text)r is not a date (YYYY-MM-DD).") % {"text": as_of}) from None
        officer = None
        if by:
            officer = get_user_model().objects.filter(username=by).first()
            if officer is None or not may_import_ratings(officer):
                raise CommandError(_("%(user)s is neither a rating officer nor a site admin: only they import rating "
                                     "lists.") % {"user": by})
        try:
            done = rating_starts_import(text=text, source=file.name, by=officer, as_of=dated, check=check)
        except ValidationError as error:
            raise CommandError("\n".join(message for messages in error.message_dict.values() for message in messages))\
                from None
        counts = {"file": file.name, "created": done.created, "changed": done.changed, "unchanged": done.unchanged,
                  "new": done.players_created}
        self.stdout.write(
            (_("%(file)s: would give %(created)s players a start, change %(changed)s, leave %(unchanged)s as they are; "
               "%(new)s players would be new to this site.") if check else
             _("%(file)s: gave %(created)s players a start, changed %(changed)s, left %(unchanged)s as they were; "
               "%(new)s players were new to this site.")) % counts
            + (" " + _("The ratings are being rated again from the starts.") if done.recompute else "")
        )
