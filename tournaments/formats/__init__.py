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
from .double_elimination import DoubleElimination
from .draw_rules import DrawRuleError, DrawRules, apply_rules
from .errors import BracketUserError
from .round_robin import RoundRobin, berger_table
from .seeding import SeedingMethod, bracket_order, seed_competitors
from .standings import MatchPRs, Scoring, Standing, TieBreak, skill_points, standings
from .swiss import Swiss, SwissSettings
from .swiss_knockout import SwissKnockout, knockout_field

__all__ = [
    "BracketUserError",
    "Competitor",
    "DoubleElimination",
    "DrawRuleError",
    "DrawRules",
    "Feeder",
    "FlightKind",
    "FlightSpec",
    "KnockoutEvent",
    "MatchPRs",
    "Pairing",
    "Placing",
    "ProgressiveBracket",
    "Result",
    "RoundRobin",
    "Scoring",
    "SeedingMethod",
    "SingleElimination",
    "Standing",
    "Swiss",
    "SwissKnockout",
    "SwissSettings",
    "TieBreak",
    "apply_rules",
    "berger_table",
    "bracket_order",
    "knockout_field",
    "seed_competitors",
    "seeded_first_round",
    "skill_points",
    "standings",
]
