"""Reads of players and matches, with a fixed number of queries whatever the page size."""

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Prefetch, QuerySet

from .models import Game, Match, MatchStatus, Player
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


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's matches played to their end (a walkover or a forfeit says nothing of how two
    players play), summed up: by opponent, the most met first, and by match length."""

    head_to_head: list[dict]
    """The opponents met most often, of those the most recently met first: id, name, won, lost and
    points (the lengths summed)."""
    opponents: int
    """Every opponent he has finished a match with, listed or not."""
    by_length: list[dict]
    """Won and lost by match length, shortest first (0: money sessions)."""


def player_record(player_id: int, *, opponents: int = 60) -> PlayerRecord:
    """The record of `player_id`, summed up in the database in one query whose rows do not grow
    with his record. His matches are read from the two indexes that lead with the player of each
    side and carry every column summed up (`match_player_a_record`, `match_player_b_record`), so
    the table itself is not visited; a UNION ALL of the two sides lets each use its own index,
    which an OR of the two would not. Only the listed opponents' names are read."""
    table, players = Match._meta.db_table, Player._meta.db_table
    finished = "status = %s AND forfeited_by_id IS NULL"
    sql = f"""
        WITH mine AS (
            SELECT player_b_id AS opponent, CASE WHEN winner_id = %s THEN 1 ELSE 0 END AS won, length, played_on
              FROM {table} WHERE player_a_id = %s AND {finished}
            UNION ALL
            SELECT player_a_id, CASE WHEN winner_id = %s THEN 1 ELSE 0 END, length, played_on
              FROM {table} WHERE player_b_id = %s AND {finished}
        ), heads AS (
            SELECT opponent, COUNT(*) AS played, SUM(won) AS won, SUM(length) AS points, MAX(played_on) AS last
              FROM mine GROUP BY opponent
        )
        SELECT 0, listed.opponent, {players}.name, listed.played, listed.won, listed.points, listed.last
          FROM (SELECT * FROM heads ORDER BY played DESC, last DESC, opponent DESC LIMIT %s) AS listed
          JOIN {players} ON {players}.id = listed.opponent
        UNION ALL SELECT 1, NULL, NULL, COUNT(*), NULL, NULL, NULL FROM heads
        UNION ALL SELECT 2, length, NULL, COUNT(*), SUM(won), NULL, NULL FROM mine GROUP BY length
    """
    done = MatchStatus.FINISHED.value
    with connection.cursor() as cursor:
        cursor.execute(sql, [player_id, player_id, done, player_id, player_id, done, opponents])
        rows = cursor.fetchall()
    listed, count, by_length = [], 0, []
    for part, key, name, played, won, points, last in rows:
        if part == 0:
            listed.append((played, last, {"id": key, "name": name, "won": won, "lost": played - won,
                                          "points": points}))
        elif part == 1:
            count = played
        else:
            by_length.append({"length": key, "won": won, "lost": played - won})
    listed.sort(key=lambda row: (row[0], row[1], row[2]["id"]), reverse=True)  # a UNION ALL keeps no order
    by_length.sort(key=lambda line: line["length"] or 0)
    return PlayerRecord([row for _, _, row in listed], count, by_length)


def player_matcher() -> Matcher:
    """Every player, as the name matcher (`games.names`) asks about them: one query."""
    return Matcher(Known(pk, name, club) for pk, name, club in Player.objects.values_list("pk", "name", "club"))
