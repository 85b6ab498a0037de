"""Errors raised by the tournament formats.

``BracketUserError`` carries a message meant for the tournament director: it names players,
rounds and matches the way the TD sees them, and says what to do. Anything else that goes wrong
inside a format is a programming error and surfaces as an ordinary exception.
"""


class BracketUserError(ValueError):
    """A draw, a result or a setting the TD gave breaks the rules of the format."""
