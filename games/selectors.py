"""Reads of players and matches, with a fixed number of queries whatever the page size."""

from django.db.models import Count, Prefetch, Q, QuerySet

from .models import Game, Match, Player
from .names import Known, Matcher


def player_list(*, search: str = "") -> QuerySet[Player]:
    players = Player.objects.all()
    for word in search.split():
        players = players.filter(name__icontains=word)
    return players


def match_list() -> QuerySet[Match]:
    return (
        Match.objects.select_related("player_a", "player_b")
        .annotate(game_count=Count("games"))
        .order_by("-played_on", "-id")
    )


def match_detail() -> QuerySet[Match]:
    return match_list().prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))


def matches_of_player(player: Player) -> QuerySet[Match]:
    return match_list().filter(Q(player_a=player) | Q(player_b=player))


def player_matcher() -> Matcher:
    """Every player, as the name matcher (`games.names`) asks about them: one query."""
    return Matcher(Known(pk, name, club) for pk, name, club in Player.objects.values_list("pk", "name", "club"))
