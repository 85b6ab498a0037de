"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

The winners' bracket is the seeded knockout of ``elimination``. Losers of its round 1 meet each
other in losers' round 1; after that the losers' bracket alternates a round in which the
survivors meet the players just beaten in the winners' bracket (placed in reverse order every
other time, so that two players do not meet again too soon) and a round among the survivors.
The losers' bracket winner meets the winners' bracket winner in the grand final.

Match lengths: winners' round r is played to ``lengths`` for round r. A losers' round is played
to ``losers_lengths`` for its number when given; otherwise to the length of the winners' round
whose losers it takes in, or last took in (losers' round 1 to winners' round 1's length, 2 and 3
to round 2's, 4 and 5 to round 3's, ...), so the two brackets lengthen their matches together.
The grand final (and its reset) is played to ``final_length``, by default the length of the
winners' final.

With ``bracket_reset`` (the default) the winners' bracket player has a life left: if he loses
the first grand final, a second one decides the event. Without it, the first grand final
decides. A player who loses by walkover is out at once, and so is a winners' bracket loser
who withdraws before his losers' match is drawn.

Slots: "W<round>-<match>", "L<round>-<match>", "GF-1" and "GF-2".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ._tree import Feed, FeedKind, Node, Tree
from .base import Competitor, CompetitorId, Result, check_unique_ids, round_length
from .elimination import (
    FirstRound,
    check_first_round,
    elimination_nodes,
    seeded_first_round,
)
from .errors import BracketUserError, gettext_noop


class DoubleElimination(Tree):
    """A double elimination bracket and the results played in it so far."""

    def __init__(
        self,
        competitors: Sequence[Competitor],
        *,
        first_round: FirstRound | None = None,
        lengths: Sequence[int] = (),
        losers_lengths: Sequence[int] = (),
        final_length: int | None = None,
        bracket_reset: bool = True,
        results: Iterable[Result] = (),
        name: str = "Double elimination",
        withdrawn: Iterable[CompetitorId] = (),
        drawn_losers: Iterable[CompetitorId] = (),
    ) -> None:
        if len(competitors) < 2:
            raise BracketUserError(gettext_noop("%(flight)s: a knockout needs at least two players."), flight=name)
        check_unique_ids(competitors)
        if first_round is None:
            first_round = seeded_first_round(competitors)
        else:
            check_first_round(competitors, first_round, name)
        self.competitors = tuple(sorted(competitors, key=lambda c: c.seed))
        self.first_round = tuple(tuple(pair) for pair in first_round)
        self.lengths = tuple(lengths)
        self.losers_lengths = tuple(losers_lengths)
        self.final_length = final_length
        self.bracket_reset = bracket_reset

        rounds = len(first_round).bit_length()  # winners' rounds: 2^rounds lines
        losers_rounds = 2 * (rounds - 1)
        # A winners' bracket loser who leaves by walkover is placed with the losers' round he
        # would have dropped into.
        winners = elimination_nodes(
            first_round, lengths, prefix="W",
            stage_of_round=lambda r: 1 if r == 1 else 2 * (r - 1),
        )
        nodes = list(winners)
        last_slot = {}
        for node in winners:
            last_slot.setdefault(node.round_no, []).append(node.slot)

        def losers_length(round_no: int) -> int | None:
            if losers_lengths:
                return round_length(losers_lengths, round_no)
            return round_length(lengths, round_no // 2 + 1)

        def losers_node(round_no: int, number: int, a: Feed, b: Feed) -> str:
            slot = f"L{round_no}-{number}"
            nodes.append(Node(slot, round_no, round_no, (a, b), losers_length(round_no)))
            return slot

        if rounds == 1:
            losers_champion = Feed(FeedKind.LOSER, last_slot[1][0])
        else:
            dropped = [Feed(FeedKind.LOSER, s) for s in last_slot[1]]
            survivors = [
                Feed(FeedKind.WINNER, losers_node(1, i + 1, dropped[2 * i], dropped[2 * i + 1]))
                for i in range(len(dropped) // 2)
            ]
            round_no = 1
            for winners_round in range(2, rounds + 1):
                dropped = [Feed(FeedKind.LOSER, s) for s in last_slot[winners_round]]
                if winners_round % 2 == 0:
                    dropped.reverse()
                round_no += 1
                survivors = [
                    Feed(FeedKind.WINNER, losers_node(round_no, i + 1, survivors[i], dropped[i]))
                    for i in range(len(survivors))
                ]
                if winners_round < rounds:
                    round_no += 1
                    survivors = [
                        Feed(FeedKind.WINNER, losers_node(round_no, i + 1, survivors[2 * i], survivors[2 * i + 1]))
                        for i in range(len(survivors) // 2)
                    ]
            losers_champion = survivors[0]
        final_length = final_length if final_length is not None else round_length(lengths, rounds)
        final_stage = losers_rounds + 1
        nodes.append(
            Node("GF-1", 1, final_stage,
                 (Feed(FeedKind.WINNER, last_slot[rounds][0]), losers_champion), final_length)
        )
        finals = ["GF-1"]
        if bracket_reset:
            nodes.append(
                Node("GF-2", 2, final_stage + 1,
                     (Feed(FeedKind.WINNER, "GF-1"), Feed(FeedKind.LOSER, "GF-1")),
                     final_length, reset_of="GF-1")
            )
            finals.append("GF-2")
        self.winners_rounds = rounds
        self.losers_rounds = losers_rounds
        self.withdrawn = frozenset(withdrawn)
        self.drawn_losers = frozenset(drawn_losers)
        # A winners' bracket loser who has withdrawn does not drop into the losers' bracket,
        # unless his losers' match is drawn already (``drawn_losers``): then he stays and loses
        # it by walkover rather than the bracket being drawn again without him.
        super().__init__(name, nodes, results, final_slots=finals,
                         gone=self.withdrawn - self.drawn_losers)

    def with_results(self, results: Iterable[Result]) -> DoubleElimination:
        """The same draw with another list of results."""
        return DoubleElimination(
            self.competitors,
            first_round=self.first_round,
            lengths=self.lengths,
            losers_lengths=self.losers_lengths,
            final_length=self.final_length,
            bracket_reset=self.bracket_reset,
            results=results,
            name=self.name,
            withdrawn=self.withdrawn,
            drawn_losers=self.drawn_losers,
        )
