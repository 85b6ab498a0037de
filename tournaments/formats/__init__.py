"""Tournament formats in plain Python: draws, pairings, brackets and standings.

Nothing here touches a database. A caller loads the entrants, the random seed it recorded and
the results so far, asks a format what comes next, and stores the answer.
"""

from .base import Competitor, FlightKind, Pairing, Placing, Result
from .elimination import (
    Feeder,
    FlightSpec,
    KnockoutEvent,
    ProgressiveBracket,
    SingleElimination,
    seeded_first_round,
)
from .errors import BracketUserError
from .seeding import SeedingMethod, bracket_order, seed_competitors

__all__ = [
    "BracketUserError",
    "Competitor",
    "Feeder",
    "FlightKind",
    "FlightSpec",
    "KnockoutEvent",
    "Pairing",
    "Placing",
    "ProgressiveBracket",
    "Result",
    "SeedingMethod",
    "SingleElimination",
    "bracket_order",
    "seed_competitors",
    "seeded_first_round",
]
