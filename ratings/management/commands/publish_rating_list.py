"""manage.py publish_rating_list --system fibs --as-of 2026-11-30 [--note TEXT]: publish an official list."""

from datetime import date

from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.management.base import TranslatedCommand

from config.errors import ConflictError
from ratings import services


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(_("--as-of: %(text)r is not a date (YYYY-MM-DD).") % {"text": text}) from None


class Command(TranslatedCommand):
    help = gettext_lazy("Publish the official rating list of a system, dated --as-of, from its published ratings.")

    def add_arguments(self, parser):
        parser.add_argument("--system", required=True, help=_("fibs or crawford"))
        parser.add_argument("--as-of", required=True, help=_("the list's date, YYYY-MM-DD"))
        parser.add_argument("--note", default="", help=_("shown with the list (at most 500 characters)"))

    def handle(self, *args, system, as_of, note, **options):
        try:
            official = services.rating_list_publish(system=system, as_of=_date(as_of), note=note)
        except ValidationError as error:
            raise CommandError(" ".join(f"{field}: {' '.join(texts)}" for field, texts in error.message_dict.items()))\
                from None
        except ConflictError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_("%(list)s: %(players)s players (list %(id)s).")
                          % {"list": official, "players": number_format(official.players, force_grouping=True),
                             "id": official.pk})
