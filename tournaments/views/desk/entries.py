"""Entries at the desk: a known player entered, a new one added, a pasted list, check-in,
withdrawal and its undo; and a started flight's entries, fetched when the TD opens them."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext_noop

from config.languages import in_site_language

from games import services as game_services
from games.models import Player

from ... import selectors, services
from ...forms import NewPlayerForm, PasteForm
from ...models import Entry, Flight, Tournament
from ..common import form_errors
from .base import DeskPost, is_htmx, posted_int, td_event, td_page


def enter(d: DeskPost):
    player = get_object_or_404(Player, pk=posted_int(d.post.get("player")))
    made = services.entry_add(flight=d.flight(), player=player, by=d.user)
    messages.success(d.request, _("%(player)s entered in %(flight)s.") % {
        "player": player.name, "flight": made.flight.name})
    d.outcome.focus = "id_q"


def new_player(d: DeskPost):
    form = d.forms["new_player"] = NewPlayerForm(d.post, prefix="new")
    if not form.is_valid():
        return
    target = d.flight()
    try:
        player = game_services.player_create(by=d.user, **form.cleaned_data)
    except ValidationError as error:
        form_errors(form, error)
        return
    services.entry_add(flight=target, player=player, by=d.user)
    messages.success(d.request, _("%(player)s added as a new player and entered in %(flight)s.") % {
        "player": player.name, "flight": target.name})
    d.forms.pop("new_player")


def paste(d: DeskPost):
    target = d.flight()
    form = d.forms["paste"] = PasteForm(d.post, prefix="paste")
    if not form.is_valid():
        return
    choices = {}
    for key, value in d.post.items():
        if key.startswith("use-") and value:
            choices[posted_int(key[4:], "line")] = "new" if value == "new" else posted_int(value, "player")
    text = form.cleaned_data["text"]
    try:
        lines = services.entries_paste(flight=target, text=text, choices=choices, by=d.user)
    except ValidationError:
        d.outcome.paste = {"flight": target, "text": text,
                           "lines": services.entries_paste_plan(flight=target, text=text, choices=choices)}
        d.outcome.refuse()
        return
    new = sum(1 for line in lines if not line.entered)
    words = {"count": new, "flight": target.name, "already": len(lines) - new}
    if new == len(lines):
        said = ngettext("%(count)d player entered in %(flight)s.", "%(count)d players entered in %(flight)s.", new)
    else:
        said = ngettext("%(count)d player entered in %(flight)s (%(already)d already were).",
                        "%(count)d players entered in %(flight)s (%(already)d already were).", new)
    messages.success(d.request, said % words)
    d.forms.pop("paste")


def check_in(d: DeskPost):
    made = services.entry_check_in(entry=d.entry(), by=d.user)
    messages.success(d.request, _("%(player)s checked in.") % {"player": made.player.name})


def check_in_all(d: DeskPost):
    target = d.flight()
    waiting = services.entries_check_in_all(flight=target, by=d.user)
    messages.success(d.request, ngettext("%(count)d player checked in.", "%(count)d players checked in.",
                                         len(waiting)) % {"count": len(waiting)})


def withdraw(d: DeskPost):
    made = services.entry_withdraw(entry=d.entry(), by=d.user, reason=in_site_language(gettext_noop("withdrawn at the desk")))
    messages.success(d.request, _("%(player)s withdrawn.") % {"player": made.player.name})


def withdraw_undo(d: DeskPost):
    made = services.entry_withdraw_undo(entry=d.entry(), by=d.user, reason=in_site_language(gettext_noop("undone at the desk")))
    messages.success(d.request, _("%(player)s is in again: the withdrawal and its walkovers are undone.") % {
        "player": made.player.name})


ACTIONS = {"enter": enter, "new_player": new_player, "paste": paste, "check_in": check_in,
           "check_in_all": check_in_all, "withdraw": withdraw, "withdraw_undo": withdraw_undo}


def entries_html(request, tournament: Tournament, flight: Flight, entries: list[Entry]) -> str:
    """A flight's entry rows, drawn by Jinja2 (`templates/jinja2/desk/entries.html`)."""
    return mark_safe(get_template("desk/entries.html", using="jinja2").render({
        "entries": entries, "csrf": get_token(request), "flight_id": flight.pk, "draft": flight.status == "draft",
        "desk_url": reverse("desk-event", args=[tournament.slug])}))


@td_page
def desk_entries(request, slug: str, pk: int):
    """A flight's entries with their ratings, and the withdraw form (fetched when opened)."""
    tournament = td_event(request, slug)
    flight = get_object_or_404(Flight.objects.defer("first_round"), pk=pk, tournament=tournament)
    entries = list(Entry.objects.filter(flight=flight).select_related("player")
                   .only("flight_id", "player_id", "status", "seed", "player__name", "player__country", "player__club")
                   .order_by("seed", "id"))
    ratings = selectors.entry_ratings([e.player_id for e in entries])
    for e in entries:
        e.rating = ratings.get(e.player_id)
    html = entries_html(request, tournament, flight, entries)
    if is_htmx(request):
        return render(request, "tournaments/desk_entries.html#table", {"entries_html": html})
    return render(request, "tournaments/desk_entries.html", {"tournament": tournament, "flight": flight,
                                                             "entries_html": html, "nav": "desk",
                                                             "runs_events": True})
