"""The parameters of the variance-adjusted (`crawford`) rating.

The fitted values are the ones `bench/ratings_accuracy.py` prints as best: a coordinate search
on the first 80% (by date) of a real history (bglab_online.csv), a league of GNU Backgammon
bots (league.csv) and two simulated clubs whose players' skill drifts at a rate the fit never
sees, who come, go and take breaks; each value the one that beats FIBS by the most on the set
where it beats it least, every match forecast before it was rated. The last 20% of every set is
held out and scored, and the fit repeated from rolling origins (50%, 60%, 70%). Change them
only together with a new run of that bench.

Fitted again on real clubs' histories (club_history.csv, league_athens.csv, bglab_online.csv;
rolling origins on the first 80%, online and frozen forecasts, `ratings.calibration`) once
newcomers started below the founders (29 Nov 2026): the founders' deviation, the newcomers'
offset and deviation and σ below are that fit's; on the held-out 20% they forecast better than
FIBS pooled in both modes with the whole interval below zero (docs/ratings.md, "Judged on real
clubs, with newcomers below the founders"). A site fits its own with
`manage.py calibrate_ratings`.

A newcomer starts below the players he joins (NEWCOMER_OFFSET, NEWCOMER_DEVIATION): people who
arrive at a club are mostly weaker than its regulars. Both are constants between fits, so a result
at the end of the history never needs the whole history rated again.
"""

INITIAL_RATING = 1500.0
"""Where every rating starts (the FIBS scale: 1500 is a new player)."""

INITIAL_DEVIATION = 150.0
"""Deviation of a founder (a player who arrives before the site has ESTABLISHED_PLAYERS players of
ESTABLISHED_MATCHES matches), rating points, and the most a deviation grows to with time away.
Fitted: bench/ratings_accuracy.py."""

NEWCOMER_OFFSET = -100.0
"""Where a newcomer (a player who arrives after the founders, see INITIAL_DEVIATION) starts,
relative to INITIAL_RATING, in rating points: in a club most newcomers are beginners, and the
regulars they meet have been rated from the same 1500. Fitted: bench/ratings_accuracy.py; a site
fits its own with `calibrate_ratings`."""

NEWCOMER_DEVIATION = 150.0
"""A newcomer's starting deviation, rating points: wider than a founder's, since who arrives is
less known than who founded the site. Fitted: bench/ratings_accuracy.py."""

ESTABLISHED_MATCHES = 10
"""A player with at least this many matches is established."""

ESTABLISHED_PLAYERS = 8
"""Once a history has this many established players, every player who arrives after is a
newcomer; those who arrived before are its founders and start at INITIAL_RATING."""

IMPORTED_EXPERIENCE_SCALE = 300.0
"""A player who comes from another rating list (`import_ratings`) starts with the deviation
INITIAL_DEVIATION / √(1 + experience / IMPORTED_EXPERIENCE_SCALE): the more points he has
played, the surer his rating."""

IMPORTED_DEVIATION_FLOOR = 50.0
"""The least deviation an imported start gets, however long his experience."""

INITIAL_VOLATILITY = 0.12
"""Volatility of a new player (Glicko-2 scale): the deviation grows by σ² per PERIOD_DAYS away,
with σ 0.12 as RD → √(RD² + 20.8²·months away) in rating points; τ lets σ rise for a player
whose results surprise. Fitted: bench/ratings_accuracy.py."""

TAU = 1.2
"""System constant τ, how fast volatility may change. Fitted: bench/ratings_accuracy.py. It
hardly matters: every match is a rating period of its own and one result barely moves the
volatility, so on 18 simulated clubs τ 0.2, 1.2 and 5 forecast within 0.00001 of each other
(bench/ratings_club_grid.py --sensitivity); σ is in effect a fixed rate of growth."""

LENGTH_CONSTANT = 2.0
"""C in the effective match length S(N) = 1 + C·(N − 1)/2: with C = 2, S(N) = N, the length of
FIBS's formula: S(3) = 3, S(7) = 7, S(17) = 17. Chosen on real players' results only
(bglab_online.csv; a federation adds its own with `--data`): there every C from 0.5 to 3 lies
within 0.0003 of the others in log loss, so the bench keeps the FIBS length unless real results
favour another by more than 0.001 (bench/ratings_accuracy.py, LENGTH_MARGIN). The bot league
and the simulated clubs do not choose it: bots are not people, and a simulator's length effect
is its own. A table of S(N) per length (CrawfordParameters.effective_lengths) was fitted too and
did not beat the curve on the held-out matches, so there is none by default."""

PERIOD_DAYS = 30.0
"""Days in one rating period: the deviation grows by σ² (Glicko-2 scale) per 30 days away.
Fixed by convention; only σ²/PERIOD_DAYS matters for the growth, and σ is fitted."""

MATCH_GROWTH = 0.0
"""How much a match itself lets the rating move: before each update the variance grows by
MATCH_GROWTH·σ'² (Glicko-2 scale), as Glickman's step 6 does once per rating period; 1 makes
every match a rating period of its own. Fitted: bench/ratings_accuracy.py."""

PROVISIONAL_DEVIATION = 150.0
"""A rating is provisional while its deviation exceeds 75% of a new player's deviation, and at
most this many rating points. A display threshold: it changes no prediction."""

PROVISIONAL_SHARE = 0.75
"""See PROVISIONAL_DEVIATION."""
