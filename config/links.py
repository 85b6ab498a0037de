"""The addresses of this site that e-mails carry."""

from django.conf import settings


def site_url(path: str) -> str:
    """`path` (from `reverse`) on the address players open the site at (`SITE_URL`). Every e-mail's
    links are made here, whether a page or a background task sends it, so they all start the same
    way whatever host a request came in on (a sign-up behind a proxy, a result mailed by the worker)."""
    return settings.SITE_URL + path
