"""Names of the permissions the games API asks about a match.

Who holds them is decided elsewhere (an authentication backend such as the events' roles in
`tournaments.permissions.EventRolesBackend`); staff who are superusers hold every permission.
"""

# Who changed a match and why (the audit trail's `by` and `reason`).
VIEW_MATCH_PRIVATE = "games.view_match_private"
