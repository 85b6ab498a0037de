"""What every part of the desk shares: the TD's event, a posted id, a desk action's inputs and what
it leaves for the page, and how the desk names a match and a result."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext

from config.fields import ID, VERSION, whole_number

from ...models import Entry, Flight, Pairing, PairingStatus, ResultReport, Tournament
from ...permissions import is_td

RECENT_UNDO = 5
"""How many of the latest results the desk offers to undo in one click."""


NOT_VALID = {
    "id": gettext_lazy("Not a valid id: “%(value)s”."),
    "version": gettext_lazy("Not a valid version: “%(value)s”."),
    "player": gettext_lazy("Not a valid player id: “%(value)s”."),
    "line": gettext_lazy("Not a valid line number: “%(value)s”."),
    "round": gettext_lazy("Not a valid round number: “%(value)s”."),
}
"""What the desk answers (400) to a form whose id, version, player, line or round is no whole number."""


def posted_int(value, what: str = "id") -> int:
    """A whole number from a form, or 400: `abc`, `1.5`, `1e3` and `²` are not ids or versions."""
    try:
        return whole_number(value, field=VERSION if what == "version" else ID)
    except ValidationError:
        raise BadRequest(NOT_VALID[what] % {"value": str(value)[:20]}) from None


def td_event(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_td(request.user, tournament):
        raise PermissionDenied(_("Only a TD of %(event)s may use its desk.") % {"event": tournament.name})
    return tournament


def td_page(view):
    """A desk page: a visitor who is not logged in goes to the login first."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
        return view(request, *args, **kwargs)

    return wrapped


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


@dataclass
class Outcome:
    """What a desk action leaves for the page: errors by pairing, the element to focus."""

    row_errors: dict[int, dict] = field(default_factory=dict)
    focus: str = ""
    refused: bool = False
    status: int = 200
    paste: dict | None = None
    saved: Pairing | None = None  # the pairing a Save recorded
    withdrawal: object = None  # the withdrawn entry whose undo the refused undo of a walkover offers

    def refuse(self, status: int = 400) -> None:
        self.refused = True
        self.status = status


@dataclass
class DeskPost:
    """One POST to the event's desk: who sent it, for which event, the forms it filled (kept for
    the page when refused) and what it leaves for the page."""

    request: object
    tournament: Tournament
    forms: dict
    outcome: Outcome

    @property
    def post(self):
        return self.request.POST

    @property
    def user(self):
        return self.request.user

    @property
    def flight_names(self) -> list[str]:
        return self.forms.get("flight_names", [])

    def flight(self) -> Flight:
        return get_object_or_404(Flight.objects.select_related("tournament"), pk=posted_int(self.post.get("flight")),
                                 tournament=self.tournament)

    def entry(self) -> Entry:
        return get_object_or_404(Entry.objects.select_related("player", "flight__tournament"),
                                 pk=posted_int(self.post.get("entry")), tournament=self.tournament)

    def pairing(self) -> Pairing:
        return get_object_or_404(Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"),
                                 pk=posted_int(self.post.get("pairing")), flight__tournament=self.tournament)

    def report(self) -> ResultReport:
        return get_object_or_404(ResultReport.objects.select_related("pairing__flight__tournament"),
                                 pk=posted_int(self.post.get("report")), pairing__flight__tournament=self.tournament)

    def version(self, name: str = "version") -> int:
        return posted_int(self.post.get(name), "version")


def match_label(pairing: Pairing, *, flight_named: bool, tabled: str | None = None) -> str:
    """How the desk names a match to the TD: "R1-5, table 5" ("Main R1-5, table 5" when the event
    has more than one flight). `tabled`: `tabled_words()`, looked up once for a list of matches."""
    label = f"{pairing.flight.name} {pairing.slot}" if flight_named else pairing.slot
    if pairing.table:
        return (tabled or tabled_words()) % {"match": label, "table": pairing.table}
    return label


def tabled_words() -> str:
    """ "%(match)s, table %(table)s" in the reader's language: a match named with its table."""
    return _("%(match)s, table %(table)s")


def result_words(p: Pairing) -> str:
    """ "Main R1-5: Sato 5–3 Holt", or "Main R1-5: walkover to Holt (did not show up)"."""
    where = f"{p.flight.name} {p.slot}"
    if p.table:
        where = _("%(match)s, table %(table)s") % {"match": where, "table": p.table}
    if p.status == PairingStatus.WALKOVER:
        winner = p.player_a if p.winner_id == p.player_a_id else p.player_b
        if p.walkover_reason:
            return _("%(match)s: walkover to %(winner)s (%(reason)s)") % {
                "match": where, "winner": winner.name, "reason": p.walkover_reason}
        return _("%(match)s: walkover to %(winner)s") % {"match": where, "winner": winner.name}
    return f"{where}: {p.player_a.name} {p.score_a}–{p.score_b} {p.player_b.name}"


def still_to_play(count: int, round_number: int) -> str:
    return ngettext("%(count)d match of round %(round)d still to play.",
                    "%(count)d matches of round %(round)d still to play.", count) % {
        "count": count, "round": round_number}
