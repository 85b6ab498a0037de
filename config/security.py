"""Brute force: where a request comes from, and a token authentication that slows down guessing.

Logins on the page and in the admin are guarded by django-axes (settings `AXES_*`); the API's
token authentication by `ThrottledTokenAuthentication`: wrong tokens count against the address
they come from, and past the `failed_auth` rate every token from there answers 429 until the
window has passed.
"""

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.throttling import SimpleRateThrottle


class LoginLockoutBackend(AxesStandaloneBackend):
    """django-axes' check before the password is looked at. A login without a request (code that
    calls `authenticate()` itself, the test client's `login()`) comes from no address and is not
    counted; every login over the network (the login page, the admin) has one."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or behind `NUM_PROXIES` trusted proxies the address
    the outermost of them saw (X-Forwarded-For read from the right: a client may prepend lies)."""
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.NUM_PROXIES and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(settings.NUM_PROXIES, len(hops))]
    return remote


class FailedAuthThrottle(SimpleRateThrottle):
    """Counts wrong credentials per client address (rate `failed_auth`)."""

    scope = "failed_auth"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}

    def _window(self, request) -> list[float]:
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        self.history = [moment for moment in self.cache.get(self.key, []) if moment > self.now - self.duration]
        return self.history

    def exhausted(self, request) -> bool:
        return len(self._window(request)) >= self.num_requests

    def record_failure(self, request) -> None:
        self._window(request)
        self.throttle_success()


class ThrottledTokenAuthentication(TokenAuthentication):
    """`Authorization: Token …`, refused with 429 for an address that sent too many wrong ones."""

    def authenticate(self, request):
        if not self.authenticate_header_present(request):
            return None
        throttle = FailedAuthThrottle()
        if throttle.exhausted(request):
            raise exceptions.Throttled(throttle.wait(), detail=(
                "Too many wrong tokens from your address: wait a while before trying again."))
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            throttle.record_failure(request)
            raise

    def authenticate_header_present(self, request) -> bool:
        return bool(request.META.get("HTTP_AUTHORIZATION", "").strip())
