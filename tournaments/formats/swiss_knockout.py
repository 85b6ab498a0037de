"""Swiss, then knockout: a number of Swiss rounds, then the top of the standings play a seeded
single elimination, seeded by their Swiss rank.

Final places: the qualifiers take the knockout's places (1, 2, 3-4, ...); every other player is
placed after them by his Swiss rank, players who share a rank sharing a band (6-7).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from .base import Competitor, CompetitorId, Placing, Result
from .elimination import SingleElimination
from .errors import BracketUserError, gettext_noop, ngettext
from .standings import MatchPRs
from .swiss import Swiss, SwissSettings


def knockout_field(
    swiss: Swiss, qualifiers: int, *, drawn: Iterable[CompetitorId] = ()
) -> tuple[Competitor, ...]:
    """The top ``qualifiers`` of a finished Swiss, seeded 1..M by their Swiss rank.

    Players sharing a rank after every tie-break keep the standings order (by seed); a
    withdrawn player does not qualify and the next one takes his place, unless he is one of
    ``drawn``: the players already drawn in the knockout, who stay in it whatever happens next.
    When withdrawals leave fewer than ``qualifiers`` players, every one left qualifies: the
    event goes on with a smaller knockout rather than not at all.
    """
    if not swiss.is_finished:
        raise BracketUserError(gettext_noop("%(flight)s is not finished: the knockout field is not known yet."),
                               flight=swiss.name)
    if qualifiers < 2:
        raise BracketUserError(gettext_noop("The knockout needs at least two qualifiers."))
    left = swiss.withdrawn - frozenset(drawn)
    eligible = [s for s in swiss.standings() if s.competitor not in left]
    if len(eligible) < 2:
        raise BracketUserError(
            ngettext("Only %(count)s player is left after the withdrawals: a knockout needs two.",
                     "Only %(count)s players are left after the withdrawals: a knockout needs two.", len(eligible)),
            count=len(eligible),
        )
    ratings = {c.id: c.rating for c in swiss.competitors}
    return tuple(
        Competitor(line.competitor, seed, ratings[line.competitor])
        for seed, line in enumerate(eligible[:qualifiers], start=1)
    )


class SwissKnockout:
    """k Swiss rounds, then the top M in a seeded knockout.

    The state is the Swiss state (pairings, results, withdrawals), the knockout results and
    ``knockout_players``, the players of the knockout once it has been drawn: a qualifier who
    withdraws after the draw stays in the bracket and loses his matches by walkover, instead
    of the field being drawn again without him.
    """

    def __init__(
        self,
        competitors: Sequence[Competitor],
        *,
        swiss_rounds: int,
        qualifiers: int,
        swiss_settings: SwissSettings | None = None,
        knockout_lengths: Sequence[int] = (),
        swiss_pairings: Iterable = (),
        swiss_results: Iterable[Result] = (),
        knockout_results: Iterable[Result] = (),
        withdrawn: Iterable[CompetitorId] = (),
        knockout_players: Iterable[CompetitorId] = (),
        swiss_prs: MatchPRs | None = None,
        label: Callable[[CompetitorId], str] = str,
    ) -> None:
        if qualifiers > len(competitors):
            raise BracketUserError(gettext_noop("%(qualifiers)s players are to qualify from a field of %(field)s."),
                                   qualifiers=qualifiers, field=len(competitors))
        settings = replace(swiss_settings or SwissSettings(), rounds=swiss_rounds)
        withdrawn = frozenset(withdrawn)
        self.swiss = Swiss(
            competitors, settings, pairings=swiss_pairings, results=swiss_results,
            withdrawn=withdrawn, prs=swiss_prs, name="Swiss", label=label,
        )
        knockout_results = tuple(knockout_results)
        self.knockout: SingleElimination | None = None
        if self.swiss.is_finished:
            self.knockout = SingleElimination(
                knockout_field(self.swiss, qualifiers, drawn=knockout_players),
                lengths=knockout_lengths,
                results=knockout_results,
                name="Knockout",
            )
        elif knockout_results:
            raise BracketUserError(gettext_noop("The knockout cannot have results before the Swiss is over."))

    @property
    def champion(self) -> CompetitorId | None:
        """The knockout winner, once decided."""
        return self.knockout.champion if self.knockout else None

    @property
    def is_finished(self) -> bool:
        """True when the knockout is over."""
        return self.knockout is not None and self.knockout.is_finished

    def placings(self) -> tuple[Placing, ...]:
        """Final places: the knockout's for the qualifiers, then everyone else by Swiss rank."""
        if not self.is_finished:
            raise BracketUserError(gettext_noop("The knockout is not finished: places are not known yet."))
        placings = list(self.knockout.placings())
        qualified = {placing.competitor for placing in placings}
        rest = [line for line in self.swiss.standings() if line.competitor not in qualified]
        place = len(placings) + 1
        for rank in dict.fromkeys(line.rank for line in rest):
            band = [line.competitor for line in rest if line.rank == rank]
            placings.extend(Placing(player, place, place + len(band) - 1) for player in band)
            place += len(band)
        return tuple(placings)
