"""Which rating systems this site computes and shows, and which one stands for a player."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from config.languages import list_join

from ..models import SystemChoice
from ..systems import SYSTEMS


def enabled_systems() -> list[str]:
    """The systems this site computes and shows: fibs and crawford, and skill (crawford,
    luck-adjusted) where `RATINGS_LUCK_ADJUSTED` is on."""
    return [name for name in SYSTEMS if settings.RATINGS_LUCK_ADJUSTED or name != SystemChoice.SKILL]


def system_labels() -> dict[str, str]:
    """Each enabled system's name and label, in the order the pages show them."""
    labels = dict(SystemChoice.choices)
    return {name: labels[name] for name in enabled_systems()}


def default_system() -> str:
    """The system the site shows where one rating stands for a player (the rating list, the TD's
    desk, seeding by rating): `RATINGS_DEFAULT_SYSTEM` when it is enabled, else crawford."""
    wanted = settings.RATINGS_DEFAULT_SYSTEM
    return wanted if wanted in enabled_systems() else SystemChoice.CRAWFORD.value


def system_names(system: str | None = None) -> list[str]:
    """The systems a request is about: the one named, or all enabled. Raises `ValidationError`
    on a name no system goes by, or one this site does not compute."""
    enabled = enabled_systems()
    if system in (None, "", "all"):
        return enabled
    if system not in SYSTEMS:
        known = list_join(sorted(enabled))
        raise ValidationError({"system": [_("no rating system is called %(name)s; known systems: %(known)s")
                                          % {"name": repr(system), "known": known}]})
    if system not in enabled:
        raise ValidationError({"system": [_("the rating system %(name)s is not enabled on this site")
                                          % {"name": repr(system)}]})
    return [system]
