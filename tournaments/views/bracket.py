"""A knockout drawn as HTML boxes over an SVG of connector lines, from `bracket_layout`.

Built in Python (not a template loop): a 256-player bracket has 255 boxes and as many lines.
The boxes are absolutely placed on a wide screen; on a phone the stylesheet lays one round at a
time as a list, chosen with the round tabs above it.
"""

from __future__ import annotations

import html

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .. import bracket_layout as bl
from ..formats._tree import FeedKind, Tree


def escape(text) -> SafeString:
    """`django.utils.html.escape` (the same characters, the same entities) without its lazy-string
    wrapper, which costs more than the escaping itself over the thousands of names of a bracket."""
    return SafeString(html.escape(str(text)))


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


def _from_words(kind: FeedKind | None, ref: str | None, prefix: str) -> str:
    if kind is FeedKind.WINNER and ref:
        return _("Winner of %(match)s") % {"match": _label(ref, prefix)}
    if kind is FeedKind.LOSER and ref:
        return _("Loser of %(match)s") % {"match": _label(ref, prefix)}
    return _("To be decided")


def _side(p: dict | None, score, won: bool, waiting_words: str, player_url) -> str:
    if p is None:
        return f'<span class="bk-side tbd"><span class="nm">{escape(waiting_words)}</span></span>'
    seed = f'<span class="sd">{p["seed"]}</span>' if p.get("seed") else '<span class="sd"></span>'
    sc = "" if score is None else score
    return (f'<span class="bk-side{" won" if won else ""}" data-p="{p["id"]}">{seed}'
            f'<span class="nm">{escape(p["name"])}</span><span class="sc">{sc}</span></span>')


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
    parts = []
    heads = []
    tabs = []
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
    for (g, r) in tab_keys:
        tab = tab_of[(g, r)]
        col, top, name = next((hc, ht, hn) for hc, ht, hn, hg, hr in heads if (hg, hr) == (g, r))
        slot_len = next((by_slot[s]["length"] for s in by_tab[tab] if by_slot[s].get("length")), None)
        length = f' <span class="ln">{escape(_("%(length)s pt") % {"length": slot_len})}</span>' if slot_len else ""
        parts.append(f'<h4 class="bk-head" data-col="{tab}" style="left:{x(col)}px;top:{top}px">'
                     f'{escape(name)}{length}</h4>')
        for slot in by_tab[tab]:
            s = by_slot[slot]
            parts.append(_box_html(s, feeds[slot], prefix, x(col), y(plan.rows[slot]), tab, match_url, player_url))
        tabs.append((tab, name))
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
        who = winners.get(line.source)
        data = f' data-p="{who}"' if who else ""
        lines.append(f'<path d="M{sx} {sy}H{mid}V{ty}H{tx}"{data}/>')
    if champion and final_slot:
        s = by_slot[final_slot]
        p = s["player_a"] if s["player_a"] and s["player_a"]["id"] == champion else s["player_b"]
        if p:
            left = x(plan.width)
            top = y(plan.rows[final_slot]) + LABEL_H // 2
            sx = x(plan.columns[final_slot]) + BOX_W
            sy = y(plan.rows[final_slot]) + LABEL_H + SIDE_H
            lines.append(f'<path d="M{sx} {sy}H{left}" data-p="{champion}"/>')
            final_tab = tab_of[(group_of(final_slot, prefix), round_of(final_slot, prefix))]
            parts.append(f'<div class="bk-champion" data-col="{final_tab}" style="left:{left}px;top:{top}px">'
                         f'<span class="bk-trophy" aria-hidden="true">★</span> <span>Champion</span> '
                         f'<a href="{player_url(p["id"])}" data-p="{p["id"]}">{escape(p["name"])}</a></div>')
            width = left + BOX_W
    height = y(plan.height) - (ROW_H - BOX_H)
    svg = (f'<svg class="bk-lines" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'aria-hidden="true" focusable="false">{"".join(lines)}</svg>')
    current = next((tab for tab in sorted(by_tab) if any(by_slot[s]["state"] == "ready" for s in by_tab[tab])),
                   next((tab for tab in sorted(by_tab) if any(by_slot[s]["state"] == "pending" for s in by_tab[tab])),
                        max(by_tab)))
    tab_html = "".join(
        f'<button type="button" class="bk-tab" data-col="{col}" aria-pressed="false">{escape(name)}</button>'
        for col, name in tabs)
    board = (f'<div class="bk" id="bk-{flight_pk}" data-current="{current}" data-keep="data-show" '
             f'style="width:{width}px;height:{height}px">{svg}{"".join(parts)}</div>')
    return {"html": board, "tabs": tab_html, "current": current}


def flow_html(*, rounds: list[dict], plan: list[dict], player_url, match_url) -> dict:
    """A flight drawn round by round (consolation, last chance): the rounds drawn so far, then
    the rest of its skeleton as empty boxes saying where their players come from."""
    drawn = {c["round"]: c for c in rounds}
    numbers = sorted(set(drawn) | {p["round"] for p in plan})
    total = len(numbers)
    planned = {p["round"]: p for p in plan}
    out, tabs, current = [], [], None
    for i, number in enumerate(numbers):
        column = drawn.get(number)
        count = (sum(1 for s in column["slots"] if not s["bye"]) if column
                 else planned[number]["matches"] if number in planned else 0)
        left = total - 1 - i
        name = (_("Final") if left == 0 else _("Semi-finals") if left == 1 and count == 2
                else _("Quarter-finals") if left == 2 and count == 4 else _("Round %(round)s") % {"round": number})
        length = column["length"] if column else None
        head = escape(name) + (f" <span class=ln>{escape(_('%(length)s pt') % {'length': length})}</span>" if length else "")
        boxes = []
        if column:
            for s in column["slots"]:
                if s["bye"]:
                    continue
                boxes.append(_box_html(s, ((None, None), (None, None)), "", None, None, i, match_url, player_url))
        else:
            p = planned[number]
            for n in range(1, p["matches"] + 1):
                words = []
                for side in (0, 1):
                    if p["survivors"] and (side == 0 or not p["from"]):
                        words.append(_("Winner from round %(round)s") % {"round": number - 1})
                    elif p["from"]:
                        words.append(_("Loser from %(flight)s") % {"flight": p["from"]})
                    else:
                        words.append(_("To be decided"))
                boxes.append(
                    f'<div class="bk-box pending" data-col="{i}"><span class="bk-label">R{number}-{n} · to be drawn'
                    f'</span><span class="bk-side tbd"><span class="nm">{escape(words[0])}</span></span>'
                    f'<span class="bk-side tbd"><span class="nm">{escape(words[1])}</span></span></div>')
        out.append(f'<div class="bk-col" data-col="{i}"><h4 class="bk-head">{head}</h4>{"".join(boxes)}</div>')
        tabs.append(f'<button type="button" class="bk-tab" data-col="{i}" aria-pressed="false">{escape(name)}</button>')
        if current is None and (not column or any(s["state"] in ("ready", "pending") for s in column["slots"])):
            current = i
    current = len(numbers) - 1 if current is None else current
    return {"html": mark_safe(f'<div class="bk bk-flow" data-current="{current}">{"".join(out)}</div>'),
            "tabs": mark_safe("".join(tabs))}


def _box_html(s, side_feeds, prefix, left, top, col, match_url, player_url) -> str:
    a, b = s["player_a"], s["player_b"]
    href = match_url(s["match"]) if s["match"] else f"#{escape(s['id'])}"
    score = s["score"] or [None, None]
    status = s["status"]
    note = ("playing" if status == "playing" else "walkover" if status == "walkover"
            else "to play" if s["state"] == "ready" else "")
    table = f" · table {escape(s['table'])}" if s.get("table") else ""
    label = f'{escape(_label(s["slot"], prefix))}{table}{f" · {note}" if note else ""}'
    words_a = _from_words(*side_feeds[0], prefix)
    words_b = _from_words(*side_feeds[1], prefix)
    said = f"{_label(s['slot'], prefix)}: {a['name'] if a else words_a} v {b['name'] if b else words_b}"
    if s["score"]:
        said += f", {score[0]}–{score[1]}"
    elif note:
        said += f", {note}"
    won_a = bool(a and s["winner"] == a["id"])
    won_b = bool(b and s["winner"] == b["id"])
    ids = " ".join(str(p["id"]) for p in (a, b) if p)
    place = f' style="left:{left}px;top:{top}px"' if left is not None else ""
    return (f'<a class="bk-box {s["state"]}{" live" if status == "playing" else ""}" id="box-{escape(s["id"])}" '
            f'href="{href}" '
            f'data-col="{col}" data-ps="{ids}"{place} aria-label="{escape(said)}">'
            f'<span class="bk-label">{label}</span>'
            f'{_side(a, score[0], won_a, words_a, player_url)}{_side(b, score[1], won_b, words_b, player_url)}</a>')
