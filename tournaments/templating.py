"""The Jinja2 environment of the desk's hot templates (`templates/jinja2/`): Django's `url` and
`static`, and Jinja2's i18n extension with Django's gettext and ngettext, so `{{ _("Table") }}`
reads the site's catalogs in the request's language. `makemessages` finds `_("…")` in these
templates as it does in Django's (a `_()` call at the start of `{{ }}` or inside `{% %}`); a
message with values is formatted after it is translated: `{{ _("Table %(table)s")|format(table=n) }}`.

A 256-player event's desk asks for a dozen messages on each of its rows, so `_()` here keeps
each translation it has looked up, by language and message: a catalog does not change while the
site runs, and a message asked for again costs a dictionary look-up instead of Django's walk
through the catalogs (bench/i18n_render.py measures it). What is kept is forgotten when the
languages or catalogs change (a test's `settings` fixture)."""

from functools import lru_cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from jinja2 import Environment

KEPT_AT_MOST = 20_000
"""Translations kept (a few hundred messages in five languages are far fewer); past it, the least
used are forgotten, so a template that translated data by mistake cannot grow it for ever."""


@lru_cache(maxsize=KEPT_AT_MOST)
def _translated(language: str | None, message: str) -> str:
    return gettext(message)  # `language` is the active one: it only keys what is kept


def kept_gettext(message: str) -> str:
    """Django's gettext of `message` in the active language, looked up once per language."""
    return _translated(get_language(), message)


@receiver(setting_changed)
def _forget_translations(*, setting, **kwargs) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "USE_I18N"}:
        _translated.cache_clear()


def environment(**options) -> Environment:
    extensions = [*options.pop("extensions", ()), "jinja2.ext.i18n"]
    env = Environment(extensions=extensions, **options)
    env.install_gettext_callables(gettext=kept_gettext, ngettext=ngettext, newstyle=False)
    env.globals.update({"url": lambda name, *args: reverse(name, args=args), "static": static})
    return env
