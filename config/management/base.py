"""What Crawford's management commands share."""

from django.core.management.base import BaseCommand


class TranslatedCommand(BaseCommand):
    """A command whose `help` is a translatable (lazy) message: argparse reads the description as
    text, so it is made text, in the command's language, as the parser is made."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        self.help = str(self.help)
        return super().create_parser(prog_name, subcommand, **kwargs)
