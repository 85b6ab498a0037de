"""The TD's desk: events, flights, entries, tables, the match queue, results, disputes, slips,
the projector and corrections.

Reads through selectors; writes only through `tournaments.services` and `games.services`.
Every desk action is one POST to the event's desk. Without script it answers with a redirect back
to the place on the page it came from; with htmx (`HX-Request`) it answers with the desk's main
part alone, which the page morphs in place, so the TD keeps his scroll, his focus, his search and
what he typed. A Save of a score answers with only what it changed, swapped out of band
(`_save_answer`), unless it changed the queue's shape. A refusal answers 400 (409 for a lost
race) with the reason beside the fields.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db.models import Count, Max, Q
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from config.errors import ConflictError
from config.fields import ID, VERSION, whole_number
from games import selectors as game_selectors
from games import services as game_services
from games.engine.errors import ScoringError
from games.models import Player
from ratings.views import runs_context

from .. import draws, qr, selectors, services, slipcodes
from ..forms import (
    EventForm,
    FlightForm,
    FlightSettingsForm,
    NewPlayerForm,
    PasteForm,
    PlayerSearchForm,
    ScoreForm,
    TablesForm,
)
from ..models import (
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
    Tournament,
    public_name,
)
from games.permissions import is_site_admin

from ..permissions import is_td, may_create_tournament
from .common import REFUSALS, error_text, form_errors, save_key, wants_json
from .match import match_url

# -- the TD's desk -------------------------------------------------------------------------------


def _int(value, what: str = "id") -> int:
    """A whole number from a form, or 400: `abc`, `1.5`, `1e3` and `²` are not ids or versions."""
    try:
        return whole_number(value, field=VERSION if what == "version" else ID)
    except ValidationError:
        raise BadRequest(f"Not a valid {what}: {str(value)[:20]!r}.") from None


@login_required(login_url="login")
def desk(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(by=request.user, **data)
        except (ValidationError, ScoringError) as error:
            form_errors(form, error)
        except PermissionDenied as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{tournament.name} created. Add its flights next.")
            return redirect("desk-event", slug=tournament.slug)
    events = selectors.tournament_list().annotate(
        disputes=Count("flights__pairings__reports", filter=Q(flights__pairings__reports__status=ReportStatus.DISPUTED),
                       distinct=True))
    if not is_site_admin(request.user):
        events = events.filter(organisers=request.user)
    return render(request, "tournaments/desk.html", {
        "nav": "desk", "events": list(events), "form": form,
        "may_create": may_create_tournament(request.user),
    }, status=400 if form.errors else 200)


def _td_event(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_td(request.user, tournament):
        raise PermissionDenied(f"Only a TD of {tournament.name} may use its desk.")
    return tournament


class _Outcome:
    """What a desk action leaves for the page: errors by pairing, the element to focus."""

    def __init__(self):
        self.row_errors: dict[int, dict] = {}
        self.focus = ""
        self.refused = False
        self.status = 200
        self.paste = None
        self.saved: Pairing | None = None  # the pairing a Save recorded


def _desk_action(request, tournament: Tournament, forms_: dict, outcome: _Outcome):
    """Carry out one POSTed desk action through the services. Returns a redirect or None."""
    # A row's form carries its own action; a button of the row that does something else sends its
    # own `action` after it, and the last one counts.
    action = request.POST.getlist("action")[-1] if request.POST.getlist("action") else ""
    user = request.user
    post = request.POST

    def flight():
        return get_object_or_404(Flight.objects.select_related("tournament"), pk=_int(post.get("flight")),
                                 tournament=tournament)

    def entry():
        return get_object_or_404(Entry.objects.select_related("player", "flight__tournament"),
                                 pk=_int(post.get("entry")), tournament=tournament)

    def pairing():
        return get_object_or_404(Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"),
                                 pk=_int(post.get("pairing")), flight__tournament=tournament)

    def report():
        return get_object_or_404(ResultReport.objects.select_related("pairing__flight__tournament"),
                                 pk=_int(post.get("report")), pairing__flight__tournament=tournament)

    def version(name="version"):
        return _int(post.get(name), "version")

    try:
        if action == "flight":
            form = forms_["flight"] = FlightForm(post, prefix="flight", flights=forms_.get("flight_names", []))
            if not form.is_valid():
                return None
            try:
                made = services.flight_create(tournament=tournament, by=user, **form.service_data)
            except (ValidationError, ScoringError) as error:
                form_errors(form, error)
                return None
            messages.success(request, f"Flight {made.name} added.")
            forms_.pop("flight")
        elif action == "enter":
            player = get_object_or_404(Player, pk=_int(post.get("player")))
            made = services.entry_add(flight=flight(), player=player, by=user)
            messages.success(request, f"{player.name} entered in {made.flight.name}.")
            outcome.focus = "id_q"
        elif action == "new_player":
            form = forms_["new_player"] = NewPlayerForm(post, prefix="new")
            if not form.is_valid():
                return None
            target = flight()
            try:
                player = game_services.player_create(by=user, **form.cleaned_data)
            except ValidationError as error:
                form_errors(form, error)
                return None
            services.entry_add(flight=target, player=player, by=user)
            messages.success(request, f"{player.name} added as a new player and entered in {target.name}.")
            forms_.pop("new_player")
        elif action == "paste":
            target = flight()
            form = forms_["paste"] = PasteForm(post, prefix="paste")
            if not form.is_valid():
                return None
            choices = {}
            for key, value in post.items():
                if key.startswith("use-") and value:
                    choices[_int(key[4:], "line")] = "new" if value == "new" else _int(value, "player")
            text = form.cleaned_data["text"]
            try:
                lines = services.entries_paste(flight=target, text=text, choices=choices, by=user)
            except ValidationError:
                outcome.paste = {"flight": target, "lines": services.entries_paste_plan(
                    flight=target, text=text, choices=choices), "text": text}
                outcome.refused = True
                outcome.status = 400
                return None
            new = sum(1 for line in lines if not line.entered)
            messages.success(request, f"{new} player{'s' if new != 1 else ''} entered in {target.name}"
                                      + (f" ({len(lines) - new} already were)." if new != len(lines) else "."))
            forms_.pop("paste")
        elif action == "check_in":
            made = services.entry_check_in(entry=entry(), by=user)
            messages.success(request, f"{made.player.name} checked in.")
        elif action == "check_in_all":
            target = flight()
            waiting = list(Entry.objects.filter(flight=target, status=EntryStatus.REGISTERED).select_related(
                "player", "flight__tournament"))
            for item in waiting:
                services.entry_check_in(entry=item, by=user)
            messages.success(request, f"{len(waiting)} player{'s' if len(waiting) != 1 else ''} checked in.")
        elif action == "withdraw":
            made = services.entry_withdraw(entry=entry(), by=user, reason="withdrawn at the desk")
            messages.success(request, f"{made.player.name} withdrawn.")
        elif action == "withdraw_undo":
            made = services.entry_withdraw_undo(entry=entry(), by=user, reason="undone at the desk")
            messages.success(request, f"{made.player.name} is in again: the withdrawal and its walkovers are undone.")
        elif action == "settings":
            target = flight()
            form = FlightSettingsForm(post, prefix=f"f{target.pk}")
            if not form.is_valid():
                messages.error(request, f"{target.name}: " + " ".join(
                    f"{form.fields[name].label}: {' '.join(texts)}" if name in form.fields else " ".join(texts)
                    for name, texts in form.errors.items()))
                outcome.refused = True
                return None
            data = {name: value for name, value in form.cleaned_data.items() if form.add_prefix(name) in post}
            services.flight_update(flight=target, by=user, expected_version=data.pop("version", None), **data)
            messages.success(request, f"{target.name}: settings saved.")
        elif action == "start_flight":
            target = flight()
            services.flight_start(flight=target, by=user, expected_version=version())
            messages.success(request, f"{target.name} started: the first round is drawn.")
        elif action == "start_round":
            target = flight()
            made = services.round_start(flight=target, by=user, expected_version=version())
            messages.success(request, f"{target.name} round {made.number} started.")
        elif action == "tables":
            form = forms_["tables"] = TablesForm(post, prefix="tables", flights=forms_.get("flight_names", []))
            if not form.is_valid():
                return None
            try:
                services.tables_set(tournament=tournament, by=user, count=form.cleaned_data["count"],
                                    reserved=form.cleaned_data["reserved"])
            except ValidationError as error:
                form_errors(form, error)
                return None
            messages.success(request, f"{form.cleaned_data['count']} tables.")
            forms_.pop("tables")
        elif action == "table":
            target = pairing()
            made = services.pairing_table_set(pairing=target, table=post.get(f"p{target.pk}-table", ""), by=user,
                                              expected_version=version(f"p{target.pk}-version"))
            messages.success(request, f"{target.slot}: {'table ' + made.table if made.table else 'no table'}.")
        elif action == "call_all":
            open_ = selectors.pairing_list().filter(flight__tournament=tournament, status=PairingStatus.PENDING,
                                                    player_b__isnull=False, table="")
            called = services.tables_call(tournament=tournament, pairings=list(open_), by=user)
            messages.success(request, f"{called} match{'es' if called != 1 else ''} called to a table.")
        elif action == "sheet":
            target = pairing()
            if target.match_id is None:
                target = services.pairing_start(pairing=target, by=user)
            if request.headers.get("HX-Request") == "true":  # leave the desk for the score sheet
                return HttpResponse(status=204, headers={"HX-Redirect": reverse("match-enter", args=[target.match_id])})
            return redirect("match-enter", pk=target.match_id)
        elif action == "score":
            target = pairing()
            form = ScoreForm(post, prefix=f"p{target.pk}")
            kept = {"score_a": post.get(f"p{target.pk}-score_a", ""), "score_b": post.get(f"p{target.pk}-score_b", "")}
            if not form.is_valid():
                if form.has_error("version"):
                    raise BadRequest("Not a valid version.")
                field = "score_a" if form.has_error("score_a") else "score_b"
                outcome.row_errors[target.pk] = {**kept, "field": field,
                                                 "text": "Give both players' points, as whole numbers."}
                outcome.focus = f"p{target.pk}-{field[-1]}"
                outcome.refused = True
                outcome.status = 400
                return None
            data = form.cleaned_data
            try:
                key = save_key(request)
                if key is None:
                    made = services.result_report(pairing=target, by=user, score_a=data["score_a"],
                                                  score_b=data["score_b"], note=data["note"],
                                                  expected_version=data["version"])
                    scores = (made.score_a, made.score_b)
                else:  # typed with a key: judged on the result the match holds, once per key
                    answer = services.result_report_once(key=key, pairing=target, by=user, score_a=data["score_a"],
                                                         score_b=data["score_b"], note=data["note"])
                    if not answer.stored:
                        field = "score_b" if "score_b" in answer.body.get("fields", {}) else "score_a"
                        outcome.row_errors[target.pk] = {**kept, "field": field, "text": answer.body["message"]}
                        outcome.focus = f"p{target.pk}-{field[-1]}"
                        outcome.refused = True
                        outcome.status = answer.status
                        return None
                    scores = (answer.body["score_a"], answer.body["score_b"])
            except REFUSALS as error:
                field = "score_b" if isinstance(error, ValidationError) and "score_b" in getattr(
                    error, "message_dict", {}) else "score_a"
                outcome.row_errors[target.pk] = {**kept, "field": field, "text": error_text(error)}
                outcome.focus = f"p{target.pk}-{field[-1]}"
                outcome.refused = True
                outcome.status = 409 if isinstance(error, ConflictError) else 400
                return None
            named = len(forms_.get("flight_names", [])) > 1
            messages.success(request, f"{match_label(target, flight_named=named)}: {target.player_a.name} "
                                      f"{scores[0]}–{scores[1]} {target.player_b.name} recorded.")
            outcome.focus = f"next-after-{target.pk}"
            outcome.saved = target
        elif action == "walkover":
            target = pairing()
            winner_id = _int(post.get("winner"), "player")
            if winner_id not in (target.player_a_id, target.player_b_id):
                raise BadRequest("The winner of a walkover plays the match.")
            winner = target.player_a if winner_id == target.player_a_id else target.player_b
            loser = target.player_b if winner_id == target.player_a_id else target.player_a
            reason = post.get(f"p{target.pk}-reason", "").strip() or f"{loser.name} did not show up"
            services.pairing_walkover(pairing=target, winner=winner, reason=reason, by=user,
                                      expected_version=version(f"p{target.pk}-version"))
            messages.success(request, f"{target.slot}: walkover to {winner.name} ({reason}).")
        elif action == "confirm":
            target = report()
            services.result_confirm(report=target, by=user)
            messages.success(request, f"{target.pairing.slot}: result confirmed.")
        elif action == "rule":
            target = pairing()
            if post.get("from_report"):
                source = get_object_or_404(ResultReport, pk=_int(post.get("from_report")), pairing=target)
                score_a, score_b = source.score_a, source.score_b
            else:
                form = ScoreForm(post, prefix=f"rule{target.pk}")
                if not form.is_valid():
                    if form.has_error("version"):
                        raise BadRequest("Not a valid version.")
                    messages.error(request, f"{target.slot}: give both players' points.")
                    outcome.refused = True
                    outcome.status = 400
                    return None
                score_a, score_b = form.cleaned_data["score_a"], form.cleaned_data["score_b"]
            services.result_override(pairing=target, by=user, score_a=score_a, score_b=score_b,
                                     note="ruled at the desk", expected_version=version(f"rule{target.pk}-version"))
            messages.success(request, f"{target.slot} ruled: {target.player_a.name} {score_a}–{score_b} "
                                      f"{target.player_b.name}.")
        elif action == "undo":
            target = pairing()
            was = _result_words(target)
            try:
                services.pairing_undo(pairing=target, by=user, reason="undone at the desk",
                                      expected_version=version(f"undo{target.pk}-version"))
            except services.DownstreamStarted as error:
                messages.error(request, f"Matches drawn from {target.flight.name} {target.slot} have started "
                                        f"({', '.join(error.started)}): undo it on its correction page, which shows"
                                        f" what goes with it.")
                outcome.refused = True
                outcome.status = 400
                return None
            messages.success(request, f"Undone: {was}. The match is open again.")
        else:
            raise BadRequest("Unknown desk action.")
    except REFUSALS as error:
        messages.error(request, error_text(error))
        outcome.refused = True
        outcome.status = 409 if isinstance(error, ConflictError) else 400
        return None
    return None


def _result_words(p: Pairing) -> str:
    """ "Main R1-5: Sato 5–3 Holt", or "Main R1-5: walkover to Holt (did not show up)"."""
    where = f"{p.flight.name} {p.slot}" + (f", table {p.table}" if p.table else "")
    if p.status == PairingStatus.WALKOVER:
        winner = p.player_a if p.winner_id == p.player_a_id else p.player_b
        reason = f" ({p.walkover_reason})" if p.walkover_reason else ""
        return f"{where}: walkover to {winner.name}{reason}"
    return f"{where}: {p.player_a.name} {p.score_a}–{p.score_b} {p.player_b.name}"


RECENT_UNDO = 5
"""How many of the latest results the desk offers to undo in one click."""


def _flight_controls(f: Flight, tally: dict, rounds: list, open_count: int) -> dict:
    """Which draw buttons a flight offers, each disabled one with the reason why."""
    checked_in = tally.get(EntryStatus.CHECKED_IN, 0)
    entries = sum(tally.values())
    controls = {"start": None, "next_round": None}
    if f.status == "draft" and f.takes_entries:
        why = "" if checked_in >= 2 else (
            "Check in at least two players first." if entries else "Take entries first.")
        controls["start"] = {"why": why}
    elif f.status == "running" and f.format in (FlightFormat.SWISS, FlightFormat.ROUND_ROBIN, FlightFormat.SWISS_KNOCKOUT):
        drawn = len(rounds)
        why = ""
        if open_count:
            why = _still_to_play(open_count, drawn)
        elif f.auto_pair and f.format != FlightFormat.SWISS_KNOCKOUT:
            why = "The next round pairs itself when the last match ends."
        elif f.format == FlightFormat.SWISS and f.swiss_rounds and drawn >= f.swiss_rounds:
            why = f"All {f.swiss_rounds} rounds are drawn."
        controls["next_round"] = {"why": why}
    return controls


def match_label(pairing: Pairing, *, flight_named: bool) -> str:
    """How the desk names a match to the TD: "R1-5, table 5" ("Main R1-5, table 5" when the event
    has more than one flight)."""
    label = f"{pairing.flight.name} {pairing.slot}" if flight_named else pairing.slot
    return f"{label}, table {pairing.table}" if pairing.table else label


def _queue(tournament: Tournament, board: dict, outcome: _Outcome) -> tuple[list[dict], dict]:
    """The match queue: open matches (and the latest results) grouped by flight and round."""
    reports_by_pairing = {r.pairing_id: r for r in board["reports"]}
    offers = services.table_offers(tournament, board["open_pairings"])
    counts = defaultdict(int)
    groups: dict[tuple, dict] = {}
    first_open = None
    flight_named = len(board["flights"]) > 1
    for p in board["open_pairings"] + board["decided"]:
        report = reports_by_pairing.get(p.pk)
        state = _row_state(p, report)
        counts[state] += 1
        key = (p.flight.position, p.flight_id, p.round_number)
        group = groups.setdefault(key, {"flight": p.flight, "round": p.round_number, "length": p.round_length,
                                        "rows": [], "open": 0})
        entry_allowed = _score_may_be_typed(p, state)
        row = {"p": p, "state": state, "report": report, "offer": offers.get(p.pk, ""),
               "entry": entry_allowed, "error": outcome.row_errors.get(p.pk),
               "label": match_label(p, flight_named=flight_named)}
        if state != "finished":
            group["open"] += 1
            if first_open is None and entry_allowed and not row["error"]:
                first_open = row
        group["rows"].append(row)
    if outcome.focus == "next-open" and first_open is not None:
        outcome.focus = f"p{first_open['p'].pk}-a"
    # Rounds with matches to finish first; finished rounds after them, folded. Within a round the
    # matches keep their order as they finish, so no row moves under the TD's cursor.
    ordered = [groups[k] for k in sorted(groups, key=lambda k: (groups[k]["open"] == 0, k))]
    for group in ordered:
        group["rows"].sort(key=lambda r: r["p"].pk)
    if outcome.focus.startswith("next-after-"):
        outcome.focus = _next_below(ordered, int(outcome.focus.removeprefix("next-after-")))
    return ordered, dict(counts)


def _next_below(groups: list[dict], saved: int) -> str:
    """After a Save the cursor goes to the next open row below the one saved (never back up to
    the first open match); after the last one, to the queue's search."""
    found = False
    for group in groups:
        mine = any(r["p"].pk == saved for r in group["rows"])
        for r in group["rows"]:
            if not r["entry"] or r["error"]:
                continue
            if found or (mine and r["p"].pk > saved):
                return f"p{r['p'].pk}-a"
        found = found or mine
    return "qf-find"


QUEUE_STATES = ("call", "table", "playing", "reported", "disputed")
"""The open states the desk counts, in the order of its counts."""


def _save_answer(request, tournament: Tournament, saved: Pairing, *, newest: int, flight_named: bool):
    """A Save's answer with htmx: only what it changed, as out-of-band swaps (the confirmation
    naming the match, the room's counts, the round's progress, the latest results to undo) and
    the rows to put in place (the saved match and those the bracket's advance made); desk.js puts
    each row where it belongs and keeps what the TD is typing elsewhere. The players' side is not
    read. None when the Save changed the queue's shape (it finished a round, or a round gets its
    first open match): the whole desk is redrawn then."""
    changes = selectors.desk_save_changes(tournament, saved=saved.pk, newest=newest, recent=RECENT_UNDO)
    open_by_round = changes["open_by_round"]
    if saved.round_id not in open_by_round:
        return None
    arrived = defaultdict(int)
    for p in changes["rows"]:
        if p.pk != saved.pk and p.status in (PairingStatus.PENDING, PairingStatus.PLAYING):
            arrived[p.round_id] += 1
    if any(sum(open_by_round.get(round_id, {}).values()) <= n for round_id, n in arrived.items()):
        return None
    counts = {state: sum(line[state] for line in open_by_round.values()) for state in QUEUE_STATES}
    rows = []
    for p in changes["rows"]:
        state = _row_state(p, None)
        rows.append({"p": p, "state": state, "report": None, "error": None, "offer": "",
                     "label": match_label(p, flight_named=flight_named), "entry": _score_may_be_typed(p, state)})
    if tournament.tables and (any(r["state"] == "call" for r in rows) or any(
            p.table and p.pk == saved.pk for p in changes["rows"])):
        # A Save frees a table, a new match asks for one: every match waiting for a table comes
        # back with the one a full redraw would offer it, so no two rows offer the same table.
        open_rows = selectors.desk_open_rows(tournament)
        offers = services.table_offers(tournament, open_rows)
        sent = {r["p"].pk for r in rows}
        rows += [{"p": p, "state": "call", "report": None, "error": None, "entry": True,
                  "label": match_label(p, flight_named=flight_named)}
                 for p in open_rows if p.pk not in sent and p.status == PairingStatus.PENDING and not p.table
                 and not p.has_report]
        for r in rows:
            if r["state"] == "call":
                r["offer"] = offers.get(r["p"].pk, "")
    groups = []
    for round_id, line in open_by_round.items():
        mine = [r for r in rows if r["p"].round_id == round_id]
        if mine:
            groups.append({"key": f"{mine[0]['p'].flight_id}-{mine[0]['p'].round_number}",
                           "length": mine[0]["p"].round_length, "open": sum(line.values())})
    whys = []
    flight = saved.flight
    if flight.format in (FlightFormat.SWISS, FlightFormat.ROUND_ROBIN, FlightFormat.SWISS_KNOCKOUT):
        still = sum(sum(line.values()) for round_id, line in open_by_round.items()
                    if changes["flight_of_round"][round_id] == flight.pk)
        whys.append({"id": f"why-round-{flight.pk}", "text": _still_to_play(still, saved.round.number)})
    rows_html = mark_safe(get_template("desk/rows.html", using="jinja2").render({
        "rows": rows, "csrf": get_token(request),
        "more_url": reverse("desk-correct", args=[tournament.slug, 0])[:-2]}))
    response = render(request, "tournaments/_desk_saved.html", {
        "tournament": tournament, "counts": counts, "groups": groups, "whys": whys, "rows_html": rows_html,
        "recent": [{"p": p, "words": _result_words(p)} for p in changes["latest"]],
    })
    response["HX-Reswap"] = "none"  # the desk's main part stays: only the parts swapped out of band change
    return response


def _row_state(p: Pairing, report) -> str:
    """A queue row's state: finished, disputed, reported, playing, at a table or to call."""
    if p.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
        return "finished"
    if report is not None:
        return "disputed" if report.status == ReportStatus.DISPUTED else "reported"
    if p.status == PairingStatus.PLAYING:
        return "playing"
    return "table" if p.table else "call"


def _score_may_be_typed(p: Pairing, state: str) -> bool:
    """A final score may be typed into the row of a match not begun, or begun with no game yet."""
    return state in ("call", "table") or (state == "playing" and not (
        p.match_id and (p.match_score_a or p.match_score_b)))


def _still_to_play(count: int, round_number: int) -> str:
    return f"{count} match{'es' if count != 1 else ''} of round {round_number} still to play."


def desk_event(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    if request.method == "POST" and wants_json(request):
        return _desk_save_json(request, tournament)
    htmx = request.headers.get("HX-Request") == "true"
    forms_: dict = {}
    outcome = _Outcome()
    if request.method == "POST":
        # The flights' names (for the forms) and the newest pairing before the action (what a
        # Save's answer sends is what changed after it), in one read.
        flights_read = list(Flight.objects.filter(tournament=tournament).annotate(last=Max("pairings__id"))
                            .values_list("name", "last"))
        forms_["flight_names"] = [name for name, _ in flights_read]
        newest = max((last or 0 for _, last in flights_read), default=0)
        response = _desk_action(request, tournament, forms_, outcome)
        if response is not None:
            return response
        if htmx and outcome.saved is not None:
            answer = _save_answer(request, tournament, outcome.saved, newest=newest,
                                  flight_named=len(forms_["flight_names"]) > 1)
            if answer is not None:
                return answer
        bad_form = any(f.errors for k, f in forms_.items() if k != "flight_names")
        if not htmx and not bad_form and not outcome.row_errors and outcome.paste is None:
            anchor = request.POST.get("anchor", "") or (
                f"pairing-{request.POST['pairing']}" if request.POST.get("pairing", "").isdigit() else "")
            return redirect(f"{reverse('desk-event', args=[tournament.slug])}{_keep_query(request)}#{anchor}")
        if bad_form:
            outcome.status = 400
        tournament.refresh_from_db()
    params = request.POST if request.method == "POST" else request.GET
    search = PlayerSearchForm({"q": params.get("q", "")})
    found = []
    if search.is_valid() and search.cleaned_data["q"]:
        found = list(game_selectors.player_list(search=search.cleaned_data["q"])[:15])
    board = selectors.desk_board(tournament)
    flights, open_pairings = board["flights"], board["open_pairings"]
    entries = defaultdict(list)
    for item in board["entries"]:
        item.rating = board["ratings"].get(item.player_id)
        entries[item.flight_id].append(item)
    entered = {(e.flight_id, e.player_id) for e in board["entries"]}
    rounds = defaultdict(list)
    for rnd in board["rounds"]:
        rounds[rnd.flight_id].append(rnd)
    open_by_flight = defaultdict(int)
    for p in open_pairings:
        open_by_flight[p.flight_id] += 1
    flight_rows = []
    for f in flights:
        mine = entries.get(f.pk, [])
        tally = board["entry_counts"].get(f.pk, {})
        flight_rows.append({
            "flight": f,
            "feeders": draws.feeder_rules(f, flights),
            "entries": mine,
            "entry_count": sum(tally.values()),
            "registered": tally.get(EntryStatus.REGISTERED, 0),
            "checked_in": tally.get(EntryStatus.CHECKED_IN, 0),
            "rounds": rounds.get(f.pk, []),
            "open": open_by_flight[f.pk],
            "controls": _flight_controls(f, tally, rounds.get(f.pk, []), open_by_flight[f.pk]),
            "settings": FlightSettingsForm.for_flight(f) if f.status == "draft" and f.takes_entries else None,
        })
    groups, counts = _queue(tournament, board, outcome)
    players_side = selectors.desk_players_side(tournament, request.user, flights, board["entry_counts"])
    counts.update(players_side["counts"])
    # The two long lists are drawn by Jinja2 (`templates/jinja2/desk/`): see the TEMPLATES setting.
    token = get_token(request)
    more_url = reverse("desk-correct", args=[tournament.slug, 0])[:-2]
    rows_template = get_template("desk/rows.html", using="jinja2")
    for group in groups:
        group["html"] = mark_safe(rows_template.render({"rows": group["rows"], "csrf": token,
                                                        "more_url": more_url}))
    for row in flight_rows:
        if row["flight"].status == "draft":  # a started flight's entries are fetched when opened
            row["entries_html"] = _entries_html(request, tournament, row["flight"], row["entries"])
    draft_flights = [f for f in flights if f.status == "draft" and f.takes_entries]
    names = [f.name for f in flights]
    disputes = [r for r in board["reports"] if r.status == ReportStatus.DISPUTED]
    for r in disputes:
        r.versions = board["versions"].get(r.pairing_id, [])
        r.others = [v for v in r.versions if v.pk != r.pk and (v.score_a, v.score_b) != (r.score_a, r.score_b)]
        reporter = r.submitted_for
        r.reporter_name = reporter.name if reporter else f"the TD ({public_name(r.submitted_by)})"
        disputer = r.pairing.player_b if reporter and reporter.pk == r.pairing.player_a_id else r.pairing.player_a
        r.disputer_name = disputer.name if reporter else (public_name(r.disputed_by) if r.disputed_by else "")
    context = {
        "nav": "desk",
        "runs_events": True,  # a TD of this event: the menu's desk link needs no query
        "tournament": tournament,
        "flights": flight_rows,
        "flight_form": forms_.get("flight") or FlightForm(prefix="flight", flights=names),
        "new_player_form": forms_.get("new_player") or NewPlayerForm(prefix="new"),
        "paste_form": forms_.get("paste") or PasteForm(prefix="paste"),
        "tables_form": forms_.get("tables") or TablesForm.for_tournament(tournament, names),
        "paste": outcome.paste,
        "search": search,
        "found": [{"player": p, "entered_in": [f.pk for f in draft_flights if (f.pk, p.pk) in entered]}
                  for p in found],
        "groups": groups,
        "counts": counts,
        "players_side": players_side,
        "open_pairings": open_pairings,
        "decided": board["decided"],
        "recent": [{"p": p, "words": _result_words(p)} for p in board["decided"][:RECENT_UNDO]],
        "pending_reports": [r for r in board["reports"] if r.status == ReportStatus.PENDING],
        "disputes": disputes,
        "draft_flights": draft_flights,
        "focus": outcome.focus,
        "fragment": htmx,
        "refused": outcome.refused,
        "ratings": board["ratings"],
    }
    if htmx:
        return render(request, "tournaments/_desk_main.html", context, status=outcome.status)
    context.update(runs_context())
    return render(request, "tournaments/desk_event.html", context, status=outcome.status)


def _desk_save_json(request, tournament: Tournament) -> JsonResponse:
    """A Save sent by the desk's offline queue (static/offline-queue.js): JSON in its answer, the
    key required. The first answer of a key is its answer for good (`services.save_once`); a
    result that meets another one answers 409 with both scores."""
    post = request.POST
    if post.get("action") != "score":
        return JsonResponse({"error": "invalid", "message": _(
            "Only a result's Save is sent this way: everything else needs the desk itself.")}, status=400)
    target = get_object_or_404(Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b"),
                               pk=_int(post.get("pairing")), flight__tournament=tournament)
    try:
        key = save_key(request)
    except ValidationError as error:
        return _json_answer(services.idempotency.refusal_answer(error))
    if key is None:
        return JsonResponse({"error": "invalid", "message": _("A Save sent this way carries an Idempotency-Key.")},
                            status=400)
    form = ScoreForm(post, prefix=f"p{target.pk}")
    form.fields["version"].required = False  # a kept Save is judged on the result, not on the row's version
    if not form.is_valid():
        fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
        return JsonResponse({"error": "invalid", "fields": fields, "message": _(
            "Give both players' points, as whole numbers.")}, status=400)
    data = form.cleaned_data
    return _json_answer(services.result_report_once(key=key, pairing=target, by=request.user,
                                                    score_a=data["score_a"], score_b=data["score_b"],
                                                    note=data["note"]))


def _json_answer(answer) -> JsonResponse:
    response = JsonResponse(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _keep_query(request) -> str:
    q = request.POST.get("q", "").strip()
    return f"?q={q}" if q else ""


def desk_slips(request, slug: str):
    """Match slips for the open matches, four to an A4 page. Each player's half carries the QR code
    of the match's public page and his one-time code for reporting there without a login.

    Opening the slips issues codes to the players who have none yet (`services.slip_codes_issue`);
    a player whose code was printed before keeps it, and his half says so. *New slips* (a POST)
    revokes the codes of these matches and prints new ones."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    pairings = selectors.pairing_list().filter(
        flight__tournament=tournament, status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
    ).exclude(player_b__isnull=True)
    round_id = request.POST.get("round") if request.method == "POST" else request.GET.get("round")
    if round_id:
        pairings = pairings.filter(round_id=_int(round_id, "round"))
    pairings = list(pairings)
    renew = request.method == "POST" and request.POST.get("action") == "renew"
    issued = services.slip_codes_issue(tournament=tournament, pairing_ids=[p.pk for p in pairings],
                                       by=request.user, renew=renew)
    urls = {p.pk: match_url(request, p) for p in pairings}
    # Each QR code is drawn once per address and kept in the cache (nothing typed goes into it).
    codes = qr.svgs(list(urls.values()))
    slips = []
    for p in pairings:
        length = p.round.length or 1
        url = urls[p.pk]
        halves = [{"player": player, "code": slipcodes.printed(issued[(p.pk, player.pk)])
                   if (p.pk, player.pk) in issued else None} for player in (p.player_a, p.player_b)]
        slips.append({"p": p, "rows": range(1, min(2 * length - 1, 4 + length) + 1), "url": url,
                      "short": url.split("://", 1)[-1], "qr": mark_safe(codes[url]), "halves": halves})
    return render(request, "tournaments/slips.html", {
        "tournament": tournament, "slips": slips, "nav": "desk", "runs_events": True, "round": round_id or "",
        "renewed": renew, "kept": sum(1 for s in slips for h in s["halves"] if h["code"] is None),
    })


def _entries_html(request, tournament: Tournament, flight: Flight, entries: list[Entry]) -> str:
    return mark_safe(get_template("desk/entries.html", using="jinja2").render({
        "entries": entries, "csrf": get_token(request), "flight_id": flight.pk, "draft": flight.status == "draft",
        "desk_url": reverse("desk-event", args=[tournament.slug])}))


def desk_entries(request, slug: str, pk: int):
    """A flight's entries with their ratings, and the withdraw form (fetched when opened)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    flight = get_object_or_404(Flight.objects.defer("first_round"), pk=pk, tournament=tournament)
    entries = list(Entry.objects.filter(flight=flight).select_related("player")
                   .only("flight_id", "player_id", "status", "seed", "player__name", "player__country", "player__club")
                   .order_by("seed", "id"))
    ratings = selectors.entry_ratings([e.player_id for e in entries])
    for e in entries:
        e.rating = ratings.get(e.player_id)
    html = _entries_html(request, tournament, flight, entries)
    if request.headers.get("HX-Request") == "true":
        return render(request, "tournaments/_desk_entries_table.html", {"entries_html": html})
    return render(request, "tournaments/desk_entries.html", {"tournament": tournament, "flight": flight,
                                                             "entries_html": html, "nav": "desk",
                                                             "runs_events": True})


def desk_more(request, slug: str, pk: int):
    """A match's less frequent actions (move its table, a walkover or no-show), fetched when the
    TD opens *More* on its row so the queue stays light."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    pairing = get_object_or_404(Pairing.objects.select_related("flight", "player_a", "player_b"), pk=pk,
                                flight__tournament=tournament)
    template = "tournaments/_desk_more.html" if request.headers.get("HX-Request") == "true" else "tournaments/desk_more.html"
    return render(request, template, {"tournament": tournament, "pairing": pairing, "nav": "desk",
                                     "runs_events": True})


def desk_projector(request, slug: str):
    """For a screen in the playing hall: the current round's pairings with their tables, then the
    standings, in large type, cycling and refreshing itself."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    context = {"tournament": tournament, "runs_events": True, **selectors.projector_board(tournament)}
    if request.headers.get("HX-Request") == "true":
        return render(request, "tournaments/_projector_panels.html", context)
    return render(request, "tournaments/desk_projector.html", context)


def desk_correct(request, slug: str, pk: int):
    """A TD rules on a result: a dispute or a correction, with its downstream effect shown first."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url=reverse("login"))
    tournament = _td_event(request, slug)
    pairing = get_object_or_404(
        Pairing.objects.select_related("flight__tournament", "round", "player_a", "player_b", "winner", "match"),
        pk=pk, flight__tournament=tournament,
    )
    undo = request.POST.get("undo") if request.method == "POST" else None
    if undo is not None and pairing.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
        return _desk_correct_undo(request, tournament, pairing, confirmed=undo == "confirmed")
    initial = {"version": pairing.version, "score_a": pairing.score_a, "score_b": pairing.score_b}
    # A result kept offline that met another one: the TD chose to send his own as a correction.
    typed = {name: request.GET.get(name, "") for name in ("score_a", "score_b")}
    if all(value.isascii() and value.isdigit() and len(value) <= 3 for value in typed.values()):
        initial.update({name: int(value) for name, value in typed.items()})
    form = ScoreForm(request.POST or None, initial=initial)
    preview = None
    if request.method == "POST" and not form.is_valid() and form.has_error("version"):
        raise BadRequest("Not a valid version.")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["score_a"] == data["score_b"]:
            form.add_error("score_b", "A match has a winner: the scores cannot be equal.")
        else:
            winner_id = pairing.player_a_id if data["score_a"] > data["score_b"] else pairing.player_b_id
            if request.POST.get("previewed") == f"{data['score_a']}-{data['score_b']}":
                try:
                    services.result_override(
                        pairing=pairing, by=request.user, score_a=data["score_a"], score_b=data["score_b"],
                        note=data["note"], apply_downstream=True, expected_version=data["version"],
                    )
                except REFUSALS as error:
                    form.add_error(None, error_text(error))
                else:
                    messages.success(request, f"{pairing.slot} ruled: {pairing.player_a.name} {data['score_a']}–"
                                              f"{data['score_b']} {pairing.player_b.name}.")
                    return redirect("desk-event", slug=tournament.slug)
            if not form.errors:
                try:
                    preview = selectors.correction_preview(pairing=pairing, winner_id=winner_id)
                except REFUSALS as error:
                    form.add_error(None, error_text(error))
    refed = []
    if preview:
        _affected_names(preview["affected"])
        refed = sorted({item["flight"] for item in preview["affected"] if item["flight"] != pairing.flight.name})
    return _desk_correct_page(request, tournament, pairing, form=form, preview=preview, refed=refed)


def _affected_names(affected: list[dict]) -> None:
    ids = {pid for item in affected for pid in (item["players"] + (item["becomes"] or [])) if pid}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    for item in affected:
        item["names"] = [names.get(pid, "bye") if pid else "bye" for pid in item["players"]]
        item["becomes_names"] = [names.get(pid, "to be decided") if pid else "to be decided"
                                 for pid in (item["becomes"] or [])]


def _desk_correct_undo(request, tournament: Tournament, pairing: Pairing, *, confirmed: bool):
    """Undo a result or walkover from its correction page: first what goes with it, then, confirmed, done."""
    words = _result_words(pairing)
    error = ""
    if confirmed:
        try:
            services.pairing_undo(pairing=pairing, by=request.user, reason="undone at the desk", apply_downstream=True,
                 expected_version=_int(request.POST.get("version"), "version"))
        except REFUSALS as refused:
            error = error_text(refused)
        else:
            messages.success(request, f"Undone: {words}. The match is open again.")
            return redirect("desk-event", slug=tournament.slug)
    undo_preview = services.undo_preview(pairing=pairing)
    _affected_names(undo_preview["affected"])
    form = ScoreForm(initial={"version": pairing.version, "score_a": pairing.score_a, "score_b": pairing.score_b})
    return _desk_correct_page(request, tournament, pairing, form=form, undo_preview=undo_preview, undo_error=error,
                              status=400 if error else 200)


def _desk_correct_page(request, tournament, pairing, *, form, preview=None, refed=(), undo_preview=None,
                       undo_error="", status=None):
    reports = list(pairing.reports.select_related("submitted_by", "submitted_for", "winner").order_by("-version"))
    return render(request, "tournaments/desk_correct.html", {
        "undo_preview": undo_preview, "undo_error": undo_error,
        "undoable": pairing.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER),
        "nav": "desk", "runs_events": True, "tournament": tournament, "pairing": pairing, "form": form,
        "preview": preview,
        "reports": reports, "refed": refed,
    }, status=status or (400 if form.errors else 200))
