"""The Jinja2 environment of the desk's hot templates (`templates/jinja2/`): Django's `url` and
`static`, and Jinja2's i18n extension with Django's gettext and ngettext, so `{{ _("Table") }}`
reads the site's catalogs in the request's language. `makemessages` finds `_("…")` in these
templates as it does in Django's (a `_()` call at the start of `{{ }}` or inside `{% %}`); a
message with values is formatted after it is translated: `{{ _("Table %(table)s")|format(table=n) }}`.

A 256-player event's desk asks for a dozen messages on each of its rows, so `_()` here keeps
each translation it has looked up, by language and message: a catalog does not change while the
site runs, and a message asked for again costs a dictionary look-up instead of Django's walk
through the catalogs (bench/i18n_render.py measures it). What is kept is forgotten when the
languages or catalogs change (a test's `settings` fixture).

`_` is that gettext itself, not the i18n extension's alias: the alias takes the template's context,
and Jinja2 copies every loop variable into a new context for each call of such a function made in
a loop, a dozen times a row.

Numbers as Django's `floatformat` writes them in the active language: `{% set fixed = decimals() %}`
once, then `{{ fixed(rating, 1) }}` per row gives what `{{ rating|floatformat:1 }}` gives ("1977.9",
"1977,9" in Danish), with the language's decimal separator looked up once per template instead of
once per number, and a few times quicker than Django's filter.

`|escaped` is markupsafe's `|e` written as plain text: what `|e` writes, a few times quicker, as
it makes no `Markup`. It is for the long lists' `{% autoescape false %}` blocks, where each name
and label is escaped by hand; a text it wrote is not markup to Jinja2, so it is never formatted
into (`|format`, `%`) and never written where autoescaping is on (it would be escaped twice).

Its `date` filter is Django's (`|date(short_date)` writes a moment in the current time zone and the
reader's language, as `|date:short_date` does); a day written by a format that reads only the day
(`localized_date`) is kept too, by language, format and day: a long list of matches writes the same
days again, page after page."""

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from functools import lru_cache

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import defaultfilters
from django.template.defaultfilters import floatformat
from django.templatetags.static import static
from django.urls import reverse
from django.utils.dateformat import re_formatchars
from django.utils.formats import date_format, get_format
from django.utils.timezone import get_current_timezone, template_localtime
from django.utils.translation import get_language, ngettext
from jinja2 import Environment

from config.languages import CATALOG_SETTINGS, KEPT_AT_MOST, kept_gettext

DAY_ONLY = frozenset("bdDEFjlLmMnNoStwWyYz")
"""The characters of Django's date formats that read the day alone, not its time or time zone."""


@lru_cache(maxsize=256)
def _reads_only_the_day(language: str | None, format_name: str) -> bool:
    return all(c in DAY_ONLY for c in re_formatchars.split(str(get_format(format_name)))[1::2])


@lru_cache(maxsize=KEPT_AT_MOST)
def _day_written(language: str | None, format_name: str, day: date) -> str:
    return date_format(day, format_name)  # `language` is the active one: it only keys what is kept


def localized_date(value, format_name: str = "DATE_FORMAT") -> str:
    """What Django's `date` filter writes of `value`: a moment in the current time zone, by
    `format_name` (a format or the name of one) in the active language. A day, or a moment by a
    format that reads only its day ("j M Y"), is written once per language, format and day."""
    format_name = str(format_name or "DATE_FORMAT")
    value = template_localtime(value)
    day = value.date() if isinstance(value, datetime) else value
    if isinstance(day, date) and (day is value or _reads_only_the_day(get_language(), format_name)):
        return _day_written(get_language(), format_name, day)
    return defaultfilters.date(value, format_name)


def localized_dates(values, format_name: str) -> list[str]:
    """`localized_date` of each of `values` (a rating chart's hundreds of points), the language,
    the format and the time zone looked up once for them all."""
    format_name, language = str(format_name), get_language()
    if not _reads_only_the_day(language, format_name):
        return [localized_date(value, format_name) for value in values]
    zone = get_current_timezone() if settings.USE_TZ else None

    def day_of(value):
        if isinstance(value, datetime):
            if zone and value.utcoffset() is not None and getattr(value, "convert_to_local_time", True):
                value = value.astimezone(zone)
            return value.date()
        return value

    return [_day_written(language, format_name, day) if isinstance(day := day_of(value), date)
            else localized_date(value, format_name) for value in values]


@receiver(setting_changed)
def _forget_translations(*, setting, **kwargs) -> None:
    if setting in CATALOG_SETTINGS | {"FORMAT_MODULE_PATH"} or (
            setting.endswith("_FORMAT")):
        _reads_only_the_day.cache_clear()
        _day_written.cache_clear()


_PLACES = [Decimal(1).scaleb(-places) for places in range(10)]
_ROOMY = Context(prec=60)


def decimals():
    """`fixed(value, places)`: Django's `floatformat:places` (0 to 9 places) of a number, in the
    language active now. Django's own filter answers what this does not write the same way (a
    number too long for 60 digits, not a number, or grouped thousands when the site groups them)."""
    if settings.USE_THOUSAND_SEPARATOR:
        return lambda value, places: floatformat(value, places)
    separator = get_format("DECIMAL_SEPARATOR")

    def fixed(value, places: int) -> str:
        try:
            number = Decimal(str(value))
            if not number.is_finite():
                return floatformat(value, places)
            if places == 0 and number == number.to_integral_value():
                return "%d" % number
            text = f"{number.quantize(_PLACES[places], ROUND_HALF_UP, _ROOMY):f}"
        except (InvalidOperation, ValueError, TypeError, IndexError):
            return floatformat(value, places)
        if text[0] == "-" and not text.strip("-0."):
            text = text[1:]  # Django writes no sign on a number rounded to zero
        return text.replace(".", separator) if places else text

    return fixed


def escaped(value) -> str:
    """`value` escaped for HTML as markupsafe escapes it (`&#34;` and `&#39;` for the quotes), as a
    plain `str`; markup (anything with `__html__`) is written as it is."""
    if type(value) is not str:
        if hasattr(value, "__html__"):
            return value.__html__()
        value = str(value)
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&#34;").replace("'", "&#39;"))


def environment(**options) -> Environment:
    extensions = [*options.pop("extensions", ()), "jinja2.ext.i18n"]
    env = Environment(extensions=extensions, **options)
    env.install_gettext_callables(gettext=kept_gettext, ngettext=ngettext, newstyle=False)
    env.globals["_"] = kept_gettext
    env.globals.update({"url": lambda name, *args: reverse(name, args=args), "static": static, "decimals": decimals})
    env.filters["date"] = localized_date
    env.filters["escaped"] = escaped
    return env
