"""The TD's events (the list, and a new event), and an event's desk: its page, and the one POST
every desk action is sent as, handed to the action's own view by name (`ACTIONS`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db.models import Count, Max, Q
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from config.errors import ConflictError
from games import selectors as game_selectors
from games.engine.errors import ScoringError
from games.permissions import is_site_admin
from ratings.views import runs_context

from ... import selectors as tournament_selectors
from ... import services
from ...forms import EventForm, FlightForm, NewPlayerForm, PasteForm, PlayerSearchForm, TablesForm
from ...models import Flight, ReportStatus, Tournament
from ...permissions import may_create_tournament
from ..common import REFUSALS, error_text, form_errors, wants_json
from . import claims, draws, entries, results, selectors, tables
from .base import RECENT_UNDO, DeskPost, Outcome, is_htmx, result_words, td_event, td_page

ACTIONS = {**entries.ACTIONS, **draws.ACTIONS, **tables.ACTIONS, **results.ACTIONS, **claims.ACTIONS}
"""Every desk action by the name its form posts as `action`."""


@login_required(login_url="login")
def desk(request):
    """The TD's events, each with its open disputes, and the form for a new one."""
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(by=request.user, **form.cleaned_data)
        except (ValidationError, ScoringError) as error:
            form_errors(form, error)
        except PermissionDenied as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("%(event)s created. Add its flights next.") % {"event": tournament.name})
            return redirect("desk-event", slug=tournament.slug)
    events = tournament_selectors.tournament_list().annotate(
        disputes=Count("flights__pairings__reports", filter=Q(flights__pairings__reports__status=ReportStatus.DISPUTED),
                       distinct=True))
    if not is_site_admin(request.user):
        events = events.filter(organisers=request.user)
    events = list(events)
    claims = tournament_selectors.claims_by_event(request.user, events)
    for event in events:
        event.claims = claims.get(event.pk, 0)
    return render(request, "tournaments/desk.html", {
        "nav": "desk", "events": events, "form": form,
        "may_create": may_create_tournament(request.user),
    }, status=400 if form.errors else 200)


def run_action(d: DeskPost):
    """Carry out one POSTed desk action through its view. Returns a response, or None for the page."""
    # A row's form carries its own action; a button of the row that does something else sends its
    # own `action` after it, and the last one counts.
    posted = d.post.getlist("action")
    view = ACTIONS.get(posted[-1] if posted else "")
    if view is None:
        raise BadRequest(_("Unknown desk action."))
    try:
        return view(d)
    except REFUSALS as error:
        messages.error(d.request, error_text(error))
        d.outcome.refuse(409 if isinstance(error, ConflictError) else 400)
        return None


def _keep_query(request) -> str:
    q = request.POST.get("q", "").strip()
    return f"?q={q}" if q else ""


def _flights_read(d: DeskPost) -> int:
    """The flights' names (for the forms) and the newest pairing before the action (what a Save's
    answer sends is what changed after it), in one read. Returns the newest pairing's id."""
    flights_read = list(Flight.objects.filter(tournament=d.tournament).annotate(last=Max("pairings__id"))
                        .values_list("name", "last"))
    d.forms["flight_names"] = [name for name, _last in flights_read]
    return max((last or 0 for _name, last in flights_read), default=0)


def _answer(request, d: DeskPost, newest: int):
    """A desk action's answer when it is not the page: a redirect without script, a Save's own
    answer with htmx. None for the page."""
    tournament, outcome, htmx = d.tournament, d.outcome, is_htmx(request)
    if htmx and outcome.saved is not None:
        answer = results.save_answer(request, tournament, outcome.saved, newest=newest,
                                     flight_named=len(d.flight_names) > 1)
        if answer is not None:
            return answer
    bad_form = any(f.errors for k, f in d.forms.items() if k != "flight_names")
    if not htmx and not bad_form and not outcome.row_errors and outcome.paste is None:
        anchor = request.POST.get("anchor", "") or (
            f"pairing-{request.POST['pairing']}" if request.POST.get("pairing", "").isdigit() else "")
        return redirect(f"{reverse('desk-event', args=[tournament.slug])}{_keep_query(request)}#{anchor}")
    if bad_form:
        outcome.status = 400
    tournament.refresh_from_db()
    return None


@td_page
def desk_event(request, slug: str):
    """An event's desk: the page, or a POSTed action and its answer."""
    tournament = td_event(request, slug)
    if request.method == "POST" and wants_json(request):
        return results.save_json(request, tournament)
    d = DeskPost(request=request, tournament=tournament, forms={}, outcome=Outcome())
    if request.method == "POST":
        newest = _flights_read(d)
        response = run_action(d) or _answer(request, d, newest)
        if response is not None:
            return response
    context = _page(request, tournament, d)
    if is_htmx(request):
        return render(request, "tournaments/desk_event.html#main", context, status=d.outcome.status)
    context.update(runs_context())
    return render(request, "tournaments/desk_event.html", context, status=d.outcome.status)


def _found(request, draft_flights: list, entered: set) -> tuple[PlayerSearchForm, list[dict]]:
    """The player search of *Take entries*, each player found with the flights he is in."""
    params = request.POST if request.method == "POST" else request.GET
    search = PlayerSearchForm({"q": params.get("q", "")})
    found = []
    if search.is_valid() and search.cleaned_data["q"]:
        found = list(game_selectors.player_list(search=search.cleaned_data["q"])[:15])
    return search, [{"player": p, "entered_in": [f.pk for f in draft_flights if (f.pk, p.pk) in entered]}
                    for p in found]


def _page(request, tournament: Tournament, d: DeskPost) -> dict:
    """The desk's page: everything its template draws."""
    board = tournament_selectors.desk_board(tournament)
    flights = board["flights"]
    flight_rows = selectors.flight_rows(board)
    groups, counts = selectors.queue(tournament, board, d.outcome)
    players_side = tournament_selectors.desk_players_side(tournament, request.user, flights, board["entry_counts"])
    counts.update(players_side["counts"])
    # The two long lists are drawn by Jinja2 (`templates/jinja2/desk/`): see the TEMPLATES setting.
    token = get_token(request)
    more_url = reverse("desk-correct", args=[tournament.slug, 0])[:-2]
    rows_template = get_template("desk/rows.html", using="jinja2")
    for group in groups:
        group["html"] = mark_safe(rows_template.render({"rows": group["rows"], "csrf": token, "more_url": more_url}))
    for row in flight_rows:
        if row["flight"].status == "draft":  # a started flight's entries are fetched when opened
            row["entries_html"] = entries.entries_html(request, tournament, row["flight"], row["entries"])
    draft_flights = [f for f in flights if f.status == "draft" and f.takes_entries]
    names = [f.name for f in flights]
    search, found = _found(request, draft_flights, {(e.flight_id, e.player_id) for e in board["entries"]})
    forms = d.forms
    return {
        "nav": "desk",
        "runs_events": True,  # a TD of this event: the menu's desk link needs no query
        "tournament": tournament,
        "flights": flight_rows,
        "flight_form": forms.get("flight") or FlightForm(prefix="flight", flights=names),
        "new_player_form": forms.get("new_player") or NewPlayerForm(prefix="new"),
        "paste_form": forms.get("paste") or PasteForm(prefix="paste"),
        "tables_form": forms.get("tables") or TablesForm.for_tournament(tournament, names),
        "paste": d.outcome.paste,
        "search": search,
        "found": found,
        "groups": groups,
        "counts": counts,
        "players_side": players_side,
        "open_pairings": board["open_pairings"],
        "decided": board["decided"],
        "recent": [{"p": p, "words": result_words(p)} for p in board["decided"][:RECENT_UNDO]],
        "pending_reports": [r for r in board["reports"] if r.status == ReportStatus.PENDING],
        "disputes": selectors.disputes(board),
        "draft_flights": draft_flights,
        "focus": d.outcome.focus,
        "fragment": is_htmx(request),
        "refused": d.outcome.refused,
        "withdrawal": d.outcome.withdrawal,
        "ratings": board["ratings"],
    }
