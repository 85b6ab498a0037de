"""What the log says, and how much of it."""

import logging


class WithoutTraceback(logging.Filter):
    """Keeps a record's message and drops its traceback: for refusals the log should count, not
    explain (a request with a host not in ALLOWED_HOSTS, answered 400, is one line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True
