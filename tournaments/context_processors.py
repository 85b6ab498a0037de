"""What every page's menu needs to know about the login."""

from functools import cache

from .models import Tournament


def desk_link(request):
    """`runs_events`: the "TD desk" link is for staff and the organisers of an event. Asked only
    where the menu shows it (a logged-in page): one EXISTS query, none for staff."""
    user = getattr(request, "user", None)

    @cache
    def runs_events() -> bool:
        if user is None or not user.is_authenticated:
            return False
        return user.is_staff or Tournament.objects.filter(organisers=user).exists()

    return {"runs_events": runs_events}
