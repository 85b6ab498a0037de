"""Plain values shared by every format: competitors, pairings, results and placings.

Every format works on these and on nothing else, so a caller can build them from database
rows, from a file or by hand in a test. They are frozen: a format never changes what it is
given, it hands back new values.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from .errors import BracketUserError, gettext_noop

CompetitorId = Hashable
"""Whatever identifies a player in the caller's world (an entry's primary key, a name)."""


@dataclass(frozen=True, slots=True)
class Competitor:
    """A player entered in a flight: his id, his seed (1 is the best) and his rating if known."""

    id: CompetitorId
    seed: int
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a draw: ``a`` plays ``b`` in round ``round_no``; ``b`` is None for a bye.

    ``slot`` names the match inside its flight ("R2-5": round 2, match 5) and is the key a
    result refers to. ``length`` is the match length in points for that round, when known.
    """

    slot: str
    round_no: int
    a: CompetitorId
    b: CompetitorId | None
    length: int | None = None

    @property
    def is_bye(self) -> bool:
        """True when ``a`` goes through without playing."""
        return self.b is None

    @property
    def players(self) -> tuple[CompetitorId, ...]:
        """The one or two players of this pairing."""
        return (self.a,) if self.b is None else (self.a, self.b)


@dataclass(frozen=True, slots=True)
class Result:
    """The winner of the match in ``slot``.

    ``walkover`` marks a match the opponent did not play (withdrawal or no-show): the winner
    goes on, the match is not rated, and the loser is out of the event (he feeds no other flight
    and is not paired again).
    """

    slot: str
    winner: CompetitorId
    walkover: bool = False


@dataclass(frozen=True, slots=True)
class Placing:
    """Where a player finished: a single place (``first == last``) or a tie band (5-8)."""

    competitor: CompetitorId
    first: int
    last: int

    @property
    def label(self) -> str:
        """The place as a TD writes it: "1", "3-4", "17-32"."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


class FlightKind(enum.Enum):
    """The part an elimination flight plays in an event."""

    MAIN = "main"
    """The flight every entrant starts in."""
    CONSOLATION = "consolation"
    """A flight for players knocked out of the main flight early."""
    LAST_CHANCE = "last_chance"
    """A flight for players knocked out of the consolation (or another feeder flight) early."""


def index_results(results: Iterable[Result], flight: str) -> dict[str, Result]:
    """The results keyed by slot; two results for one match are refused."""
    indexed: dict[str, Result] = {}
    for result in results:
        if result.slot in indexed:
            raise BracketUserError(gettext_noop("%(flight)s: match %(slot)s has two results; keep one."),
                                   flight=flight, slot=result.slot)
        indexed[result.slot] = result
    return indexed


def round_length(lengths: Sequence[int], round_no: int) -> int | None:
    """The match length for a round; rounds past the end of ``lengths`` keep the last length."""
    if not lengths:
        return None
    return lengths[min(round_no, len(lengths)) - 1]


def check_unique_ids(competitors: Sequence[Competitor],
                     label: Callable[[CompetitorId], str] = str) -> dict[CompetitorId, Competitor]:
    """The competitors keyed by id; a player entered twice is refused (named by `label`)."""
    by_id: dict[CompetitorId, Competitor] = {}
    for competitor in competitors:
        if competitor.id in by_id:
            raise BracketUserError(gettext_noop("Player %(player)s is entered twice."), player=label(competitor.id))
        by_id[competitor.id] = competitor
    return by_id


def placings_from_exits(
    champion: CompetitorId | None, exits: dict[CompetitorId, int]
) -> tuple[Placing, ...]:
    """Places from the stage at which each player went out: later stages finish higher.

    Players who went out at the same stage share a tie band, as knockout events show them
    (the two losing semi-finalists are both 3-4).
    """
    placings: list[Placing] = []
    place = 1
    if champion is not None:
        placings.append(Placing(champion, 1, 1))
        place = 2
    by_stage: dict[int, list[CompetitorId]] = {}
    for player, stage in exits.items():
        by_stage.setdefault(stage, []).append(player)
    for stage in sorted(by_stage, reverse=True):
        band = by_stage[stage]
        last = place + len(band) - 1
        placings.extend(Placing(player, place, last) for player in band)
        place = last + 1
    return tuple(placings)
