"""What every page's menu needs to know about the login."""

from functools import cache

from . import permissions


def desk_link(request):
    """`runs_events`: the "TD desk" link is for site admins and the organisers of an event. Asked
    only where the menu shows it (a logged-in page)."""
    user = getattr(request, "user", None)

    @cache
    def runs_events() -> bool:
        if user is None or not user.is_authenticated:
            return False
        return permissions.runs_events(user)

    return {"runs_events": runs_events}
