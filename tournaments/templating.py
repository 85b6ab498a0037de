"""The Jinja2 environment of the desk's hot templates (`templates/jinja2/`): Django's `url` and
`static`, and Jinja2's i18n extension with Django's gettext and ngettext, so `{{ _("Table") }}`
reads the site's catalogs in the request's language. `makemessages` finds `_("…")` in these
templates as it does in Django's (a `_()` call at the start of `{{ }}` or inside `{% %}`); a
message with values is formatted after it is translated: `{{ _("Table %(table)s")|format(table=n) }}`."""

from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from jinja2 import Environment


def environment(**options) -> Environment:
    extensions = [*options.pop("extensions", ()), "jinja2.ext.i18n"]
    env = Environment(extensions=extensions, **options)
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=False)
    env.globals.update({"url": lambda name, *args: reverse(name, args=args), "static": static})
    return env
