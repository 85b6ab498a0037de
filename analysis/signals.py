"""What the analysis tells other apps, without knowing them."""

from django.dispatch import Signal

analysis_will_store = Signal()
"""Sent with `match` inside the transaction that stores a match's analysis, before the analysis row
is locked. An app that shows figures drawn from the analysis (an event's skill points and PR
tie-break) raises its own version there, so its pages change together with the new rows, and
takes its locks before the analysis's."""
