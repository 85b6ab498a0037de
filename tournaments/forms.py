"""Forms of the TD's desk. They check the shape of what was typed; the services apply the rules."""

import re

from django import forms

from .models import FlightFormat, FlightKindChoice, SeedingChoice

CUBE_CAPS = [("", "No cap"), (2, "2"), (4, "4"), (8, "8"), (16, "16"), (32, "32"), (64, "64")]


class DateInput(forms.DateInput):
    input_type = "date"


class EventForm(forms.Form):
    name = forms.CharField(label="Name", max_length=200)
    start_date = forms.DateField(label="First day", widget=DateInput)
    end_date = forms.DateField(label="Last day", widget=DateInput, required=False,
                               help_text="Leave empty for a one-day event.")
    venue = forms.CharField(label="Venue", max_length=200, required=False)
    cube_cap = forms.TypedChoiceField(label="Cube cap", choices=CUBE_CAPS, coerce=int, empty_value=None,
                                      required=False)
    clock = forms.CharField(label="Clock", max_length=120, required=False,
                            help_text='As announced, e.g. "2 min + 12 s per move".')


class FlightForm(forms.Form):
    name = forms.CharField(label="Flight name", max_length=80, help_text="Main, Consolation, Last chance …")
    format = forms.ChoiceField(label="Format", choices=FlightFormat.choices)
    kind = forms.ChoiceField(label="Kind", choices=FlightKindChoice.choices)
    lengths = forms.CharField(label="Match lengths by round", max_length=200, initial="7, 7, 9, 11",
                              help_text="Points per round, separated by commas; the last one repeats.")
    feeders = forms.CharField(
        label="Feeders (consolation and last chance only)", required=False, widget=forms.Textarea(attrs={"rows": 2}),
        help_text='One line per feeder: "Main 1 1" takes the losers of Main round 1 into round 1.',
    )
    seeding = forms.ChoiceField(label="Seeding", choices=SeedingChoice.choices, initial=SeedingChoice.RATING)
    swiss_rounds = forms.IntegerField(label="Swiss rounds", required=False, min_value=1, max_value=30)
    qualifiers = forms.IntegerField(label="Qualifiers for the knockout", required=False, min_value=2)

    def clean_lengths(self):
        text = self.cleaned_data["lengths"]
        parts = [p for p in re.split(r"[,\s]+", text) if p]
        if not parts or not all(p.isdigit() for p in parts):
            raise forms.ValidationError("Write whole numbers separated by commas, for example 7, 7, 9.")
        return [int(p) for p in parts]

    def clean_feeders(self):
        feeders = []
        for number, line in enumerate(self.cleaned_data["feeders"].splitlines(), start=1):
            line = line.strip()
            if not line:
                continue
            found = re.fullmatch(r"(.+?)\s+(\d+)\s+(\d+)", line)
            if not found:
                raise forms.ValidationError(f'Line {number}: write the flight, its round and the entry round, e.g. "Main 1 1".')
            feeders.append({"source": found[1], "source_round": int(found[2]), "entry_round": int(found[3])})
        return feeders


class FlightSettingsForm(forms.Form):
    """What a TD may still change in a flight before it starts."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    lengths = FlightForm.base_fields["lengths"]
    seeding = FlightForm.base_fields["seeding"]
    swiss_rounds = FlightForm.base_fields["swiss_rounds"]
    qualifiers = FlightForm.base_fields["qualifiers"]
    clean_lengths = FlightForm.clean_lengths

    @classmethod
    def for_flight(cls, flight):
        return cls(prefix=f"f{flight.pk}", initial={
            "version": flight.version, "lengths": ", ".join(str(n) for n in flight.lengths),
            "seeding": flight.seeding, "swiss_rounds": flight.swiss_rounds, "qualifiers": flight.qualifiers,
        })


class DisputeForm(forms.Form):
    """A player's reason for disputing the opponent's report (the service requires one)."""

    reason = forms.CharField(label="What is wrong with it", max_length=500, required=False)


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label="Find a player", max_length=120, required=False)


class NewPlayerForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    country = forms.CharField(label="Country code", max_length=2, required=False, help_text="Two letters, e.g. DK.")
    club = forms.CharField(label="Club", max_length=120, required=False)
    confirm_duplicate = forms.BooleanField(label="This is a different person with the same name", required=False)


class ScoreForm(forms.Form):
    """A final score typed at the desk (both players' points)."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    score_a = forms.IntegerField(label="Points of player A", min_value=0, max_value=999)
    score_b = forms.IntegerField(label="Points of player B", min_value=0, max_value=999)
    note = forms.CharField(label="Note", required=False, max_length=500)
