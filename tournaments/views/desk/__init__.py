"""The TD's desk: events, flights, entries, tables, the match queue, results, disputes, slips,
the projector and corrections.

One module per thing the TD does: `entries`, `draws`, `tables`, `results`, `claims` (results the
players reported, ruled), `corrections` (a result's own page); `events` holds the event list and
the desk's page, `selectors` what that page reads, `base` what they share. Each desk action is a
small view of its module, named in its `ACTIONS`; they read through selectors and write only
through `tournaments.services` and `games.services`.

Every desk action is one POST to the event's desk. Without script it answers with a redirect back
to the place on the page it came from; with htmx (`HX-Request`) it answers with the desk's main
part alone (the `main` partial of `desk_event.html`), which the page morphs in place, so the TD
keeps his scroll, his focus, his search and what he typed. A Save of a score answers with only
what it changed, swapped out of band (`results.save_answer`, the `saved` partial), unless it
changed the queue's shape. A refusal answers 400 (409 for a lost race) with the reason beside the
fields.
"""

from .corrections import desk_correct
from .draws import desk_draw
from .entries import desk_entries
from .events import desk, desk_event
from .tables import desk_more, desk_projector, desk_slips

__all__ = ["desk", "desk_correct", "desk_draw", "desk_entries", "desk_event", "desk_more", "desk_projector",
           "desk_slips"]
