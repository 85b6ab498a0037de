"""API-wide behaviour: errors as a message per field, conflicts as 409, ids in query strings,
pages and search described in the reader's language.

Imports no app: what the API must know of an app's errors and records, the app registers when it
starts (`field_error_register`, `existing_route_register`).
"""

import django_filters
from django import forms
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import MaxValueValidator
from django.db import OperationalError
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, filters, pagination, serializers, status
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ConflictError, as_conflict
from .fields import path_id


class IdFilter(django_filters.NumberFilter):
    """An id in the query string (`?player=12`): a whole number no larger than an id can be, or
    400 with a message on the parameter (a number too large for the column is not a 500)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", -(2**63))
        super().__init__(*args, **kwargs)

    def get_max_validator(self):
        return MaxValueValidator(2**63 - 1)


class IdInPath:
    """A viewset whose records the path names by id (`/api/v1/flights/12/`): the id is read once,
    by `config.fields.path_id`, before any handler sees it; `abc` is a 404 saying so."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        name = self.lookup_url_kwarg or self.lookup_field
        if name == "pk" and name in self.kwargs:
            self.kwargs[name] = path_id(self.kwargs[name])  # the handler is called with these kwargs


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("This was changed by someone else at the same time; reload and try again.")
    default_code = "conflict"


FIELD_ERRORS: tuple[type[Exception], ...] = ()
"""Errors of an app that name their field (`field`, `message`), as the rules engine's refusals do:
each answers 400 with its message on that field."""


def field_error_register(error: type[Exception]) -> None:
    global FIELD_ERRORS
    if error not in FIELD_ERRORS:
        FIELD_ERRORS = (*FIELD_ERRORS, error)


EXISTING_ROUTES: dict[str, tuple[str, str]] = {}
"""How the API names a record that a refused write would have duplicated: model label -> (its
detail route, the field that route takes)."""


def existing_route_register(label: str, route: str, field: str = "pk") -> None:
    EXISTING_ROUTES[label] = (route, field)


def _existing(record, request) -> dict:
    """{"id", "url"} of the record already there (the url where the API has one)."""
    found = {"id": record.pk}
    route = EXISTING_ROUTES.get(record._meta.label_lower)
    if route:
        name, field = route
        url = reverse(name, kwargs={field: getattr(record, field)})
        found["url"] = request.build_absolute_uri(url) if request is not None else url
    return found


def exception_handler(exc, context):
    if isinstance(exc, OperationalError):
        exc = as_conflict(exc) or exc
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    if isinstance(exc, ConflictError):
        existing = exc.existing
        exc = Conflict(str(exc) or None)
        if existing is not None:
            response = drf_exception_handler(exc, context)
            response.data["existing"] = _existing(existing, context.get("request"))
            return response
    if isinstance(exc, FIELD_ERRORS):
        exc = exceptions.ValidationError({exc.field: [exc.message]})
    if isinstance(exc, DjangoValidationError):
        candidates = getattr(exc, "candidates", None)
        if candidates:  # a name near players' names (games.services.NearNamesError): who may be meant
            response = drf_exception_handler(exceptions.ValidationError(exc.message_dict), context)
            response.data["candidates"] = {
                name: [{"id": c.key, "name": c.name, "club": c.club, "why": c.why} for c in found]
                for name, found in candidates.items()
            }
            return response
        if hasattr(exc, "error_dict"):
            exc = exceptions.ValidationError(exc.message_dict)
        else:
            exc = exceptions.ValidationError({"non_field_errors": exc.messages})
    return drf_exception_handler(exc, context)


def flag(value: str | None, name: str) -> bool | None:
    """A yes/no in the query string (`?rated=true`): true/false, 1/0 or yes/no in any case; empty
    means no filter; anything else is a 400 on `name`, never silently ignored."""
    if value in (None, ""):
        return None
    if value.lower() in {"1", "true", "yes"}:
        return True
    if value.lower() in {"0", "false", "no"}:
        return False
    raise DjangoValidationError({name: [_("Give true or false.")]})


class FlagFilter(django_filters.CharFilter):
    """A yes/no filter read by `flag`."""

    def filter(self, qs, value):
        chosen = flag(value, self.field_name)
        return qs if chosen is None else qs.filter(**{self.field_name: chosen})


def id_field() -> serializers.IntegerField:
    """How a related object's id is read from a request body: a whole number (1.5 is a 400 on the
    field, not read as id 1)."""
    return serializers.IntegerField()


class PageNumberPagination(pagination.PageNumberPagination):
    """Lists in pages of `PAGE_SIZE` (`?page=2`), the parameter described in our own words, which
    the schema shows in its reader's language (REST framework's catalogs lack Danish, Greek and
    Japanese for it)."""

    page_query_description = _("The page of the results to show: 1 (the first) unless given.")


class SearchFilter(filters.SearchFilter):
    """`?search=` on a list, the parameter described in our own words (see `PageNumberPagination`)."""

    search_description = _("Words to look for in the names; every word must be found.")
