"""The language each person reads Crawford in.

Chosen, in this order: the choice a logged-in person made (kept with his login, `LanguagePreference`),
the choice a visitor made with the menu at the foot of every page (a cookie), the languages his
browser asks for (Accept-Language), English. The API answers in the language its request asks for
(Accept-Language) before any other. A code that is not one of settings.LANGUAGES, wherever it comes
from, counts as no choice: English, never an error page.

E-mails go out in the recipient's language (`language_of`, `in_language_of`), whoever or whatever
sends them (a page, a background task). The reasons Crawford writes into an audit trail are in the
site's own language (`in_site_language`).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

CATALOG_SETTINGS = frozenset({"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "USE_I18N"})
"""The settings a change of which (a test's `settings` fixture) makes every translation kept by
language stale: the language menu's, `{% translate %}`'s (config/i18n_tags.py) and Jinja2's
(tournaments/templating.py)."""

SESSION_KEY = "crawford_language"
"""Where a logged-in person's choice is kept for his session (read without a query on each page)."""


def supported(code) -> str | None:
    """`code` if it is one of the shipped languages (its case ignored), else None."""
    if not isinstance(code, str) or not code or len(code) > 16:
        return None
    code = code.strip().lower()
    return code if code in dict(settings.LANGUAGES) else None


def language_of(user) -> str:
    """The language to write to `user` in: the one he chose, else English (the site's own)."""
    if user is None or not getattr(user, "pk", None):
        return settings.LANGUAGE_CODE
    from .models import LanguagePreference

    try:
        code = user.language_preference.code
    except (LanguagePreference.DoesNotExist, AttributeError):
        return settings.LANGUAGE_CODE
    return supported(code) or settings.LANGUAGE_CODE


def in_site_language(message, values: dict | None = None) -> str:
    """`message` (an English message marked with `gettext_noop`, or with `ngettext_lazy` and the name
    of its count in `values` for a plural) in the site's own language (settings.LANGUAGE_CODE), its
    placeholders filled from `values`: the words Crawford writes into an audit trail ("undone at the
    desk", "3 games imported from a match file").

    A trail is a record, kept as written and shown as kept (the admin's history, the API's history
    of a match): the reason a TD typed is data, and Crawford's own words are often joined to it or
    to a name in one line ("Main R2-1 undone by a correction upstream"), which no reader could
    take apart again to translate. So they are written once, in the language of the club that
    runs the site, whoever clicked and in whatever language he reads (a background task, too).
    """
    with translation.override(settings.LANGUAGE_CODE):
        text = translation.gettext(message) if isinstance(message, str) else message
        return str(text % values if values else text)


def list_join(items) -> str:
    """Names, numbers or phrases of one sentence as a list in the active language: "Anne, Bo" in
    English, "アン、ボー" in Japanese, "آن، بو" in Arabic. For what a person reads; ids in a file, a
    log or SQL keep their own separator."""
    return pgettext("list separator", ", ").join(str(item) for item in items)


@contextmanager
def in_language_of(user):
    """Render what is inside (an e-mail's subject and body) in `user`'s language."""
    with translation.override(language_of(user)):
        yield


def language_store(*, user, code: str) -> str:
    """Keep `code` as `user`'s language (a shipped one; anything else raises ValueError)."""
    from .models import LanguagePreference

    chosen = supported(code)
    if chosen is None:
        raise ValueError(code)
    LanguagePreference.objects.update_or_create(user=user, defaults={"code": chosen})
    return chosen


def _from_header(request) -> str | None:
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    if not header or len(header) > 1000:
        return None
    for code, _quality in translation.trans_real.parse_accept_lang_header(header):
        if code == "*":
            continue
        found = supported(code)
        if found is None:
            try:
                found = supported(translation.get_supported_language_variant(code))
            except LookupError:
                found = None
        if found:
            return found
    return None


def preferred_language(request) -> str:
    """The language to answer `request` in (see the module's docstring for the order)."""
    session = getattr(request, "session", None)
    choices = [
        lambda: supported(session.get(SESSION_KEY)) if session is not None else None,
        lambda: supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)),
        lambda: _from_header(request),
    ]
    if request.path.startswith("/api/"):
        choices.insert(0, choices.pop())  # an API client says what it reads with each request
    for choice in choices:
        code = choice()
        if code:
            return code
    return settings.LANGUAGE_CODE


class PreferredLanguageMiddleware:
    """Answer each request in the person's language (after the session and the login are known)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        code = preferred_language(request)
        request.LANGUAGE_CODE = code
        with translation.override(code):
            response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", code)
        return response


def language_apply_at_login(sender, request, user, **kwargs):
    """A person who logs in reads the site in the language he chose before, on any device."""
    if request is None or not hasattr(request, "session"):
        return
    from .models import LanguagePreference

    code = supported(LanguagePreference.objects.filter(user=user).values_list("code", flat=True).first())
    if code:
        request.session[SESSION_KEY] = code


def _next(request) -> str:
    target = request.POST.get("next") or request.META.get("HTTP_REFERER") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("home")


@require_POST
def language_choose(request):
    """The menu at the foot of every page: read the site in the language chosen, now and (for a
    logged-in person) after every log-in; back to the page it was chosen on."""
    code = supported(request.POST.get("language"))
    if code is None:
        return render(request, "language_refused.html", {
            "message": _("Choose one of the languages of the menu."), "back": _next(request),
        }, status=400)
    if request.user.is_authenticated:
        language_store(user=request.user, code=code)
        request.session[SESSION_KEY] = code
    response = HttpResponseRedirect(_next(request))
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
                        path=settings.LANGUAGE_COOKIE_PATH, secure=settings.LANGUAGE_COOKIE_SECURE,
                        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE)
    return response


def language_menu(request):
    """Template context: the current language, its direction, and the menu's choices (each language
    named in its own tongue, the current one selected) as HTML."""
    current = translation.get_language() or settings.LANGUAGE_CODE
    options, bidi = _menu(current)
    return {"site_language": current, "site_language_bidi": bidi, "site_language_options": options}


@lru_cache(maxsize=64)
def _menu(current: str) -> tuple[str, bool]:
    """The menu's `<option>`s with `current` selected, and whether `current` is written right to
    left: the same on every page, so made once per language."""
    options = mark_safe("".join(format_html(
        '\n          <option value="{0}" lang="{0}"{1}>{2}</option>', code,
        mark_safe(" selected") if code == current else "", translation.get_language_info(code)["name_local"],
    ) for code, _name in settings.LANGUAGES))
    return options, bool(translation.get_language_info(current).get("bidi"))


KEPT_AT_MOST = 20_000
"""Translations kept (a few hundred messages in five languages are far fewer); past it, the least
used are forgotten, so a template that translated data by mistake cannot grow it for ever."""


@lru_cache(maxsize=KEPT_AT_MOST)
def _translated(language: str | None, message: str) -> str:
    return translation.gettext(message)  # `language` is the active one: it only keys what is kept


def kept_gettext(message: str) -> str:
    """Django's gettext of `message` in the active language, looked up once per language: for the
    words a long list or a draw asks for again and again (the Jinja2 templates' `_`, round names)."""
    return _translated(translation.get_language(), message)


@receiver(setting_changed)
def _forget_kept(*, setting, **kwargs) -> None:
    if setting in CATALOG_SETTINGS:
        _translated.cache_clear()
        _menu.cache_clear()
