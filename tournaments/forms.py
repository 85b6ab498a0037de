"""Forms of the TD's desk and of a match's public page. They check the shape of what was typed; the
services apply the rules."""

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.fields import BIGINT_MAX, SMALL, whole_number, whole_numbers

from . import slipcodes
from .models import FlightFormat, FlightKindChoice, ScoringChoice, SeedingChoice

ROUND = forms.IntegerField(min_value=1, max_value=30)

CUBE_CAPS = [("", gettext_lazy("No cap")), (2, "2"), (4, "4"), (8, "8"), (16, "16"), (32, "32"), (64, "64")]


class DateInput(forms.DateInput):
    input_type = "date"


class EventForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    start_date = forms.DateField(label=gettext_lazy("First day"), widget=DateInput)
    end_date = forms.DateField(label=gettext_lazy("Last day"), widget=DateInput, required=False,
                               help_text=gettext_lazy("Leave empty for a one-day event."))
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=200, required=False)
    cube_cap = forms.TypedChoiceField(label=gettext_lazy("Cube cap"), choices=CUBE_CAPS, coerce=int, empty_value=None,
                                      required=False)
    clock = forms.CharField(label=gettext_lazy("Clock"), max_length=120, required=False,
                            help_text=gettext_lazy('As announced, e.g. "2 min + 12 s per move".'))


class FlightForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Flight name"), max_length=80,
                           help_text=gettext_lazy("Main, Consolation, Last chance …"))
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=FlightFormat.choices)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=FlightKindChoice.choices)
    lengths = forms.CharField(label=gettext_lazy("Match lengths by round"), max_length=200, initial="7, 7, 9, 11",
                              help_text=gettext_lazy("Points per round, separated by commas; the last one repeats."))
    feeder_source = forms.ChoiceField(
        label=gettext_lazy("Takes the losers of"), required=False,
        help_text=gettext_lazy("Consolation and last chance flights: the flight their players come from."))
    feeder_rounds = forms.CharField(
        label=gettext_lazy("Losers of its rounds"), max_length=60, required=False,
        help_text=gettext_lazy("For example 1, or 1, 2: the losers of later rounds enter later rounds."))
    feeder_entry_round = forms.IntegerField(label=gettext_lazy("Entering in round"), min_value=1, max_value=30,
                                            required=False,
                                            initial=1)
    seeding = forms.ChoiceField(label=gettext_lazy("Seeding"), choices=SeedingChoice.choices,
                                initial=SeedingChoice.RATING)
    swiss_rounds = forms.IntegerField(label=gettext_lazy("Swiss rounds"), required=False, min_value=1, max_value=30)
    qualifiers = forms.IntegerField(label=gettext_lazy("Qualifiers for the knockout"), required=False, min_value=2)
    scoring = forms.ChoiceField(label=gettext_lazy("Scoring"), choices=ScoringChoice.choices,
                                initial=ScoringChoice.WINS,
                                required=False, help_text=gettext_lazy("Swiss: the skill point goes to the player whose PR is at least 1.0 "
                                          "better, else half each."))

    def clean_lengths(self):
        text = self.cleaned_data["lengths"]
        try:
            return whole_numbers(text)
        except forms.ValidationError:
            raise forms.ValidationError(_("Write whole numbers separated by commas, for example 7, 7, 9.")) from None

    def clean_scoring(self):
        return self.cleaned_data.get("scoring") or ScoringChoice.WINS

    def __init__(self, *args, flights=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["feeder_source"].choices = [("", _("None: it takes entries"))] + [(n, n) for n in flights]

    def clean(self):
        data = super().clean()
        source, rounds_text = data.get("feeder_source"), (data.get("feeder_rounds") or "").strip()
        data["feeders"] = []
        if not source:
            if rounds_text:
                self.add_error("feeder_source", _("Choose the flight whose losers it takes."))
            return data
        try:
            rounds = sorted(set(whole_numbers(rounds_text, field=ROUND)))
        except forms.ValidationError:
            self.add_error("feeder_rounds", _("Write the rounds of %(flight)s whose losers it takes, e.g. 1 or 1, 2.")
                           % {"flight": source})
            return data
        entry = data.get("feeder_entry_round") or 1
        data["feeders"] = [{"source": source, "source_round": r, "entry_round": entry + r - rounds[0]}
                           for r in rounds]
        return data

    @property
    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        for name in ("feeder_source", "feeder_rounds", "feeder_entry_round"):
            data.pop(name, None)
        return data


class FlightSettingsForm(forms.Form):
    """What a TD may still change in a flight before it starts."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    lengths = FlightForm.base_fields["lengths"]
    seeding = FlightForm.base_fields["seeding"]
    swiss_rounds = FlightForm.base_fields["swiss_rounds"]
    qualifiers = FlightForm.base_fields["qualifiers"]
    scoring = FlightForm.base_fields["scoring"]
    clean_lengths = FlightForm.clean_lengths
    clean_scoring = FlightForm.clean_scoring

    @classmethod
    def for_flight(cls, flight):
        return cls(prefix=f"f{flight.pk}", initial={
            "version": flight.version, "lengths": ", ".join(str(n) for n in flight.lengths),
            "seeding": flight.seeding, "swiss_rounds": flight.swiss_rounds, "qualifiers": flight.qualifiers,
            "scoring": flight.scoring,
        })


class DisputeForm(forms.Form):
    """A player's reason for disputing the opponent's report (the service requires one)."""

    reason = forms.CharField(label=gettext_lazy("What is wrong with it"), max_length=500, required=False)


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=gettext_lazy("Find a player"), max_length=120, required=False)


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    country = forms.CharField(label=gettext_lazy("Country code"), max_length=2, required=False,
                              help_text=gettext_lazy("Two letters, e.g. DK."))
    club = forms.CharField(label=gettext_lazy("Club"), max_length=120, required=False)
    confirm_duplicate = forms.BooleanField(label=gettext_lazy("This is a different person with the same name"),
                                           required=False)


class ScoreForm(forms.Form):
    """A final score typed at the desk (both players' points)."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    score_a = forms.IntegerField(label=gettext_lazy("Points of player A"), min_value=0, max_value=999)
    score_b = forms.IntegerField(label=gettext_lazy("Points of player B"), min_value=0, max_value=999)
    note = forms.CharField(label=gettext_lazy("Note"), required=False, max_length=500)
    # The improbable final score (55-3 in a 9-point match) the TD confirmed, as "55-3": it counts
    # only for that score, not for another one typed over it afterwards.
    sure = forms.CharField(required=False, max_length=20, widget=forms.HiddenInput)

    def improbable_confirmed(self) -> bool:
        data = self.cleaned_data
        return data["sure"] == f"{data['score_a']}-{data['score_b']}"


class PasteForm(forms.Form):
    """An entry list pasted from a spreadsheet or an e-mail."""

    text = forms.CharField(
        label=gettext_lazy("Players, one per line"), max_length=60_000,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=gettext_lazy("A name per line, or CSV: name, club, country, rating id."))


class TablesForm(forms.Form):
    """The venue's tables and the ones kept for a flight or a player."""

    count = forms.IntegerField(label=gettext_lazy("Number of tables"), min_value=0, max_value=500)
    reserved = forms.CharField(
        label=gettext_lazy("Reserved tables"),
                           required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("One per line: a table and a flight or a player's number, e.g. 1 Consolation, or 2 player 17."))

    def __init__(self, *args, flights=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.flights = list(flights)

    @classmethod
    def for_tournament(cls, tournament, flights):
        lines = [f"{r['table']} {r['flight']}" if r.get("flight") else f"{r['table']} player {r['player']}"
                 for r in tournament.reserved_tables or []]
        return cls(prefix="tables", flights=flights,
                   initial={"count": tournament.tables, "reserved": "\n".join(lines)})

    def clean_reserved(self):
        out = []
        for number, line in enumerate(self.cleaned_data["reserved"].splitlines(), start=1):
            line = line.strip()
            if not line:
                continue
            found = re.fullmatch(r"(\d+)\s+(?:player\s+(\d+)|(.+))", line, flags=re.IGNORECASE)
            if not found:
                raise forms.ValidationError(_('Line %(number)d: write a table and who it is for, e.g. "1 Consolation".')
                                            % {"number": number})
            if found[2]:
                out.append({"table": whole_number(found[1], field=SMALL), "player": whole_number(found[2])})
            else:
                out.append({"table": whole_number(found[1], field=SMALL), "flight": found[3].strip()})
        return out


class SlipCodeField(forms.CharField):
    """The code on a player's half of a match slip, read as `slipcodes.normalise` reads it; empty
    when the player reports with his login instead."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", gettext_lazy("Your code"))
        kwargs.setdefault("help_text", gettext_lazy("The six letters and digits on your half of the slip, e.g. "
                                                    "ACD-EFG. Not needed when you are logged in as yourself."))
        super().__init__(max_length=slipcodes.TYPED_MAX, required=False,
                         widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                       "spellcheck": "false", "inputmode": "text"}), **kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not value.strip():
            return ""
        code = slipcodes.normalise(value)
        if code is None:
            raise forms.ValidationError(_("A code is six letters and digits, as printed on the slip (e.g. ACD-EFG)."))
        return code


class SlipReportForm(forms.Form):
    """A player reports his match's final score from its public page, with his slip code or his login."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=BIGINT_MAX)
    code = SlipCodeField()
    score_a = forms.IntegerField(min_value=0, max_value=999)
    score_b = forms.IntegerField(min_value=0, max_value=999)

    def __init__(self, *args, pairing, **kwargs):
        super().__init__(*args, prefix="report", **kwargs)
        self.fields["score_a"].label = _("Points of %(player)s") % {"player": pairing.player_a.name}
        self.fields["score_b"].label = _("Points of %(player)s") % {"player": pairing.player_b.name}


class SlipAnswerForm(forms.Form):
    """The opponent answers a reported result from the match's public page: confirm or dispute."""

    ANSWERS = [("confirm", gettext_lazy("That is right: confirm")), ("dispute", gettext_lazy("That is wrong: dispute"))]

    report = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=BIGINT_MAX)
    code = SlipCodeField()
    answer = forms.ChoiceField(choices=ANSWERS)  # the button pressed
    reason = forms.CharField(label=gettext_lazy("What is wrong with it (to dispute)"), max_length=500, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, prefix="answer", **kwargs)
