"""Forms for the match pages. They check the shape of what was typed; the rules are the services'."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .engine.scoring import GameEnd, ResultKind

CUBE_VALUES = [1, 2, 4, 8, 16, 32, 64, 128, 256]


class GameEntryForm(forms.Form):
    """One line of a score sheet: who won, how, and where the cube stood."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label=_("Winner"))
    end = forms.ChoiceField(
        label=_("How it ended"),
        widget=forms.RadioSelect,
        initial=GameEnd.PLAYED_OUT.value,
        choices=[
            (GameEnd.PLAYED_OUT.value, _("Played out")),
            (GameEnd.RESIGNED.value, _("Resigned")),
            (GameEnd.DOUBLE_REFUSED.value, _("Double refused")),
        ],
    )
    kind = forms.TypedChoiceField(
        label=_("Won as"),
        coerce=int,
        widget=forms.RadioSelect,
        initial=int(ResultKind.SINGLE),
        choices=[(int(ResultKind.SINGLE), pgettext_lazy("game result", "Single")), (int(ResultKind.GAMMON), pgettext_lazy("game result", "Gammon")),
                 (int(ResultKind.BACKGAMMON), pgettext_lazy("game result", "Backgammon"))],
    )
    cube = forms.TypedChoiceField(
        label=_("Cube value"),
        coerce=int,
        initial=1,
        choices=[(v, _("1 (centred, never turned)") if v == 1 else str(v)) for v in CUBE_VALUES],
        help_text=_("For a refused double: the value before the double."),
    )
    cube_owner = forms.TypedChoiceField(
        label=_("Cube owner"), coerce=int, empty_value=None, required=False, widget=forms.RadioSelect
    )

    def __init__(self, *args, names: tuple[str, str] = ("Player A", "Player B"), crawford_game: int | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [(0, names[0]), (1, names[1])]
        if crawford_game is not None:
            # The Crawford game has no doubling: its sheet does not offer a refused double.
            end = self.fields["end"]
            end.choices = [c for c in end.choices if c[0] != GameEnd.DOUBLE_REFUSED.value]
            end.error_messages["invalid_choice"] = _(
                "Game %(number)s is the Crawford game: nobody may double in it, so no double can be refused."
            ) % {"number": crawford_game}
        # Empty: a cube of 1 is centred; a turned cube has an owner the sheet may not have noted.
        self.fields["cube_owner"].choices = [("", _("Not recorded (centred if the cube is 1)")), (0, names[0]),
                                             (1, names[1])]
        self.fields["cube_owner"].initial = ""


class UndoForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
