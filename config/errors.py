"""Errors that services raise and every interface (API, pages, commands) translates the same way."""


class ConflictError(Exception):
    """A write lost a race or was based on a stale view: someone else changed the same thing first.

    The API answers 409; a page asks the person to reload; nothing of the write is kept. When the
    write would have made a second copy of a record (the same federation id, the same address),
    `existing` is that record, and the API names it (id and url) in its answer.
    """

    def __init__(self, message: str = "", *, existing=None):
        super().__init__(message)
        self.existing = existing


RACE_ERRORS = frozenset({"DeadlockDetected", "SerializationFailure", "LockNotAvailable"})
"""What PostgreSQL raises when it gives up one of two transactions that waited on each other."""


def as_conflict(error: Exception) -> ConflictError | None:
    """The conflict a database error stands for (a lost race), or None for any other error."""
    if isinstance(error, ConflictError):
        return error
    from django.db import OperationalError

    if isinstance(error, OperationalError) and type(error.__cause__).__name__ in RACE_ERRORS:
        from django.utils.translation import gettext as _

        return ConflictError(_("Someone else was changing the same thing at the same moment: try again."))
    return None
