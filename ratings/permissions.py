"""Who may do what with ratings: rating officers (and site admins) publish official lists and ask
for recomputes; everyone reads. Roles, and who imports history, are in `games.permissions`."""

from games.permissions import is_rating_officer


def may_publish_rating_list(user) -> bool:
    return is_rating_officer(user)


def may_recompute(user) -> bool:
    return is_rating_officer(user)


def may_adopt_rating_parameters(user) -> bool:
    """Adopting fitted parameters reruns every rating: a rating officer's or a site admin's decision."""
    return is_rating_officer(user)


def may_import_ratings(user) -> bool:
    """Another list's ratings become players' starts and rerun every rating: a rating officer's or a site admin's."""
    return is_rating_officer(user)
