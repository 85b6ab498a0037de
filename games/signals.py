"""What the games app tells the others. Sent inside the writing transaction."""

from django.dispatch import Signal

# Sent with `match=` whenever a match's result changes: a game recorded, corrected or deleted, a
# forfeit. Receivers that enqueue work do it with transaction.on_commit.
match_result_changed = Signal()

# Sent with `match=` before a service locks a match to change it. A receiver whose rows guard the
# match (an event that the match decides) locks them here, so that every writer takes its locks
# in the same order: the rows above a match before the match itself.
match_will_change = Signal()
