"""Demo players and matches for `seed_demo`: realistic score sheets played through the services."""

import random
from datetime import timedelta

from django.utils import timezone

from . import services
from .engine.scoring import GameEnd, MatchScore, ResultKind
from .models import Match, Player

FIRST = ["Anna", "Bo", "Carla", "Dmitri", "Elif", "Finn", "Greta", "Hiro", "Ines", "Jonas", "Kaisa", "Lars",
         "Maja", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sven", "Tove", "Ulla", "Viktor", "Wen", "Yusuf"]
LAST = ["Berg", "Jensen", "Rossi", "Novak", "Yilmaz", "Hansen", "Lind", "Sato", "Garcia", "Weber", "Virtanen",
        "Holm", "Kowalski", "Petrov", "Moreau", "Costa"]
CLUBS = [("DK", "Copenhagen BG"), ("DK", "Aarhus BG"), ("SE", "Stockholm Backgammon"), ("DE", "Berlin BG Club"),
         ("IT", "Milano Backgammon"), ("JP", "Tokyo BG"), ("US", "Chicago Point"), ("TR", "Istanbul Tavla")]


def demo_players(rng: random.Random, count: int) -> list[Player]:
    players, seen = [], set()
    while len(players) < count:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name in seen:
            continue
        seen.add(name)
        country, club = rng.choice(CLUBS)
        players.append(services.player_create(name=name, country=country, club=club))
    return players


def random_game(rng: random.Random, score: MatchScore, a_strength: float) -> services.GameInput:
    """A plausible game: the stronger player wins more, some gammons, cubes where the rules allow."""
    winner = 0 if rng.random() < a_strength else 1
    if score.next_game_is_crawford:
        kind = ResultKind.GAMMON if rng.random() < 0.2 else ResultKind.SINGLE
        return services.GameInput(winner=winner, kind=kind)
    cube = rng.choice([1, 1, 1, 2, 2, 2, 4])
    owner = None if cube == 1 else rng.choice([0, 1])
    if rng.random() < 0.25:
        if owner == 1 - winner:
            owner = winner
        return services.GameInput(winner=winner, end=GameEnd.DOUBLE_REFUSED, cube=cube, cube_owner=owner)
    roll = rng.random()
    kind = ResultKind.BACKGAMMON if roll < 0.03 else ResultKind.GAMMON if roll < 0.25 else ResultKind.SINGLE
    return services.GameInput(winner=winner, kind=kind, cube=cube, cube_owner=owner)


def play_match(match: Match, rng: random.Random, *, a_strength: float = 0.5, games: int | None = None) -> Match:
    """Record games on `match` until it ends (or `games` have been played)."""
    score = MatchScore(match.rules)
    played = 0
    while not score.finished and (games is None or played < games):
        game = random_game(rng, score, a_strength)
        score.record(game.outcome())
        match = services.game_record(match=match, number=score.games[-1].number, game=game)
        played += 1
    return match


def demo_matches(rng: random.Random, players: list[Player], count: int, *, days: int = 365,
                 sheets: int = 240, newcomers: int = 6) -> list[Match]:
    """`count` finished matches over the last `days`: the latest `sheets` with every game on their
    score sheet, the older ones by final score alone, as a history imported from result slips.
    The last `newcomers` players play only in the latest matches: their ratings are provisional."""
    strength = {p.pk: rng.gauss(0, 1) for p in players}
    regulars = players[:-newcomers] if 0 < newcomers < len(players) - 1 else players
    now = timezone.now()
    matches = []
    for i in range(count):
        a, b = rng.sample(players if i >= count - sheets else regulars, 2)
        length = rng.choice([1, 3, 5, 5, 7, 7, 9, 11, 13])
        played_on = now - timedelta(days=days * (count - i) / count, hours=rng.randint(0, 10))
        match = services.match_create(player_a=a, player_b=b, length=length, played_on=played_on)
        edge = min(0.8, max(0.2, 0.5 + 0.04 * (strength[a.pk] - strength[b.pk])))
        if i >= count - sheets:
            matches.append(play_match(match, rng, a_strength=edge))
            continue
        score = MatchScore(match.rules)
        while not score.finished:
            score.record(random_game(rng, score, edge).outcome())
        matches.append(services.match_final_score_record(
            match=match, score_a=score.score[0], score_b=score.score[1], reason="result slip"))
    return matches


def played_out_game(rng: random.Random) -> tuple[list[dict], int, int]:
    """A whole game played by the engine with random dice and random legal plays: its turns as a
    match file gives them, the winner's side and how he won (single, gammon, backgammon)."""
    from .engine import Position, legal_plays

    position, side, moves = Position.initial(), 0, []
    for turn in range(1, 2000):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        play = rng.choice(plays) if plays else None
        after = play.position if play else position
        moves.append({"type": "roll", "side": side, "dice": list(dice), "notation": play.notation if play else "",
                      "steps": [list(s) for s in play.steps] if play else [],
                      "position_id_before": position.position_id(),
                      "position_id_after": play.result_id() if play else position.position_id(),
                      "move": (turn + 1) // 2, "line": turn})
        outcome = after.outcome()  # seen from the mover: winner 0 is the side that just played
        if outcome is not None:
            return moves, side if outcome[0] == 0 else 1 - side, int(outcome[1])
        position, side = after.swap(), 1 - side
    raise RuntimeError("the game did not end")


def demo_replay(rng: random.Random, players: list[Player]) -> Match:
    """A 1-point match whose game has every move, for the replay."""
    moves, winner, kind = played_out_game(rng)
    match = services.match_create(player_a=players[0], player_b=players[1], length=1, source="mat")
    return services.game_record(match=match, number=1, game=services.GameInput(winner=winner, kind=kind,
                                                                               moves=moves))
