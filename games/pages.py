"""What the apps built on games show on its match pages, without games knowing them.

The match page, the score sheet desk and the replay belong to games; a match's event
(tournaments), its rating changes (ratings) and GNU Backgammon's analysis (analysis) appear on
them through what those apps register when they start (`AppConfig.ready`), in the order they
register, as the writes of a kept match do (`games.keepers`). Games' templates load no tag of
theirs (tests/test_layering.py reads every `{% load %}`).

- `match_context_register(read)`: `read(match)` gives template variables for the match pages
  (tournaments: `pairing`, the pairing the match decides, or None);
- `match_panel_register(place, render)`: `render(match)` gives HTML for the match page at
  `place`, "after_sheet" (below the score sheet) or "end" (the foot of the page);
- `replay_notes_register(read)`: `read(match, game_number)` gives HTML notes by replay frame.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.safestring import SafeString, mark_safe

PLACES = ("after_sheet", "end")

CONTEXTS: list[Callable] = []
PANELS: list[tuple[str, Callable]] = []
REPLAY_NOTES: list[Callable] = []


def _register(registry: list, item) -> None:
    if item not in registry:
        registry.append(item)


def match_context_register(read: Callable) -> None:
    """`read(match)` -> a dict of template variables for games' match pages."""
    _register(CONTEXTS, read)


def match_panel_register(place: str, render: Callable) -> None:
    """`render(match)` -> HTML shown at `place` of the match page (one of `PLACES`)."""
    if place not in PLACES:
        raise ValueError(f"A match page has no place {place!r}: {', '.join(PLACES)}.")
    _register(PANELS, (place, render))


def replay_notes_register(read: Callable) -> None:
    """`read(match, game_number)` -> {replay frame index: HTML} for the replay of one game."""
    _register(REPLAY_NOTES, read)


def match_context(match) -> dict:
    """The template variables the apps built on games give the match pages."""
    context = {}
    for read in CONTEXTS:
        context.update(read(match))
    return context


def match_panels(match) -> dict[str, SafeString]:
    """The HTML of each place of the match page."""
    panels = {place: [] for place in PLACES}
    for place, render in PANELS:
        panels[place].append(render(match))
    return {place: mark_safe("".join(parts)) for place, parts in panels.items()}  # noqa: S308 (rendered templates)


def replay_notes(match, game_number: int) -> dict[int, SafeString]:
    """The notes of each replay frame of one game."""
    notes: dict[int, list[str]] = {}
    for read in REPLAY_NOTES:
        for frame, html in read(match, game_number).items():
            notes.setdefault(frame, []).append(html)
    return {frame: mark_safe("".join(parts)) for frame, parts in notes.items()}  # noqa: S308
