"""Every action a TD takes at his desk has an API call: an event run by a program (a club's own
app, a scoring screen) can do whatever the desk does. The desk's actions are read from the URL
conf as the every-write test reads them (each page that takes a POST and each `action` it
dispatches on); `test_every_desk_action_has_an_api_call` fails naming any that the table below
leaves out, and any API call the table names that the API does not offer."""

from tests.test_every_write_by_every_role import write_routes



def is_td_page(name: str, action: str) -> bool:
    """The TD's pages: the desk and its slips, draw and correction pages, and the windows he opens
    for the players from the event page (their check-in, their online registration)."""
    return name.startswith("desk") or name == "event-check-in" or (name, action) == ("event-register", "open")


# (URL name, action) of the desk -> the API call that does the same: (method, URL name).
DESK_TO_API = {
    ("desk", ""): ("POST", "tournament-list"),
    ("desk-event", "flight"): ("POST", "flight-list"),
    ("desk-event", "enter"): ("POST", "entry-list"),
    ("desk-event", "new_player"): ("POST", "player-list"),  # then POST entries/
    ("desk-event", "paste"): ("POST", "flight-paste"),
    ("desk-event", "check_in"): ("POST", "entry-check-in"),
    ("desk-event", "check_in_all"): ("POST", "flight-check-in-all"),
    ("desk-event", "withdraw"): ("POST", "entry-withdraw"),
    ("desk-event", "withdraw_undo"): ("POST", "entry-withdraw-undo"),
    ("desk-event", "settings"): ("PATCH", "flight-detail"),
    ("desk-event", "start_flight"): ("POST", "flight-start"),
    ("desk-event", "start_round"): ("POST", "flight-start-round"),
    ("desk-event", "tables"): ("POST", "tournament-tables"),
    ("desk-event", "table"): ("POST", "pairing-table"),
    ("desk-event", "call_all"): ("POST", "tournament-call-tables"),
    ("desk-event", "sheet"): ("POST", "pairing-start"),
    ("desk-event", "score"): ("POST", "pairing-reports"),
    ("desk-event", "walkover"): ("POST", "pairing-walkover"),
    ("desk-event", "confirm"): ("POST", "result-report-confirm"),
    ("desk-event", "rule"): ("POST", "pairing-override"),
    ("desk-event", "undo"): ("POST", "pairing-result-undo"),  # a walkover: pairing-walkover-undo
    ("desk-slips", "renew"): ("POST", "tournament-slip-codes"),
    ("desk-draw", "confirm"): ("POST", "flight-start"),
    ("desk-draw", "apart"): ("POST", "flight-draw-preview"),
    ("desk-draw", "fixed"): ("POST", "flight-draw-preview"),
    ("desk-draw", "reset"): ("POST", "flight-draw-preview"),
    ("desk-correct", ""): ("POST", "pairing-override"),  # or, to undo it, pairing-result-undo
    ("event-check-in", "close"): ("POST", "flight-check-in-close"),  # its default, open: flight-check-in-open
    ("event-register", "open"): ("POST", "flight-registration-open"),
}


def test_every_desk_action_has_an_api_call():
    desk = {(name, action) for _, name, action in write_routes() if is_td_page(name, action)}
    missing = sorted(desk - set(DESK_TO_API))
    assert not missing, f"desk actions without an API call in the table of {__name__}: {missing}"
    offered = {(method, name) for method, name, _ in write_routes()}
    unknown = sorted({call for call in DESK_TO_API.values() if call not in offered})
    assert not unknown, f"API calls the table names that the API does not offer: {unknown}"
    stale = sorted(set(DESK_TO_API) - desk)
    assert not stale, f"desk actions in the table that the desk no longer has: {stale}"
