"""The parameters of the variance-adjusted (`crawford`) rating.

The fitted values are the ones `bench/ratings_accuracy.py` prints as best (lowest log loss on
the simulated league's training matches, checked on its held-out matches and on league.csv).
Change them only together with a new run of that bench.

Both leagues the bench knows have players of constant skill, so the fit drives the volatility
and τ to the low end of their grids (the training log loss is flat there: 0.64411 at σ 0.005
against 0.64412 at 0.02). Refit on a real club history, where skills drift, before trusting
the deviation's growth with time away.
"""

INITIAL_RATING = 1500.0
"""Where every rating starts (the FIBS scale: 1500 is a new player)."""

INITIAL_DEVIATION = 300.0
"""Deviation of a new player, rating points. Fitted: bench/ratings_accuracy.py."""

INITIAL_VOLATILITY = 0.005
"""Volatility of a new player (Glicko-2 scale). Fitted: bench/ratings_accuracy.py."""

TAU = 0.05
"""System constant τ, how fast volatility may change. Fitted: bench/ratings_accuracy.py."""

LENGTH_CONSTANT = 1.0
"""C in the effective match length S(N) = 1 + C·(N − 1)/2. Fitted: bench/ratings_accuracy.py."""

PERIOD_DAYS = 30.0
"""Days in one rating period: the deviation grows by σ² (Glicko-2 scale) per 30 days away.
Fixed by convention; only σ²/PERIOD_DAYS matters for the growth, and σ is fitted."""

PROVISIONAL_DEVIATION = 150.0
"""A rating is provisional while its deviation exceeds this many rating points. A display
threshold: it changes no prediction, so it is a convention rather than a fitted value. A match
says little about skill, so the deviation falls slowly: on shared/data/league.csv players reach
150 after 35 to 58 matches (median 44; FIBS's 400 points of experience is about 60 matches of
7 points), while after 60 matches nobody is below 113."""

MAXIMUM_DEVIATION = INITIAL_DEVIATION
"""Deviation never grows past a new player's: a long absence makes a player new again, no more."""
