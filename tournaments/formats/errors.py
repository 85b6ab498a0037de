"""Errors raised by the tournament formats.

``BracketUserError`` carries a message meant for the tournament director: it names players,
rounds and matches the way the TD sees them, and says what to do. Anything else that goes wrong
inside a format is a programming error and surfaces as an ordinary exception.

The formats know no language: a refusal keeps its English message with named placeholders and
their values, marked for the catalogs (`gettext_noop`, `ngettext`), and is put in the reader's
language when it is read, as the rules engine's are (`games.engine.errors.MarkedRefusal`, plain
Python too, whose translator the site installs at start; without one, English).
"""

from games.engine.errors import MarkedRefusal, gettext_noop, ngettext

__all__ = ["BracketUserError", "gettext_noop", "ngettext"]


class BracketUserError(MarkedRefusal):
    """A draw, a result or a setting the TD gave breaks the rules of the format (a marked
    message and the values of its placeholders: `MarkedRefusal`)."""
