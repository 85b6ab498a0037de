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
    names = names_of_rounds(tree, prefix)
    feeds: dict[str, tuple] = {}
    matches = []
    group_rounds: dict[str, int] = {}
    for state in tree.states():
        slot = prefix + state.node.slot
        group = group_of(slot, prefix)
        group_rounds[group] = max(group_rounds.get(group, 0), state.node.round_no)
    offset_gf = max((v for g, v in group_rounds.items() if g != "GF"), default=0)
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
    plan = bl.layout(matches)
    if not plan.rows:
        return None
    top_of_group: dict[str, float] = {}
    for m in matches:
        if m.drawn:
            g = group_of(m.slot, prefix)
            g = "L" if g == "L" else "W"
            top_of_group[g] = min(top_of_group.get(g, plan.height), plan.rows[m.slot])

    def x(col):
        return col * COL_W

    def y(row):
        return HEAD_H + round(row * ROW_H)

    columns: dict[tuple[str, int], int] = {}  # (group, round) -> column, for the heads and tabs
    for m in matches:
        if m.drawn:
            g = group_of(m.slot, prefix)
            columns[(g, round_of(m.slot, prefix))] = m.column
    champion = view.champion if view is not None else None
    heads = []
    # Round heads: one per (group, round) with a drawn box; the losers' heads sit above their group.
    for (g, r), col in sorted(columns.items(), key=lambda kv: (kv[1], kv[0][0] != "W")):
        name = names.get((g, r), _("Round %(round)s") % {"round": r})
        top = 0 if g != "L" else y(top_of_group.get("L", 0)) - HEAD_H + 4
        heads.append((col, top, name, g, r))
    # On a phone each round of each group is a tab (numbered in reading order: winners' rounds,
    # losers' rounds, then the grand final); a box's data-col is its tab.
    order = {"": 0, "W": 0, "L": 1, "GF": 2}
    tab_keys = sorted(columns, key=lambda key: (order.get(key[0], 3), key[1]))
    tab_of = {key: i for i, key in enumerate(tab_keys)}
    by_tab: dict[int, list[str]] = {}
    for m in sorted((m for m in matches if m.drawn), key=lambda m: (m.column, plan.rows[m.slot])):
        key = (group_of(m.slot, prefix), round_of(m.slot, prefix))
        by_tab.setdefault(tab_of[key], []).append(m.slot)
    drawn_columns, words = [], _Words()
    for (g, r) in tab_keys:
        tab = tab_of[(g, r)]
        col, top, name = next((hc, ht, hn) for hc, ht, hn, hg, hr in heads if (hg, hr) == (g, r))
        drawn_columns.append({
            "tab": tab, "left": x(col), "top": top, "name": name,
            "length": next((by_slot[s]["length"] for s in by_tab[tab] if by_slot[s].get("length")), None),
            "boxes": [_box(by_slot[slot], feeds[slot], prefix, x(col), y(plan.rows[slot]), tab, match_url, words)
                      for slot in by_tab[tab]],
        })
    # The final: the last drawn match of the last column that is not a reset left unplayed.
    roots = sorted((m for m in matches if m.drawn), key=lambda m: -m.column)
    final_slot = roots[0].slot if roots else None
    width = x(plan.width) - COL_GAP
    lines = []
    winners = {s["slot"]: s["winner"] for s in slots}
    for line in plan.lines:
        sx = x(plan.columns[line.source]) + BOX_W
        sy = y(plan.rows[line.source]) + LABEL_H + SIDE_H
        tx = x(plan.columns[line.target])
        ty = y(plan.rows[line.target]) + LABEL_H + SIDE_H // 2 + line.side * SIDE_H
        mid = tx - COL_GAP // 2
        lines.append({"d": f"M{sx} {sy}H{mid}V{ty}H{tx}", "p": winners.get(line.source)})
    crowned = None
    if champion and final_slot:
        s = by_slot[final_slot]
        p = s["player_a"] if s["player_a"] and s["player_a"]["id"] == champion else s["player_b"]
        if p:
            left = x(plan.width)
            sx = x(plan.columns[final_slot]) + BOX_W
            sy = y(plan.rows[final_slot]) + LABEL_H + SIDE_H
            lines.append({"d": f"M{sx} {sy}H{left}", "p": champion})
            crowned = {"tab": tab_of[(group_of(final_slot, prefix), round_of(final_slot, prefix))],
                       "left": left, "top": y(plan.rows[final_slot]) + LABEL_H // 2,
                       "url": player_url(p["id"]), "id": p["id"], "name": p["name"]}
            width = left + BOX_W
    height = y(plan.height) - (ROW_H - BOX_H)
    current = next((tab for tab in sorted(by_tab) if any(by_slot[s]["state"] == "ready" for s in by_tab[tab])),
                   next((tab for tab in sorted(by_tab) if any(by_slot[s]["state"] == "pending" for s in by_tab[tab])),
                        max(by_tab)))
    drawn = macros("bracket")
    return {"html": drawn.board(flight_pk, current, width, height, lines, drawn_columns, crowned),
            "tabs": drawn.tabs(drawn_columns), "current": current}


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
