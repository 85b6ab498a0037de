"""Whole numbers read from what a person or a program sent: through Django's own form field,
never by hand.

`str.isdigit()` says yes to `²` and `٣`, which `int()` refuses or reads differently; a number too
large for its column is a database error. Each kind of number is one `forms.IntegerField` here,
with the bounds of the column it goes into, and a bad one is a clear refusal (400), never a 500.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import BadRequest, ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import Http404
from django.utils.translation import gettext

BIGINT_MAX = 2**63 - 1
"""The largest id (a BigAutoField) and version a database column holds."""
POSITIVE_INT_MAX = 2**31 - 1
"""The largest value of a PositiveIntegerField (the smallest of the databases Crawford runs on)."""

ID = forms.IntegerField(min_value=1, max_value=BIGINT_MAX)
VERSION = forms.IntegerField(min_value=0, max_value=BIGINT_MAX)
SMALL = forms.IntegerField(min_value=1, max_value=POSITIVE_INT_MAX)
MATCH_LENGTH = forms.IntegerField(min_value=1, max_value=99)
DRAW_NUMBER = forms.IntegerField(min_value=-(2**63), max_value=BIGINT_MAX)
"""The random number a draw is made with (a bigint, as the flight keeps it)."""


def whole_number(value, *, field: forms.IntegerField = ID) -> int:
    """`value` read by `field`; raises `ValidationError` with the field's own message."""
    return field.clean("" if value is None else str(value).strip())


def path_id(value) -> int:
    """The id a URL names (`/api/v1/players/12/`): text, `²` or a number no id can be is "not
    found", with a message saying why, never a server error."""
    try:
        return whole_number(value)
    except ValidationError:
        raise Http404(gettext("There is nothing with the id “%(id)s” here: an id is a whole number, such as 12.")
                      % {"id": str(value)[:20]}) from None


def posted_number(data, name: str, *, what: str | None = None, field: forms.IntegerField = ID) -> int:
    """The whole number a form carries under `name` (an id, a version). The pages always send a
    valid one; anything else is a broken or forged form: 400, never a server error."""
    try:
        return whole_number(data.get(name), field=field)
    except ValidationError:
        raise BadRequest(gettext("The form's field “%(field)s” is not valid: reload the page and try again.")
                         % {"field": what or name}) from None


def typed_text(value, *, field: str) -> str:
    """Text a person typed (a name, a note, a reason), as typed. A NUL character, which no keyboard
    types and PostgreSQL cannot store, is refused on `field` with Django's own message, as every
    form's and serializer's text field refuses it."""
    text = "" if value is None else str(value)
    try:
        ProhibitNullCharactersValidator()(text)
    except ValidationError as error:
        raise ValidationError({field: error.messages}) from None
    return text


def whole_numbers(text: str, *, field: forms.IntegerField = SMALL) -> list[int]:
    """Numbers separated by commas or spaces ("7, 7, 9"); raises `ValidationError` on any that is
    not a whole number within `field`'s bounds."""
    parts = [part for part in re.split(r"[,\s]+", text or "") if part]
    if not parts:
        raise ValidationError(gettext("Give at least one number."))
    return [field.clean(part) for part in parts]
