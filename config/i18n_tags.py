"""Django's `i18n` template tags, with `{% translate %}` of a fixed message looked up once.

Listed as the `i18n` library of the TEMPLATES setting, so `{% load i18n %}` loads it: every tag and
filter is Django's own, except that `{% translate "Events" %}` (a message written in the template,
with or without a written `context`, and no filter) keeps what it renders by language and
autoescaping. A catalog does not change while the site runs; Django's tag makes a lazy
translation, walks the catalogs and escapes the result each time, about twenty times the cost of a
dictionary look-up, and a page's frame alone has a dozen such tags (bench/pages.py). What is kept
is forgotten when the languages or catalogs change (a test's `settings` fixture), and a message
with a variable, a filter or `noop` is rendered by Django's tag as before.
"""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import Node
from django.templatetags import i18n as django_i18n
from django.utils.translation import get_language

from .languages import CATALOG_SETTINGS

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)

_KEPT: dict[tuple, str] = {}
"""What a fixed `{% translate %}` renders, by (language, autoescape, context, message)."""

KEPT_AT_MOST = 20_000
"""Past this many (a few hundred messages in a few languages are far fewer), start again."""


@receiver(setting_changed)
def _forget(*, setting, **kwargs) -> None:
    if setting in CATALOG_SETTINGS:
        _KEPT.clear()


def _fixed(expression) -> str | None:
    """The message a filter expression writes when it is a quoted string alone, else None."""
    if expression is None or expression.filters:
        return None
    literal = getattr(expression.var, "literal", None)
    return literal if isinstance(literal, str) else None


class KeptTranslateNode(Node):
    """Django's TranslateNode for a fixed message, its result kept (see the module's docstring)."""

    child_nodelists = ()

    def __init__(self, node, message: str, message_context: str | None):
        self.asvar, node.asvar = node.asvar, None  # Django's node renders the text; this one keeps it
        self.node, self.key = node, (message_context, message)

    def render(self, context):
        key = (get_language(), context.autoescape, *self.key)
        value = _KEPT.get(key)
        if value is None:
            value = self.node.render(context)
            if len(_KEPT) >= KEPT_AT_MOST:
                _KEPT.clear()
            _KEPT[key] = value
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


def _kept(parser, token):
    node = django_i18n.do_translate(parser, token)
    message = _fixed(node.filter_expression)
    if node.noop or message is None:
        return node
    message_context = None
    if node.message_context is not None:
        message_context = _fixed(node.message_context)
        if message_context is None:
            return node
    return KeptTranslateNode(node, message, message_context)


register.tag("translate", _kept)
register.tag("trans", _kept)
