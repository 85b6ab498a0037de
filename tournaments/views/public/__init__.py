"""Public pages that draw on every app, one module per family of pages: `home`, `players` (a
player's page and his calendar), `events` (the event list, an event's page, its live part and its
embed) and `flights` (an event's flights as its page draws them).

Views read through selectors (or the fixed-count queries of `players._read_player_page` and
`flights.read_event`) and write nothing.
"""

from .events import event_detail, event_embed, event_list, event_live, refresh_seconds
from .home import home
from .players import player_calendar, player_detail

__all__ = ["event_detail", "event_embed", "event_list", "event_live", "home", "player_calendar", "player_detail",
           "refresh_seconds"]
