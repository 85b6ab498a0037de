"""The name a login shows to others: the one its person chose, else his player's name, else a
neutral title for what he did. A login name is never shown to anyone but its owner.

The chosen name (`PublicName`) and the player a login acts for (`PlayerAccount`) are kept by the
events app; this reads them through the login's reverse relations, so that every app (ratings
too, which must not import the events) names people the same way.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext_lazy

DIRECTOR_FALLBACK = gettext_lazy("Tournament director")
"""Shown for a director who chose no name and plays under no player record (in the reader's language)."""

RATING_OFFICE = gettext_lazy("Rating officer")
"""Shown for whoever published a rating list or adopted parameters without choosing a name."""

SHOWN_NAME_RELATED = ("public_name", "player_account__player")
"""What to `select_related` (prefixed with the login's field) to name logins without a query each."""


def public_name(user, fallback=DIRECTOR_FALLBACK) -> str:
    """The name `user` shows in public: his chosen name, else his player's name, else `fallback` (a
    title, in the reader's language).
    Reads `public_name` and `player_account__player` (fetch them with a list)."""
    for attribute in ("public_name", "player_account"):
        try:
            related = getattr(user, attribute, None)
        except ObjectDoesNotExist:
            continue
        if related is None:
            continue
        text = related.player.name if attribute == "player_account" else related.name
        if text:
            return text
    return str(fallback)


def related_names(field: str) -> list[str]:
    """`select_related` paths that name the login in `field` (`published_by`, `history_user`, ...)."""
    return [f"{field}__{path}" for path in SHOWN_NAME_RELATED]
