"""What Crawford's management commands share."""

import os

from django.core.management.base import BaseCommand
from django.utils import translation

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where a shell says which language its user reads, in the order gettext asks them."""


def language_of_environment(environ=os.environ) -> str | None:
    """The site's language that the shell's locale asks for, or None for the site's own (English):
    the first of LANGUAGE (which may list several, "da:en"), LC_ALL, LC_MESSAGES and LANG that
    names a language the site speaks ("da_DK.UTF-8" is Danish); one set to "C" or "POSIX" before
    any such says English."""
    for name in LOCALE_VARIABLES:
        for value in environ.get(name, "").split(":"):
            code = value.split(".")[0].split("@")[0].strip().replace("_", "-").lower()
            if not code:
                continue
            if code in ("c", "posix"):
                return None
            try:
                return translation.get_supported_language_variant(code)
            except LookupError:
                continue
    return None


class TranslatedCommand(BaseCommand):
    """A command that speaks its reader's language: its `help` and messages are translatable, and
    run from a shell it speaks the language of the shell's locale (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG: `LANGUAGE=da manage.py import_mat …`), English when the site does not speak it. Called
    from code (`call_command`) it speaks the active language.

    argparse reads the description as text, so a lazy `help` is made text, in the command's
    language, as the parser is made."""

    def run_from_argv(self, argv):
        language = language_of_environment()
        if language is None:
            return super().run_from_argv(argv)
        with translation.override(language):
            return super().run_from_argv(argv)

    def create_parser(self, prog_name, subcommand, **kwargs):
        self.help = str(self.help)
        return super().create_parser(prog_name, subcommand, **kwargs)
