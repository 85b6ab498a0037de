"""HTML views by audience: `public` (home, players, events), `desk` (the TD's desk, a package by what the TD does), `player` (his own matches), `match` (a match's public page, from its slip),
`accounts` (sign-up, claims, registration)."""

from .accounts import (
    PasswordResetConfirmView,
    PasswordResetView,
    account,
    check_in_window,
    claims,
    event_registration,
    landing,
    signup,
    signup_confirm,
)
from .desk import (
    desk,
    desk_correct,
    desk_draw,
    desk_entries,
    desk_event,
    desk_more,
    desk_projector,
    desk_slips,
)
from .match import event_match
from .player import my_matches
from .public import (
    event_detail,
    event_embed,
    event_list,
    event_live,
    home,
    player_calendar,
    player_detail,
)

__all__ = [
    "account",
    "check_in_window",
    "claims",
    "desk",
    "desk_correct",
    "desk_draw",
    "desk_entries",
    "desk_event",
    "desk_more",
    "desk_projector",
    "desk_slips",
    "event_detail",
    "event_embed",
    "event_list",
    "event_match",
    "event_live",
    "event_registration",
    "home",
    "landing",
    "my_matches",
    "player_calendar",
    "player_detail",
    "signup",
    "signup_confirm",
]
