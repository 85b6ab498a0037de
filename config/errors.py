"""Errors that services raise and every interface (API, pages, commands) translates the same way."""


class ConflictError(Exception):
    """A write lost a race or was based on a stale view: someone else changed the same thing first.

    The API answers 409; a page asks the person to reload; nothing of the write is kept.
    """
