"""Reads: lists with a fixed number of queries (`lists`), what the TD's desk reads (`desk`), the
brackets, standings and places worked out from the formats (`brackets`), and an event as files
(`exports`). Everything is imported from here: `from tournaments import selectors`."""

from .brackets import bracket, correction_preview, event_views, flight_views, knockout_seeds, placings, standings
from .desk import (
    claims_by_event,
    desk_board,
    desk_open_rows,
    desk_players_side,
    desk_save_changes,
    draw_preview,
    projector_board,
)
from .exports import entries_csv, ics_fold, ics_text, results_csv, results_export_csv, schedule_ics
from .lists import (
    dispute_queue,
    entry_list,
    entry_ratings,
    event_matches,
    flight_list,
    match_pages_context,
    pairing_list,
    pairing_of_match,
    pairings_for_slips,
    pairings_without_a_table,
    report_list,
    round_list,
    tournament_list,
)

__all__ = [
    "bracket", "claims_by_event", "correction_preview", "desk_board", "desk_open_rows", "desk_players_side",
    "desk_save_changes", "dispute_queue", "draw_preview", "entries_csv", "entry_list", "entry_ratings",
    "event_matches", "event_views", "flight_list", "flight_views", "ics_fold", "ics_text", "knockout_seeds",
    "match_pages_context", "pairing_list", "pairing_of_match", "pairings_for_slips", "pairings_without_a_table",
    "placings", "projector_board", "report_list", "results_csv", "results_export_csv", "round_list", "schedule_ics",
    "standings", "tournament_list",
]
