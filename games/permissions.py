"""Who may do what with players and matches, and the roles every app shares.

Roles are Django groups (made by `tournaments.migrations.0011_roles_groups`):

- site admin: may do everything (a superuser is one too);
- rating officer: publishes official rating lists and imports history; rules on no result;
- tournament director: may create events; he is TD of the events he organises, and of no other;
- player: a login linked to a player record.

The site admin and rating officer groups give their rights to staff logins (those that may open
Django's admin site), so that an ordinary login costs no group lookup; `is_staff` alone gives no
right of its own. The TDs of an event
hold object permissions on its matches through `tournaments.permissions.EventRolesBackend`, since
this app must not know events.
"""

from __future__ import annotations

SITE_ADMIN = "Site admin"
RATING_OFFICER = "Rating officer"
TOURNAMENT_DIRECTOR = "Tournament director"
PLAYER = "Player"
ROLES = (SITE_ADMIN, RATING_OFFICER, TOURNAMENT_DIRECTOR, PLAYER)

# Who changed a match and why (the audit trail's `by` and `reason`).
VIEW_MATCH_PRIVATE = "games.view_match_private"
# Enter, correct or forfeit the games of a match directly (not as a report by one of its players).
ENTER_MATCH_RESULTS = "games.enter_match_results"
# Add a player record as the TD of an event (granted by tournaments' roles backend, no object).
CREATE_PLAYERS = "games.create_players"


def roles_of(user) -> frozenset[str]:
    """The role groups of a login (one query, kept on the user object for the request)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return frozenset()
    if not hasattr(user, "_crawford_roles"):
        user._crawford_roles = frozenset(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    return user._crawford_roles


def is_site_admin(user) -> bool:
    """A superuser, or a staff login (one that may open the admin site) in the site admin group."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or (user.is_staff and SITE_ADMIN in roles_of(user))


def is_rating_officer(user) -> bool:
    """A site admin, or a staff login in the rating officer group."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or (user.is_staff and bool({SITE_ADMIN, RATING_OFFICER} & roles_of(user)))


def may_enter_results(user, match) -> bool:
    """Site admins any match; a TD the matches of his own events."""
    if is_site_admin(user):
        return True
    return bool(user is not None and user.is_authenticated and user.has_perm(ENTER_MATCH_RESULTS, match))


def may_create_match(user) -> bool:
    """A match outside any event (a club's money session, history typed in): site admins."""
    return is_site_admin(user)


def may_create_players(user) -> bool:
    """Add a player record: site admins and rating officers, and the TD of any event (who enters a
    newcomer at his desk or through the API); asked by `services.player_create` for every caller."""
    if is_rating_officer(user):
        return True
    return bool(user is not None and user.is_authenticated and user.is_active and user.has_perm(CREATE_PLAYERS))


def may_edit_players(user) -> bool:
    """Change player records directly: site admins and rating officers."""
    return is_rating_officer(user)


def may_delete_players(user) -> bool:
    """Delete a player record (one without results: a player who played is never deleted): site
    admins only; a rating officer adds and changes records but removes none."""
    return is_site_admin(user)


def may_import_history(user) -> bool:
    """Match files and results CSVs (history that feeds the ratings): site admins and rating officers."""
    return is_rating_officer(user)


def api_door(rule):
    """The API's permission class for `rule(user)`, so that a view names the rule it applies and
    no view writes its own."""
    from rest_framework.permissions import BasePermission

    class Door(BasePermission):
        def has_permission(self, request, view):
            return rule(request.user)

    Door.__name__ = Door.__qualname__ = f"May{rule.__name__.title().replace('_', '')}"
    return Door
