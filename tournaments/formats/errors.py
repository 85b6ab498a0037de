"""Errors raised by the tournament formats.

``BracketUserError`` carries a message meant for the tournament director: it names players,
rounds and matches the way the TD sees them, and says what to do. Anything else that goes wrong
inside a format is a programming error and surfaces as an ordinary exception.

The formats know no language: a refusal keeps its English message with named placeholders and
their values, marked for the catalogs (`gettext_noop`, `ngettext`), and is put in the reader's
language when it is read (`BracketUserError.message`), by the translator the site installs at
start (`translator_install`; without one, English).
"""

from collections.abc import Callable


def gettext_noop(message: str) -> str:
    """Mark `message` for the catalogs (`make messages`); it is translated when read."""
    return message


def ngettext(singular: str, plural: str, count: int) -> tuple[str, str, int]:
    """Mark a message whose words follow `count` (`make messages` looks for this name); it is
    translated, in the form `count` asks for, when read."""
    return singular, plural, count


_gettext: Callable[[str], str] = gettext_noop
_ngettext: Callable[[str, str, int], str] = lambda singular, plural, count: singular if count == 1 else plural


def translator_install(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Read the formats' refusals through these (the site installs Django's at start)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


class BracketUserError(ValueError):
    """A draw, a result or a setting the TD gave breaks the rules of the format.

    `message` is a marked message (`gettext_noop`, or `ngettext` for one whose words follow a
    number) and `params` the values of its placeholders (names, rounds, slots: never translated).
    """

    def __init__(self, message: str | tuple[str, str, int], **params) -> None:
        self.template = message
        self.params = params
        super().__init__(self._english())

    def _english(self) -> str:
        if isinstance(self.template, tuple):
            singular, plural, count = self.template
            text = singular if count == 1 else plural
        else:
            text = self.template
        return text % self.params if self.params else text

    @property
    def message(self) -> str:
        """The refusal in the reader's language (the active one)."""
        if isinstance(self.template, tuple):
            text = _ngettext(*self.template)
        else:
            text = _gettext(self.template)
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.message
