"""Errors of the rules engine, one per audience.

All subclass ValueError, so a caller that only cares whether input was acceptable can catch that.
"""


class EngineError(ValueError):
    """Base class of everything the engine refuses."""


class InvalidNotationError(EngineError):
    """The text could not be read: not a Position ID, Match ID, play or match file we understand."""


class IllegalPlayError(EngineError):
    """The play was read but breaks the rules of backgammon."""

    def __init__(self, message: str, *, legal: tuple[str, ...] = ()):
        super().__init__(message)
        self.legal = legal


class ScoringError(EngineError):
    """A game result that the rules of match or session play do not allow.

    `field` names the part of the result at fault (cube, points, kind, ...), so that an API can
    attach the message to the right field.
    """

    def __init__(self, message: str, *, field: str = "non_field_errors"):
        super().__init__(message)
        self.field = field
        self.message = message
