"""What the games app tells the apps it must not know. Sent inside the writing transaction.

Games does not know who listens; the listeners are listed in README.md ("How the apps meet").
A write that changes the rows above a match (an event's pairing) does not come through here: it
is the keeper's service that calls games (`games.keepers`).
"""

from django.dispatch import Signal

match_result_changed = Signal()
"""Sent with `match=` whenever what the ratings count of a match changes: a game recorded,
corrected or deleted, a final score, a forfeit, the match marked rated or unrated or moved in
time. Listener: ratings (writes "rated match changed" to its outbox in the same transaction)."""

results_imported = Signal()
"""Sent with no arguments inside each chunk's transaction of a results import, once the chunk's
new matches are stored. Listener: ratings (writes "results imported" to its outbox)."""

results_import_finished = Signal()
"""Sent with `imported=` (the matches the whole import stored) when a results import ends.
Listener: ratings (queues the runs that rate them once the transaction commits)."""
