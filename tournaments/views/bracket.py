"""A knockout drawn as HTML boxes over an SVG of connector lines, from `bracket_layout`.

Where each box, head and line goes is worked out here; `templates/jinja2/event/bracket.html`
writes them (Jinja2: a 256-player bracket has 255 boxes, which Django's engine draws several times
slower). The boxes are absolutely placed on a wide screen; on a phone the stylesheet lays one
round at a time as a list, chosen with the round tabs above it.
"""

from __future__ import annotations

import html

from django.template import engines
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .. import bracket_layout as bl
from ..formats._tree import FeedKind, Tree


def escape(text) -> SafeString:
    """`django.utils.html.escape` (the same characters, the same entities) without its lazy-string
    wrapper, which costs more than the escaping itself over the thousands of names of a bracket."""
    return SafeString(html.escape(str(text)))


def macros(name: str):
    """The macros of one of the event page's Jinja2 templates (`templates/jinja2/event/`)."""
    return engines["jinja2"].env.get_template(f"event/{name}.html").module

BOX_W, COL_GAP, LABEL_H, SIDE_H, ROW_H, HEAD_H = 200, 40, 20, 24, 84, 34
BOX_H = LABEL_H + 2 * SIDE_H + 2
COL_W = BOX_W + COL_GAP


def tree_of(view) -> tuple[Tree | None, str]:
    """The fixed tree behind a flight's knockout (and the prefix of its slots), if it has one."""
    engine = getattr(view, "engine", None)
    if isinstance(engine, Tree):
        return engine, ""
    knockout = getattr(engine, "knockout", None)
    if isinstance(knockout, Tree):
        return knockout, "K"
    return None, ""


def group_of(slot: str, prefix: str) -> str:
    """W, L or GF in a double elimination; "" in a single knockout."""
    bare = slot[len(prefix):]
    if bare.startswith("GF"):
        return "GF"
    return bare[0] if bare[:1] in ("W", "L") else ""


def round_of(slot: str, prefix: str) -> int:
    bare = slot[len(prefix):].lstrip("RWLGF")
    return int(bare.split("-")[0]) if bare.split("-")[0].isdigit() else 1


def names_of_rounds(tree: Tree, prefix: str) -> dict[tuple[str, int], str]:
    """Final, Semi-finals, Quarter-finals, Round of 16; the winners' and losers' rounds by number."""
    last: dict[str, int] = {}
    for state in tree.states():
        group = group_of(prefix + state.node.slot, prefix)
        last[group] = max(last.get(group, 0), state.node.round_no)
    out = {}
    for group, top in last.items():
        for r in range(1, top + 1):
            if group == "":
                out[(group, r)] = round_name(top - r)
            elif group == "W":
                out[(group, r)] = _("Winners' final") if r == top else _("Winners' round %(round)s") % {"round": r}
            elif group == "L":
                out[(group, r)] = _("Losers' final") if r == top else _("Losers' round %(round)s") % {"round": r}
            else:
                out[(group, r)] = _("Grand final") if r == 1 else _("Grand final, if needed")
    return out


def round_name(rounds_left: int) -> str:
    """The usual name of a knockout round in the reader's language (`bracket_layout.round_name`)."""
    if rounds_left == 0:
        return _("Final")
    if rounds_left == 1:
        return _("Semi-finals")
    if rounds_left == 2:
        return _("Quarter-finals")
    return _("Round of %(players)s") % {"players": 2 ** (rounds_left + 1)}


def _label(slot: str, prefix: str) -> str:
    return slot[len(prefix):] if prefix else slot


class _Words:
    """The words every box says, translated once per bracket rather than once per box."""

    def __init__(self):
        self.winner_of, self.loser_of, self.tbd = _("Winner of %(match)s"), _("Loser of %(match)s"), _("To be decided")
        self.notes = {"playing": _("playing"), "walkover": _("walkover"), "ready": _("to play")}
        self.table, self.said = _("table %(table)s"), _("%(match)s: %(player_a)s v %(player_b)s")


def _from_words(kind: FeedKind | None, ref: str | None, prefix: str, words: _Words) -> str:
    if kind is FeedKind.WINNER and ref:
        return words.winner_of % {"match": _label(ref, prefix)}
    if kind is FeedKind.LOSER and ref:
        return words.loser_of % {"match": _label(ref, prefix)}
    return words.tbd


def bracket_html(*, flight_pk: int, view, slots: list[dict], match_url, player_url) -> dict | None:
    """The drawn bracket of a flight with a fixed tree: {"html", "rounds"} (None without a tree).

    `slots` are the page's slot dicts (players, scores, state) keyed by their slot names.
    """
    tree, prefix = tree_of(view)
    if tree is None:
        return None
    by_slot = {s["slot"]: s for s in slots}
    matches, feeds = _placed_matches(tree, prefix, by_slot)
    plan = bl.layout(matches)
    if not plan.rows:
        return None
    drawn = [m for m in matches if m.drawn]
    round_keys = {m.slot: (group_of(m.slot, prefix), round_of(m.slot, prefix)) for m in drawn}
    heads = _round_heads(drawn, round_keys, plan, names_of_rounds(tree, prefix))
    tab_of, by_tab = _tabs(drawn, round_keys, plan)
    columns, words = [], _Words()
    for key, tab in tab_of.items():
        column, top, name = heads[key]
        columns.append({
            "tab": tab, "left": _x(column), "top": top, "name": name,
            "length": next((by_slot[s]["length"] for s in by_tab[tab] if by_slot[s].get("length")), None),
            "boxes": [_box(by_slot[slot], feeds[slot], prefix, _x(column), _y(plan.rows[slot]), tab, match_url, words)
                      for slot in by_tab[tab]],
        })
    lines = _lines(plan, slots)
    width = _x(plan.width) - COL_GAP
    crowned = _crowned(view, drawn, round_keys, tab_of, by_slot, plan, player_url)
    if crowned is not None:
        lines.append(crowned.pop("line"))
        width = crowned["left"] + BOX_W
    height = _y(plan.height) - (ROW_H - BOX_H)
    current = _current_tab(by_tab, by_slot)
    board = macros("bracket")
    return {"html": board.board(flight_pk, current, width, height, lines, columns, crowned),
            "tabs": board.tabs(columns), "current": current}


def _x(column) -> int:
    """The left edge of a column of boxes."""
    return column * COL_W


def _y(row) -> int:
    """The top of a box in a row (rows may be halves: a box sits between the two it comes from)."""
    return HEAD_H + round(row * ROW_H)


def _placed_matches(tree: Tree, prefix: str, by_slot: dict) -> tuple[list[bl.Match], dict[str, tuple]]:
    """Every match of the tree for the layout, in its column (the grand final after the other
    groups), and what feeds each of its two sides (kind and slot)."""
    group_rounds: dict[str, int] = {}
    for state in tree.states():
        group = group_of(prefix + state.node.slot, prefix)
        group_rounds[group] = max(group_rounds.get(group, 0), state.node.round_no)
    offset_gf = max((v for g, v in group_rounds.items() if g != "GF"), default=0)
    feeds: dict[str, tuple] = {}
    matches = []
    for state in tree.states():
        node = state.node
        slot = prefix + node.slot
        group = group_of(slot, prefix)
        column = node.round_no - 1 + (offset_gf if group == "GF" else 0)
        side_feeds = tuple((f.kind, prefix + f.ref if f.kind is not FeedKind.ENTRANT else None)
                           for f in node.feeds)
        feeds[slot] = side_feeds
        drawn = slot in by_slot and not by_slot[slot]["bye"]
        matches.append(bl.Match(
            slot, column, tuple(ref if kind is FeedKind.WINNER else None for kind, ref in side_feeds),
            drawn=drawn, group="L" if group == "L" else "W",
        ))
    return matches, feeds


def _round_heads(drawn: list[bl.Match], round_keys: dict, plan: bl.Layout,
                 names: dict[tuple[str, int], str]) -> dict[tuple[str, int], tuple[int, int, str]]:
    """Per (group, round) with a drawn box: its column, the top of its head and its name. The
    winners' heads are at the top; the losers' sit above their group."""
    column_of: dict[tuple[str, int], int] = {}
    losers_rows = []
    for m in drawn:
        key = round_keys[m.slot]
        column_of[key] = m.column
        if key[0] == "L":
            losers_rows.append(plan.rows[m.slot])
    losers_top = _y(min(plan.height, *losers_rows) if losers_rows else 0) - HEAD_H + 4
    return {(g, r): (col, 0 if g != "L" else losers_top, names.get((g, r), _("Round %(round)s") % {"round": r}))
            for (g, r), col in column_of.items()}


TAB_ORDER = {"": 0, "W": 0, "L": 1, "GF": 2}
"""On a phone each round of each group is a tab, numbered in reading order: winners' rounds,
losers' rounds, then the grand final."""


def _tabs(drawn: list[bl.Match], round_keys: dict, plan: bl.Layout) -> tuple[dict, dict[int, list[str]]]:
    """Each (group, round)'s tab, and each tab's drawn slots from the top down (a box's data-col is
    its tab)."""
    keys = sorted(set(round_keys.values()), key=lambda key: (TAB_ORDER.get(key[0], 3), key[1]))
    tab_of = {key: i for i, key in enumerate(keys)}
    by_tab: dict[int, list[str]] = {}
    for m in sorted(drawn, key=lambda m: (m.column, plan.rows[m.slot])):
        by_tab.setdefault(tab_of[round_keys[m.slot]], []).append(m.slot)
    return tab_of, by_tab


def _lines(plan: bl.Layout, slots: list[dict]) -> list[dict]:
    """The connector from each box to the side of the box its winner goes to, with that winner."""
    winners = {s["slot"]: s["winner"] for s in slots}
    lines = []
    for line in plan.lines:
        sx = _x(plan.columns[line.source]) + BOX_W
        sy = _y(plan.rows[line.source]) + LABEL_H + SIDE_H
        tx = _x(plan.columns[line.target])
        ty = _y(plan.rows[line.target]) + LABEL_H + SIDE_H // 2 + line.side * SIDE_H
        mid = tx - COL_GAP // 2
        lines.append({"d": f"M{sx} {sy}H{mid}V{ty}H{tx}", "p": winners.get(line.source)})
    return lines


def _crowned(view, drawn: list[bl.Match], round_keys: dict, tab_of: dict, by_slot: dict, plan: bl.Layout,
             player_url) -> dict | None:
    """The champion beside the final (the last drawn match of the last column, not a reset left
    unplayed), with the line that leads to him; None until there is one."""
    champion = view.champion if view is not None else None
    final = max(drawn, key=lambda m: m.column, default=None)
    if not champion or final is None:
        return None
    s = by_slot[final.slot]
    p = s["player_a"] if s["player_a"] and s["player_a"]["id"] == champion else s["player_b"]
    if not p:
        return None
    left = _x(plan.width)
    sx = _x(plan.columns[final.slot]) + BOX_W
    sy = _y(plan.rows[final.slot]) + LABEL_H + SIDE_H
    return {"tab": tab_of[round_keys[final.slot]], "left": left, "top": _y(plan.rows[final.slot]) + LABEL_H // 2,
            "url": player_url(p["id"]), "id": p["id"], "name": p["name"],
            "line": {"d": f"M{sx} {sy}H{left}", "p": champion}}


def _current_tab(by_tab: dict[int, list[str]], by_slot: dict) -> int:
    """The tab a phone opens on: the first with a match to play, else the first waiting for one,
    else the last."""
    return next((tab for tab in sorted(by_tab) if any(by_slot[s]["state"] == "ready" for s in by_tab[tab])),
                next((tab for tab in sorted(by_tab) if any(by_slot[s]["state"] == "pending" for s in by_tab[tab])),
                     max(by_tab)))


def flow_html(*, rounds: list[dict], plan: list[dict], player_url, match_url) -> dict:
    """A flight drawn round by round (consolation, last chance): the rounds drawn so far, then
    the rest of its skeleton as empty boxes saying where their players come from."""
    drawn = {c["round"]: c for c in rounds}
    numbers = sorted(set(drawn) | {p["round"] for p in plan})
    total = len(numbers)
    planned = {p["round"]: p for p in plan}
    columns, current, words = [], None, _Words()
    for i, number in enumerate(numbers):
        column = drawn.get(number)
        count = (sum(1 for s in column["slots"] if not s["bye"]) if column
                 else planned[number]["matches"] if number in planned else 0)
        left = total - 1 - i
        name = (_("Final") if left == 0 else _("Semi-finals") if left == 1 and count == 2
                else _("Quarter-finals") if left == 2 and count == 4 else _("Round %(round)s") % {"round": number})
        boxes, to_draw = [], []
        if column:
            boxes = [_box(s, ((None, None), (None, None)), "", None, None, i, match_url, words)
                     for s in column["slots"] if not s["bye"]]
        else:
            p = planned[number]
            sides = []  # the same two for every match of the round
            for side in (0, 1):
                if p["survivors"] and (side == 0 or not p["from"]):
                    sides.append(_("Winner from round %(round)s") % {"round": number - 1})
                elif p["from"]:
                    sides.append(_("Loser from %(flight)s") % {"flight": p["from"]})
                else:
                    sides.append(_("To be decided"))
            to_draw = [{"match": f"R{number}-{n}", "sides": sides} for n in range(1, p["matches"] + 1)]
        columns.append({"col": i, "name": name, "length": column["length"] if column else None,
                        "boxes": boxes, "planned": to_draw})
        if current is None and (not column or any(s["state"] in ("ready", "pending") for s in column["slots"])):
            current = i
    current = len(numbers) - 1 if current is None else current
    drawn = macros("bracket")
    return {"html": mark_safe(drawn.flow(columns, current)),
            "tabs": mark_safe(drawn.tabs([{"tab": c["col"], "name": c["name"]} for c in columns]))}


def _box(s, side_feeds, prefix, left, top, col, match_url, words: _Words) -> dict:
    """One match's box: where it goes, its label and what a screen reader says of it."""
    a, b = s["player_a"], s["player_b"]
    score = s["score"] or [None, None]
    status = s["status"]
    note = words.notes.get(status if status in ("playing", "walkover") else s["state"], "")
    slot = _label(s["slot"], prefix)
    label = slot
    if s.get("table"):
        label += " · " + words.table % {"table": s["table"]}
    if note:
        label += f" · {note}"
    words_a = _from_words(*side_feeds[0], prefix, words)
    words_b = _from_words(*side_feeds[1], prefix, words)
    said = words.said % {
        "match": slot, "player_a": a["name"] if a else words_a, "player_b": b["name"] if b else words_b}
    if s["score"]:
        said += f", {score[0]}–{score[1]}"
    elif note:
        said += f", {note}"
    return {
        "state": s["state"], "live": status == "playing", "id": s["id"],
        "href": match_url(s["match"]) if s["match"] else f"#{s['id']}",
        "col": col, "ids": " ".join(str(p["id"]) for p in (a, b) if p), "left": left, "top": top,
        "said": said, "label": label,
        "sides": ({"player": a, "score": score[0], "won": bool(a and s["winner"] == a["id"]), "words": words_a},
                  {"player": b, "score": score[1], "won": bool(b and s["winner"] == b["id"]), "words": words_b}),
    }
