"""The home page: the events running and coming, the latest finished, the top of the rating list
and the newest results."""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games.models import Match, MatchStatus
from ratings import selectors as rating_selectors
from ratings import services as rating_services

from ...models import Tournament, TournamentStatus


RECENT_COLUMNS = ("id", "played_on", "length", "status", "score_a", "score_b", "winner_id", "player_a__name",
                  "player_b__name", "pairing__flight__tournament__name", "pairing__flight__tournament__slug")
"""What the home page writes of each recent result (templates/home.html): its other columns, and the
other columns of its players, pairing, flight and event, are not read."""


def home(request):
    today = timezone.localdate()
    events = list(
        Tournament.objects.filter(
            Q(status=TournamentStatus.RUNNING) | Q(status=TournamentStatus.OPEN, end_date__gte=today)
        ).order_by("start_date", "id")[:12]
    )
    finished = list(Tournament.objects.filter(status=TournamentStatus.FINISHED).order_by("-end_date", "-id")[:5])
    system = rating_services.default_system()
    top = list(rating_selectors.rating_list(system=system, provisional=False)[:10])
    if not top:  # a young list: everybody is still provisional
        top = list(rating_selectors.rating_list(system=system)[:10])
    # The newest results by the played_on index alone, then their players and events by id.
    latest = list(
        Match.objects.filter(status__in=[MatchStatus.FINISHED, MatchStatus.FORFEITED])
        .order_by("-played_on").values_list("pk", flat=True)[:15]
    )
    recent = sorted(
        Match.objects.filter(pk__in=latest).select_related("player_a", "player_b", "pairing__flight__tournament")
        .only(*RECENT_COLUMNS),
        key=lambda m: (m.played_on, m.pk), reverse=True,
    )
    # Each result's words, written as blocktranslate writes them (the names escaped, the translation
    # not), each message translated once for the fifteen.
    beat, points = _("%(winner)s beat %(loser)s"), _("%(length)s pt")
    for match in recent:
        winner, loser = ((match.player_b, match.player_a) if match.winner_id == match.player_b_id
                         else (match.player_a, match.player_b))
        match.beat_words = mark_safe(beat % {"winner": conditional_escape(winner.name),
                                             "loser": conditional_escape(loser.name)})
        match.length_words = mark_safe(points % {"length": match.length}) if match.length else ""
    return render(request, "home.html", {
        "running": [e for e in events if e.status == TournamentStatus.RUNNING],
        "upcoming": [e for e in events if e.status != TournamentStatus.RUNNING],
        "finished": finished,
        "top": top,
        "recent": recent,
    })
