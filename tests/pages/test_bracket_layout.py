"""Where the boxes of a bracket go (`tournaments.bracket_layout`): plain Python, no database."""

import ast
import itertools
import sys
from pathlib import Path

from tournaments import bracket_layout as bl
from tournaments.formats import Competitor, DoubleElimination, SingleElimination
from tournaments.views.bracket import tree_of


def matches_of(tree):
    """The layout's input from a format's tree, as the event page builds it."""
    out = []
    for state in tree.states():
        node = state.node
        group = node.slot[0] if node.slot[0] in "WL" else ("GF" if node.slot.startswith("GF") else "")
        column = node.round_no - 1 + (99 if group == "GF" else 0)
        feeds = tuple(f.ref if f.kind.value == "winner" else None for f in node.feeds)
        out.append(bl.Match(node.slot, column, feeds, drawn=state.status.value not in ("bye", "void"),
                            group="L" if group == "L" else "W"))
    return out


def field(n):
    return [Competitor(i, i) for i in range(1, n + 1)]


def test_the_layout_imports_nothing_but_the_standard_library():
    tree = ast.parse(Path(bl.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.level == 0}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_rounds_are_named_from_the_final_back():
    assert [bl.round_name(n) for n in range(5)] == ["Final", "Semi-finals", "Quarter-finals", "Round of 16",
                                                    "Round of 32"]


def test_a_full_bracket_of_eight_puts_every_match_between_its_two_feeders():
    plan = bl.layout(matches_of(SingleElimination(field(8))))
    assert plan.rows == {"R1-1": 0, "R1-2": 1, "R1-3": 2, "R1-4": 3, "R2-1": 0.5, "R2-2": 2.5, "R3-1": 1.5}
    assert plan.height == 4 and plan.width == 3
    assert sorted((line.source, line.target, line.side) for line in plan.lines) == [
        ("R1-1", "R2-1", 0), ("R1-2", "R2-1", 1), ("R1-3", "R2-2", 0), ("R1-4", "R2-2", 1),
        ("R2-1", "R3-1", 0), ("R2-2", "R3-1", 1)]


def test_byes_take_no_box_and_their_next_match_sits_level_with_its_real_feeder():
    bracket = SingleElimination(field(6))  # seeds 1 and 2 have byes in round 1
    drawn = [m for m in matches_of(bracket) if m.drawn]
    assert [m.slot for m in drawn] == ["R1-2", "R1-4", "R2-1", "R2-2", "R3-1"]
    plan = bl.layout(matches_of(bracket))
    assert plan.rows == {"R1-2": 0, "R2-1": 0, "R1-4": 1, "R2-2": 1, "R3-1": 0.5}
    assert {(line.source, line.target) for line in plan.lines} == {
        ("R1-2", "R2-1"), ("R1-4", "R2-2"), ("R2-1", "R3-1"), ("R2-2", "R3-1")}


def test_double_elimination_has_the_winners_above_the_losers_and_the_grand_final_between():
    bracket = DoubleElimination(field(8))
    plan = bl.layout(matches_of(bracket))
    winners = [row for slot, row in plan.rows.items() if slot.startswith("W")]
    losers = [row for slot, row in plan.rows.items() if slot.startswith("L")]
    assert max(winners) + bl.GROUP_GAP <= min(losers)
    assert plan.rows["GF-1"] == (plan.rows["W3-1"] + plan.rows["L4-1"]) / 2
    assert ("W3-1", "GF-1", 0) in {(x.source, x.target, x.side) for x in plan.lines}
    assert ("L4-1", "GF-1", 1) in {(x.source, x.target, x.side) for x in plan.lines}


def test_no_two_boxes_of_a_column_overlap():
    for n in range(2, 40):
        plan = bl.layout(matches_of(DoubleElimination(field(n)) if n % 2 else SingleElimination(field(n))))
        by_column = {}
        for slot, row in plan.rows.items():
            by_column.setdefault(plan.columns[slot], []).append(row)
        for rows in by_column.values():
            rows.sort()
            assert all(b - a >= 1 for a, b in itertools.pairwise(rows)), n


def test_the_page_finds_the_tree_behind_a_flight():
    class View:
        engine = SingleElimination(field(4))

    assert tree_of(View()) == (View.engine, "")
    assert tree_of(None) == (None, "")
