"""What the games app tells the others. Sent inside the writing transaction."""

from django.dispatch import Signal

# Sent with `match=` whenever a match's result changes: a game recorded, corrected or deleted, a
# forfeit. Receivers that enqueue work do it with transaction.on_commit.
match_result_changed = Signal()
