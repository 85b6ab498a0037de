"""A form renderer that writes the common widgets (an `<input>` of any type, a `<select>` of
options) without rendering a template: what Django's widget templates write, character for
character, for a fraction of the cost. Rendering `django/forms/widgets/input.html` and its
`attrs.html` cost as much as a small page's own template, once per field; a form of five fields
doubled what its page spent on its template.

Every other widget, and a widget whose values a template would call (a callable attribute), is
rendered by Django's templates as before. A form takes it with `default_renderer = WIDGETS`."""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.timezone import template_localtime

WIDGET_TEMPLATES = "django/forms/widgets/"
INPUTS = frozenset(f"{WIDGET_TEMPLATES}{kind}.html" for kind in (
    "input", "checkbox", "color", "date", "datetime", "email", "file", "hidden", "number", "password", "search",
    "tel", "text", "time", "url"))
"""Django's templates that write one `<input>` (`input.html`, or a template that includes it alone)."""
SELECT = f"{WIDGET_TEMPLATES}select.html"
OPTION = f"{WIDGET_TEMPLATES}select_option.html"


def _shown(value) -> SafeString:
    """`{{ value }}`: localized, in the current time zone, escaped unless safe."""
    value = localize(template_localtime(value))
    return conditional_escape(value if isinstance(value, str) else str(value))


def _formatted(value) -> SafeString:
    """`{{ value|stringformat:'s' }}`."""
    try:
        text = "%s" % (str(value) if isinstance(value, tuple) else value)
    except (ValueError, TypeError):
        text = ""
    return mark_safe(text) if isinstance(value, SafeData) else escape(text)


def _attrs(attrs: dict) -> SafeString:
    """`django/forms/widgets/attrs.html`."""
    return mark_safe("".join(  # noqa: S308 (each part is escaped)
        format_html(" {}", _shown(name)) if value is True else format_html(' {}="{}"', _shown(name), _formatted(value))
        for name, value in attrs.items() if value is not False))


def _plain(widget: dict) -> bool:
    """Whether the template would read the widget's values as they are (it calls a callable)."""
    return not (callable(widget["value"]) or any(callable(value) for value in widget["attrs"].values()))


def _input(widget: dict) -> SafeString:
    """`django/forms/widgets/input.html`."""
    value = format_html(' value="{}"', _formatted(widget["value"])) if widget["value"] != None else ""  # noqa: E711 (the template's !=)
    return format_html('<input type="{}" name="{}"{}{}>', _shown(widget["type"]), _shown(widget["name"]), value,
                       _attrs(widget["attrs"]))


def _option(option: dict) -> SafeString:
    """`django/forms/widgets/select_option.html`."""
    return format_html('<option value="{}"{}>{}</option>', _formatted(option["value"]), _attrs(option["attrs"]),
                       _shown(option["label"]))


def _select(widget: dict) -> SafeString:
    """`django/forms/widgets/select.html`, its options included as the template includes them."""
    parts = [format_html('<select name="{}"{}>', _shown(widget["name"]), _attrs(widget["attrs"]))]
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            parts.append(format_html('\n  <optgroup label="{}">', _shown(group_name)))
        parts.extend(format_html("\n  {}\n", _option(option)) for option in group_choices)
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))  # noqa: S308 (each part is escaped)


class WidgetRenderer(DjangoTemplates):
    """Django's default renderer, with `<input>`s and `<select>`s written directly."""

    def render(self, template_name, context, request=None):
        widget = context.get("widget") if len(context) == 1 else None
        if widget is not None and _plain(widget):
            if template_name in INPUTS:
                return _input(widget)
            if template_name == SELECT and all(
                    option["template_name"] == OPTION and _plain(option)
                    for _name, options, _index in widget["optgroups"] for option in options):
                return _select(widget)
        return super().render(template_name, context, request)


WIDGETS = WidgetRenderer()
"""One renderer for every form that takes it: Django's templates, for the widgets it does not
write itself, are loaded once."""
