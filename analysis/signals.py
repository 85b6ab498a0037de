"""What the analysis tells other apps, without knowing them. Both are sent inside the transaction
that stores a match's analysis; the listeners are listed in README.md ("How the apps meet")."""

from django.dispatch import Signal

analysis_will_store = Signal()
"""Sent with `match` before the analysis row is locked. An app that shows figures drawn from the
analysis (an event's skill points and PR tie-break) raises its own version here, so its pages
change together with the new rows, and takes its locks before the analysis's. Listener:
tournaments (the event's results version)."""

analysis_stored = Signal()
"""Sent with `match` once the new rows are written. Listener: ratings (the skill rating's outbox),
whose rows come last in the lock order."""
