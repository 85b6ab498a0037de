"""Brute force: where a request comes from, and a token authentication that slows down guessing.

Logins on the page and in the admin are guarded by django-axes (settings `AXES_*`); the API's
token authentication by `ThrottledTokenAuthentication`: wrong tokens count against the address
they come from, and past the `failed_auth` rate every wrong token from there answers 429 until
the window has passed (a valid token is never refused for someone else's mistakes).
"""

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _
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


def login_failure_limit(request, credentials) -> int:
    """How many wrong passwords in a row lock a user name out from the address they came from
    (django-axes' `AXES_FAILURE_LIMIT`): `LOGIN_FAILURE_LIMIT`, or `AXES_SPRAY_FAILURE_LIMIT` once
    that address has got wrong passwords for `AXES_SPRAY_LIMIT` other names within the cool-off.

    A guesser going through many names is slowed name by name; the address itself is never locked,
    so the other players of a venue, who share its address, still log in with their passwords."""
    username = (credentials or {}).get("username") if isinstance(credentials, dict) else None
    if request is not None and spraying(request, username):
        return settings.AXES_SPRAY_FAILURE_LIMIT
    return settings.LOGIN_FAILURE_LIMIT


def spraying(request, username) -> bool:
    """Has this client got wrong passwords for `AXES_SPRAY_LIMIT` different user names (other
    than `username`) within the cool-off? Read from django-axes' own record of failed attempts."""
    from axes.models import AccessAttempt
    from django.utils import timezone

    since = timezone.now() - settings.AXES_COOLOFF_TIME
    names = (AccessAttempt.objects.filter(ip_address=client_ip(request), attempt_time__gte=since)
             .exclude(username=username or "").values("username").distinct())
    return names[:settings.AXES_SPRAY_LIMIT].count() >= settings.AXES_SPRAY_LIMIT


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
        """A valid token is always taken, whatever others sent from the same address; a wrong one
        counts against the address, and past the rate is answered 429 instead of 403."""
        if not self.authenticate_header_present(request):
            return None
        throttle = FailedAuthThrottle()
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            if throttle.exhausted(request):
                raise exceptions.Throttled(throttle.wait(), detail=(
                    str(_("Too many wrong tokens from your address: wait a while before trying again.")))) from None
            throttle.record_failure(request)
            raise

    def authenticate_header_present(self, request) -> bool:
        return bool(request.META.get("HTTP_AUTHORIZATION", "").strip())


# -- e-mails sent on request of someone not logged in ---------------------------------------------

MAIL_LIMIT_REFUSAL = "Too many e-mails were asked for from your address: try again in an hour."


def _rate(text: str) -> tuple[int, int]:
    """`"3/hour"` → (3, 3600); the period is second, minute, hour or day (its first letter counts)."""
    count, period = text.split("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period.strip()[0]]


def _within(key: str, rate: str) -> bool:
    """Count one more use of `key`; False when that passes `rate`. A fixed window in the cache (one
    process: memory; several: CACHE_URL), so the count is shared by every web process."""
    from django.core.cache import cache

    limit, seconds = _rate(rate)
    cache.add(key, 0, seconds)
    try:
        used = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.add(key, 1, seconds)
        used = 1
    return used <= limit


def mail_allowed(request, *, purpose: str, address: str) -> str:
    """May an e-mail of `purpose` (sign-up, password reset) go to `address` on this request?
    "" when it may; "client" when this client asked for too many (rate `MAIL_RATE_PER_CLIENT`);
    "address" when that address had too many (`MAIL_RATE_PER_ADDRESS`). Each call counts."""
    client = client_ip(request)
    if not _within(f"mail:{purpose}:client:{client}", settings.MAIL_RATE_PER_CLIENT):
        return "client"
    if not _within(f"mail:{purpose}:address:{address.strip().lower()}", settings.MAIL_RATE_PER_ADDRESS):
        return "address"
    return ""


class LoginForm(AuthenticationForm):
    """Django's login form, with the user name's length enforced before any password is checked:
    the stock form only sets `max_length` on the widget, so a name of thousands of characters
    reached the login-failure record (a 500 on PostgreSQL)."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        if field.max_length and not any(isinstance(v, MaxLengthValidator) for v in field.validators):
            field.validators.append(MaxLengthValidator(field.max_length))


# -- the codes on match slips, typed by someone not logged in --------------------------------------

SLIP_CODE_REFUSAL = {
    "client": _("Too many wrong codes were typed from your device: wait an hour, or ask the TD to enter the"
                " result."),
    "pairing": _("Too many wrong codes were typed for this match from your device: wait an hour, or ask the TD"
                 " to enter the result."),
}


def _slip_keys(request, pairing_id: int) -> dict[str, tuple[str, str]]:
    """What a wrong code counts against: this client in this match, and this client on every match.
    Never the match alone: a stranger's wrong codes would then lock out its players' right ones.
    Guessing stays hopeless: a client tries at most `SLIP_CODE_RATE_PER_CLIENT` codes an hour
    against two codes among 26⁶."""
    client = client_ip(request)
    return {"pairing": (f"slipcode:pairing:{pairing_id}:{client}", settings.SLIP_CODE_RATE_PER_PAIRING),
            "client": (f"slipcode:client:{client}", settings.SLIP_CODE_RATE_PER_CLIENT)}


def slip_code_blocked(request, *, pairing_id: int) -> str:
    """May a slip code be tried for this match from this client now? "" when it may; "pairing"
    when this client typed too many wrong codes for this match (`SLIP_CODE_RATE_PER_PAIRING`),
    "client" when it typed too many on any matches (`SLIP_CODE_RATE_PER_CLIENT`). Counts nothing:
    `slip_code_failed` does."""
    from django.core.cache import cache

    for what, (key, rate) in _slip_keys(request, pairing_id).items():
        if (cache.get(key) or 0) >= _rate(rate)[0]:
            return what
    return ""


def slip_code_failed(request, *, pairing_id: int) -> None:
    """Count a wrong code against this client, in this match and in all (a fixed window in the
    shared cache)."""
    for key, rate in _slip_keys(request, pairing_id).values():
        _within(key, rate)
