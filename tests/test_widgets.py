"""config/widgets.py writes what Django's widget templates write: compared with Django's own
renderer on the chances form and on every kind of field it writes itself, unbound, bound with bad
values and bound with good ones, in two languages, so that a Django upgrade that changes its
templates fails here instead of changing a page."""

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils import translation
from django.utils.safestring import mark_safe

from config.widgets import WIDGETS

HOSTILE = "<b>&\"'</b>"


class Every(forms.Form):
    text = forms.CharField(max_length=20, help_text="help")
    number = forms.IntegerField(min_value=1)
    decimal = forms.DecimalField(required=False)
    day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    email = forms.EmailField(required=False)
    secret = forms.CharField(widget=forms.PasswordInput(render_value=True), required=False)
    hidden = forms.CharField(widget=forms.HiddenInput, required=False)
    tick = forms.BooleanField(required=False)
    choice = forms.ChoiceField(choices=[("", "—"), ("a", HOSTILE), ("b", mark_safe("<i>safe</i>"))])
    grouped = forms.ChoiceField(choices=[("Group <1>", [("x", "X"), ("y", "Y")]), ("z", "Z")], required=False)


def rendered(form_class, data, renderer):
    form = form_class(data, renderer=renderer) if data is not None else form_class(renderer=renderer)
    return [str(form[name]) for name in form.fields]


@pytest.mark.parametrize("language", ["en", "da", "ar"])
@pytest.mark.parametrize("data", [None, {"text": HOSTILE * 3, "number": "x'<", "day": "2026-13-40", "choice": "q",
                                         "email": HOSTILE, "secret": HOSTILE, "hidden": HOSTILE, "tick": "on"},
                                  {"text": HOSTILE, "number": "7", "decimal": "1.5", "day": "2026-11-29", "choice": "a",
                                   "grouped": "y", "tick": "on"}])
def test_the_widgets_written_directly_equal_django_s_templates(language, data):
    with translation.override(language):
        assert rendered(Every, data, WIDGETS) == rendered(Every, data, DjangoTemplates())


@pytest.mark.django_db
@pytest.mark.parametrize("data", [None, {"player_a": "x<", "player_b": "", "length": "0", "system": "no"}])
def test_the_chances_form_is_written_as_django_writes_it(data):
    from ratings.views import ChancesForm

    class Django(ChancesForm):
        default_renderer = DjangoTemplates()

    with translation.override("da"):
        assert rendered(ChancesForm, data, WIDGETS) == rendered(Django, data, DjangoTemplates())
