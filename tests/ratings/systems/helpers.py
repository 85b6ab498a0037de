"""Small builders shared by the rating-system tests."""

from datetime import date, timedelta

from ratings.systems import MatchRecord, PlayerRating

OPENING_DAY = date(2025, 1, 1)


def match(match_id, player_a, player_b, length, winner, day=0):
    """A match record played `day` days after the opening day."""
    return MatchRecord(match_id, OPENING_DAY + timedelta(days=day), player_a, player_b, length, winner)


def experienced(player, rating, *, deviation=None, volatility=None, last_played=None):
    """A starting rating for a player with plenty of experience (new-player factor 1)."""
    return PlayerRating(player, rating, deviation, volatility, 1000, 200, last_played, False)
