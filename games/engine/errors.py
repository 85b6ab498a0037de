"""Errors of the rules engine, one per audience.

All subclass ValueError, so a caller that only cares whether input was acceptable can catch that.

The engine knows no language: a refusal keeps its English message with named placeholders and
their values, marked for the catalogs (`gettext_noop`, `ngettext`), and is put in the reader's
language when it is read (`ScoringError.message`), by the translator the site installs at start
(`translator_install`; without one, English).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark `message` for the catalogs (`make messages`); it is translated when read."""
    return message


def ngettext(singular: str, plural: str, count: int) -> tuple[str, str, int]:
    """Mark a message whose words follow `count` (`make messages` looks for this name); it is
    translated, in the form `count` asks for, when read."""
    return singular, plural, count


_gettext: Callable[[str], str] = gettext_noop
_ngettext: Callable[[str, str, int], str] = lambda singular, plural, count: singular if count == 1 else plural


def _comma_join(items: Iterable) -> str:
    """A list as the English of a refusal writes it ("Anne, Bo")."""
    return ", ".join(str(item) for item in items)


_list_join: Callable[[Iterable], str] = _comma_join


def translator_install(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
                       list_join: Callable[[Iterable], str] | None = None) -> None:
    """Read the engine's refusals through these (the site installs Django's at start); `list_join`
    writes a list of names as the reader's language does ("Anne, Bo"; "アン、ボー")."""
    global _gettext, _ngettext, _list_join
    _gettext, _ngettext = gettext, ngettext
    if list_join is not None:
        _list_join = list_join


def marked_read(message: str | tuple[str, str, int], params: dict | None = None) -> str:
    """A marked message (`gettext_noop`, or `ngettext` for one whose words follow a number) in the
    reader's language, its placeholders filled from `params` (values, never translated; an error or
    a `Marked` among them is read in the same language)."""
    text = _ngettext(*message) if isinstance(message, tuple) else _gettext(message)
    return text % params if params else text


@dataclasses.dataclass(frozen=True, slots=True)
class Marked:
    """A marked message and the values of its placeholders, kept to be read later, in the language
    of whoever reads it: a part of a longer message ("Anne (left)", "a gammon with the cube on 2")
    that is put into it as a value and read with it (`str()`, `marked_read`)."""

    message: str | tuple[str, str, int]
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, message: str | tuple[str, str, int], **params) -> Marked:
        return cls(message, tuple(params.items()))

    def __str__(self) -> str:
        return marked_read(self.message, dict(self.params))


class MarkedRefusal(ValueError):
    """A refusal in words for a person: `message` is a marked message (`gettext_noop`, or
    `ngettext` for one whose words follow a number) and `params` the values of its placeholders
    (names, numbers: never translated; a tuple of them is a list, written as the reader's language
    writes one). It keeps the English as its argument and is read in the reader's language
    (`message`, `str()`). The tournament formats' refusals are made the same way."""

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
        return text % self._values(_comma_join) if self.params else text

    def _values(self, join: Callable[[Iterable], str]) -> dict:
        return {key: join(value) if isinstance(value, tuple) else value for key, value in self.params.items()}

    @property
    def message(self) -> str:
        """The refusal in the reader's language (the active one)."""
        if isinstance(self.template, tuple):
            text = _ngettext(*self.template)
        else:
            text = _gettext(self.template)
        return text % self._values(_list_join) if self.params else text

    def __str__(self) -> str:
        return self.message


class EngineError(MarkedRefusal):
    """Base class of everything the engine refuses: a marked message and the values of its
    placeholders (`MarkedRefusal`), read in the reader's language."""


class InvalidNotationError(EngineError):
    """The text could not be read: not a Position ID, Match ID, play or match file we understand."""


class IllegalPlayError(EngineError):
    """The play was read but breaks the rules of backgammon; `legal` holds the notation of every
    legal play."""

    def __init__(self, message: str | tuple[str, str, int], *, legal: tuple[str, ...] = (), **params):
        self.legal = legal
        super().__init__(message, **params)


class ScoringError(EngineError):
    """A game result that the rules of match or session play do not allow.

    `field` names the part of the result at fault (cube, points, kind, ...), so that an API can
    attach the message to the right field; the message is marked (`MarkedRefusal`).
    """

    def __init__(self, message: str | tuple[str, str, int], *, field: str = "non_field_errors", **params):
        self.field = field
        super().__init__(message, **params)
