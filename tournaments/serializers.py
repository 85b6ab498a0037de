"""Shapes of events in the API. No rules here: the services hold them."""

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from config.api import id_field
from games.models import Match, Player
from games.serializers import PlayerBriefSerializer

from . import draws
from .permissions import VIEW_REPORT_PRIVATE
from .models import (public_name, Entry, Flight, FlightFormat, FlightKindChoice, Pairing, ResultReport, Round, ScoringChoice,
                     SeedingChoice, Tournament)

# The largest numbers the columns behind these fields hold: a larger one is refused with a
# message on its field instead of failing in the database.
SMALL_MAX = 2**15 - 1
INTEGER_MAX = 2**31 - 1
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
SCORE_MAX = 9999
# What a person writes (a note, a reason) and how long a list in a body may be: longer is a 400
# on the field, never stored. A draw or a table list holds at most this many pairs (a 4096-player
# field), a flight at most this many rounds.
TEXT_MAX = 500
USERNAME_MAX = 150
PAIRS_MAX = 2048
ROUNDS_MAX = 64
GAMES_MAX = 999  # the highest game number a match takes


class TournamentSlugField(serializers.SlugRelatedField):
    """A tournament by its slug; text no slug can be (a NUL character) is "not found", as any other."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data.replace("\x00", "\\x00"))
        return super().to_internal_value(data)


class TournamentSerializer(serializers.ModelSerializer):
    organisers = serializers.SerializerMethodField(
        help_text=gettext_lazy("The directors' public names (never their logins)."))
    flight_count = serializers.IntegerField(read_only=True)
    entry_count = serializers.IntegerField(read_only=True)
    crawford = serializers.BooleanField(read_only=True, help_text=gettext_lazy("Always on for the matches of an event."))

    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "venue", "start_date", "end_date", "status", "organisers", "crawford",
                  "cube_cap", "clock", "clock_seconds", "flight_count",
                  "entry_count"]

    def get_organisers(self, tournament) -> list[str]:
        return tournament.director_names()


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.CharField(max_length=80, required=False, default="")
    venue = serializers.CharField(max_length=200, required=False, default="")
    start_date = serializers.DateField()
    end_date = serializers.DateField(required=False, default=None)
    cube_cap = serializers.IntegerField(required=False, allow_null=True, default=None)
    clock = serializers.CharField(max_length=120, required=False, default="")
    clock_seconds = serializers.IntegerField(min_value=0, max_value=INTEGER_MAX, required=False, allow_null=True,
                                             default=None)


class OrganiserSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=USERNAME_MAX)


class FeederSerializer(serializers.Serializer):
    source = serializers.CharField(required=False, max_length=80, help_text=gettext_lazy("Name of the flight whose losers enter."))
    source_id = serializers.IntegerField(required=False, help_text=gettext_lazy("Or its id; feeders are kept by id."))
    source_round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX)
    entry_round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX)


class FlightSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    champion = PlayerBriefSerializer(read_only=True, allow_null=True)
    feeders = serializers.SerializerMethodField()

    @extend_schema_field(FeederSerializer(many=True))
    def get_feeders(self, flight: Flight) -> list[dict]:
        """Each feeder with its source flight's id and current name (one query per event listed)."""
        if not flight.feeders:
            return []
        names = self.context.setdefault("_flights_of_event", {})
        if flight.tournament_id not in names:
            names[flight.tournament_id] = list(Flight.objects.filter(tournament_id=flight.tournament_id).only("id", "name"))
        return draws.feeder_rules(flight, names[flight.tournament_id])

    class Meta:
        model = Flight
        fields = ["id", "tournament", "name", "kind", "format", "position", "lengths", "feeders", "seeding",
                  "random_seed", "first_round", "draw_rules", "swiss_rounds", "out_after_losses", "tie_breaks",
                  "qualifiers", "auto_pair", "scoring", "status", "champion", "version"]


class FlightCreateSerializer(serializers.Serializer):
    tournament = TournamentSlugField(slug_field="slug", queryset=Tournament.objects.all())
    name = serializers.CharField(max_length=80)
    format = serializers.ChoiceField(choices=FlightFormat.choices)
    kind = serializers.ChoiceField(choices=FlightKindChoice.choices, default="main")
    lengths = serializers.ListField(child=serializers.IntegerField(), allow_empty=False, max_length=ROUNDS_MAX)
    feeders = serializers.ListSerializer(child=FeederSerializer(), required=False, default=list,
                                         max_length=ROUNDS_MAX)
    seeding = serializers.ChoiceField(choices=SeedingChoice.choices, default="manual")
    random_seed = serializers.IntegerField(min_value=SEED_MIN, max_value=SEED_MAX, required=False, allow_null=True,
                                           default=None)
    swiss_rounds = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False, allow_null=True,
                                            default=None)
    out_after_losses = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False, allow_null=True,
                                                default=None)
    tie_breaks = serializers.ListField(child=serializers.CharField(max_length=40), required=False, default=list,
                                       max_length=16)
    qualifiers = serializers.IntegerField(min_value=2, max_value=SMALL_MAX, required=False, allow_null=True,
                                          default=None)
    auto_pair = serializers.BooleanField(default=True)
    scoring = serializers.ChoiceField(choices=ScoringChoice.choices, default="wins")


@extend_schema_serializer(description=gettext_lazy(
    "The settings of a flight that has not started; send only what changes."))
class FlightUpdateSerializer(serializers.Serializer):
    lengths = serializers.ListField(child=serializers.IntegerField(), allow_empty=False, required=False,
                                    max_length=ROUNDS_MAX)
    seeding = serializers.ChoiceField(choices=SeedingChoice.choices, required=False)
    random_seed = serializers.IntegerField(min_value=SEED_MIN, max_value=SEED_MAX, required=False, allow_null=True)
    swiss_rounds = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False, allow_null=True)
    out_after_losses = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False, allow_null=True)
    tie_breaks = serializers.ListField(child=serializers.CharField(max_length=40), required=False, max_length=16)
    qualifiers = serializers.IntegerField(min_value=2, max_value=SMALL_MAX, required=False, allow_null=True)
    auto_pair = serializers.BooleanField(required=False)
    scoring = serializers.ChoiceField(choices=ScoringChoice.choices, required=False)
    version = serializers.IntegerField(required=False, allow_null=True, default=None,
                                       help_text=gettext_lazy("The version you read; a later change answers 409."))

    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError(
                {name: [gettext("This cannot be changed once the flight exists: add the flight again instead.")]
                 for name in unknown})
        return attrs


def _pairs(help_text: str) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=INTEGER_MAX),
                                    min_length=2, max_length=2),
        required=False, default=list, max_length=PAIRS_MAX, help_text=help_text,
    )


@extend_schema_serializer(description=gettext_lazy(
    "What the TD asks of the draw: his own seed order, pairs kept apart or fixed in round 1."))
class DrawInputSerializer(serializers.Serializer):
    seeds = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=INTEGER_MAX), required=False, allow_null=True,
        default=None, max_length=PAIRS_MAX * 2,
        help_text=gettext_lazy("The TD's seed order: every checked-in player's id, seed 1 first (default: the flight's seeding)."),
    )
    apart = _pairs(gettext_lazy("Pairs of player ids that must not meet in round 1."))
    fixed = _pairs(gettext_lazy("Pairs of player ids that meet in round 1."))
    random_seed = serializers.IntegerField(min_value=SEED_MIN, max_value=SEED_MAX, required=False, allow_null=True,
                                           default=None, help_text=gettext_lazy("A random draw's number (the preview gives one)."))


class FlightStartSerializer(DrawInputSerializer):
    first_round = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True), min_length=2, max_length=2),
        required=False, allow_null=True, default=None, max_length=PAIRS_MAX,
        help_text=gettext_lazy("A hand-made draw instead: [[player id, player id or null for a bye], ...]."),
    )
    version = serializers.IntegerField(required=False, allow_null=True, default=None,
                                       help_text=gettext_lazy("The flight's version the preview showed: a later change is a 409."))


class DrawPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    club = serializers.CharField()
    seed = serializers.IntegerField()
    rating = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("In the site's default rating system."))


class DrawTableSerializer(serializers.Serializer):
    slot = serializers.CharField()
    length = serializers.IntegerField(allow_null=True)
    player_a = DrawPlayerSerializer()
    player_b = DrawPlayerSerializer(allow_null=True)
    bye = serializers.BooleanField()


class DrawFeedSerializer(serializers.Serializer):
    flight = serializers.CharField()
    source_round = serializers.IntegerField()
    entry_round = serializers.IntegerField()


class DrawPreviewSerializer(serializers.Serializer):
    flight = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    version = serializers.IntegerField(help_text=gettext_lazy("Send it back with the start: a change in between is a 409."))
    seeding = serializers.CharField()
    random_seed = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Send it back with the start."))
    moved = serializers.BooleanField(help_text=gettext_lazy("The seeds are not in the order the seeding method gives."))
    seeds = DrawPlayerSerializer(many=True)
    round = DrawTableSerializer(many=True, help_text=gettext_lazy("Round 1 as it will be drawn; a knockout's in bracket order."))
    apart = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    fixed = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    feeds = DrawFeedSerializer(many=True, help_text=gettext_lazy("The flights the losers of this one enter."))
    absent = serializers.ListField(child=serializers.DictField(), help_text=gettext_lazy("Entered but not checked in: not drawn."))


class RoundStartSerializer(serializers.Serializer):
    pairings = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True), min_length=2, max_length=2),
        required=False, allow_null=True, default=None, max_length=PAIRS_MAX,
        help_text=gettext_lazy("Hand-made Swiss tables (player ids)."),
    )
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer(read_only=True)
    flight = serializers.PrimaryKeyRelatedField(read_only=True)
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "tournament", "flight", "player", "seed", "status", "late"]


class EntryCreateSerializer(serializers.Serializer):
    flight = serializers.PrimaryKeyRelatedField(queryset=Flight.objects.select_related("tournament"),
                                                pk_field=id_field())
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), pk_field=id_field())
    seed = serializers.IntegerField(min_value=1, max_value=INTEGER_MAX, required=False, allow_null=True, default=None)


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=TEXT_MAX)


class UndoInputSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=TEXT_MAX)
    apply_downstream = serializers.BooleanField(
        default=False, help_text=gettext_lazy("Undo even though later matches drawn from it have started (see undo-preview)."))
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


class RoundSerializer(serializers.ModelSerializer):
    pairing_count = serializers.IntegerField(read_only=True)
    open_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Round
        fields = ["id", "flight", "number", "length", "status", "starts_at", "started_at", "pairing_count",
                  "open_count"]


class MatchBriefSerializer(serializers.ModelSerializer):
    score = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "status", "length", "score", "rated", "winner", "version"]

    def get_score(self, match) -> list[int]:
        return [match.score_a, match.score_b]


class PairingSerializer(serializers.ModelSerializer):
    tournament = serializers.SerializerMethodField()
    flight_name = serializers.CharField(source="flight.name", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)
    length = serializers.IntegerField(source="round.length", read_only=True, allow_null=True)
    player_a = PlayerBriefSerializer(read_only=True)
    player_b = PlayerBriefSerializer(read_only=True, allow_null=True, help_text=gettext_lazy("Null for a bye."))
    winner = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    match = MatchBriefSerializer(read_only=True, allow_null=True, help_text=gettext_lazy("Null until the match is started."))
    score = serializers.SerializerMethodField()

    class Meta:
        model = Pairing
        fields = ["id", "tournament", "flight", "flight_name", "round", "slot", "length", "player_a", "player_b",
                  "status", "score", "winner", "match", "table", "version"]

    def get_tournament(self, pairing) -> str:
        return pairing.flight.tournament.slug

    def get_score(self, pairing) -> list[int] | None:
        return None if pairing.score_a is None else [pairing.score_a, pairing.score_b]


@extend_schema_field(serializers.CharField(allow_null=True, read_only=True))
class ShownNameField(serializers.Field):
    """A login as others see it: the name its person chose (`public_name`), never the login name."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def to_representation(self, user) -> str:
        return public_name(user)


@extend_schema_serializer(description=gettext_lazy(
    "A report. Who entered, confirmed or disputed it (by the names they chose to show, never "
    "their login names) and the dispute reason are null for readers who may not see them "
    "(`permissions.VIEW_REPORT_PRIVATE`: anyone but staff, the event's TDs and the two players)."))
class ResultReportSerializer(serializers.ModelSerializer):
    PRIVATE = ("submitted_by", "confirmed_by", "disputed_by", "dispute_reason")

    submitted_by = ShownNameField()
    confirmed_by = ShownNameField()
    disputed_by = ShownNameField()
    slot = serializers.CharField(source="pairing.slot", read_only=True)
    flight = serializers.CharField(source="pairing.flight.name", read_only=True)

    class Meta:
        model = ResultReport
        fields = ["id", "pairing", "flight", "slot", "version", "score_a", "score_b", "winner", "games", "status",
                  "by_td", "override", "submitted_by", "submitted_for", "submitted_at", "confirmed_by",
                  "confirmed_at", "disputed_by", "dispute_reason", "note"]
        extra_kwargs = {"dispute_reason": {"allow_null": True}}

    def to_representation(self, report):
        data = super().to_representation(report)
        request = self.context.get("request")
        if request is None or not request.user.has_perm(VIEW_REPORT_PRIVATE, report):
            data.update(dict.fromkeys(self.PRIVATE))
        return data


class GameLineSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text=gettext_lazy("Player id of the winner."))
    end = serializers.CharField(required=False, default="played_out", max_length=20)
    kind = serializers.CharField(required=False, default="single", max_length=20)
    cube = serializers.IntegerField(min_value=1, required=False, default=1)
    cube_owner = serializers.IntegerField(required=False, allow_null=True, default=None)
    points = serializers.IntegerField(required=False, allow_null=True, default=None)


class ReportInputSerializer(serializers.Serializer):
    score_a = serializers.IntegerField(min_value=0, max_value=SCORE_MAX, required=False, allow_null=True, default=None)
    score_b = serializers.IntegerField(min_value=0, max_value=SCORE_MAX, required=False, allow_null=True, default=None)
    # A list that may be null whose games may not be (`many=True` would let null games through).
    games = serializers.ListSerializer(child=GameLineSerializer(), required=False, allow_null=True, default=None,
                                       max_length=GAMES_MAX)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=TEXT_MAX)
    version = serializers.IntegerField(required=False, allow_null=True, default=None,
                                       help_text=gettext_lazy("The pairing's version you saw; a stale one answers 409."))
    improbable_confirmed = serializers.BooleanField(
        default=False, help_text=gettext_lazy("A TD's final score whose last game needs a cube of 8 or more (55-3 in a 9-point "
        "match) answers 400 until it is sent again with this true: the slip was checked."))


class OverrideInputSerializer(ReportInputSerializer):
    improbable_confirmed = None  # a ruling is the TD's second look already
    apply_downstream = serializers.BooleanField(
        default=False, help_text=gettext_lazy("Apply even though later matches that have started are undone (see the preview)."))


class PreviewInputSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text=gettext_lazy("Player id of the corrected winner."))


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, required=False, default="", max_length=TEXT_MAX)


class PlayerAccountSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), pk_field=id_field())
    username = serializers.CharField(max_length=USERNAME_MAX)


class ScheduleSerializer(serializers.Serializer):
    starts_at = serializers.DateTimeField()


# -- shapes of computed reads, for the schema -------------------------------------------------------


class BracketPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("The seed in this flight; null if unseeded."))


class BracketSlotSerializer(serializers.Serializer):
    slot = serializers.CharField()
    pairing = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("The stored pairing; null until it is drawn."))
    player_a = BracketPlayerSerializer(allow_null=True, help_text=gettext_lazy("Null while not known yet."))
    player_b = BracketPlayerSerializer(allow_null=True, help_text=gettext_lazy("Null for a bye or while not known yet."))
    bye = serializers.BooleanField()
    state = serializers.ChoiceField(choices=["pending", "ready", "played", "bye"])
    status = serializers.CharField(help_text=gettext_lazy("The pairing's status, or waiting before it is drawn."))
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True, min_length=2, max_length=2)
    winner = serializers.IntegerField(allow_null=True)


class BracketRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    name = serializers.CharField()
    length = serializers.IntegerField(allow_null=True)
    slots = BracketSlotSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    flight = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=FlightFormat.choices)
    rounds = BracketRoundSerializer(many=True)
    champion = BracketPlayerSerializer(allow_null=True)


class StandingPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = StandingPlayerSerializer()
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    tie_breaks = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text=gettext_lazy('Each tie-break by name; "pr" (average PR, lower is better) is null without an analysed match.'))


class PlacingSerializer(serializers.Serializer):
    player = StandingPlayerSerializer()
    place = serializers.CharField(help_text=gettext_lazy('"1", "2", "3-4", ...'))
    first = serializers.IntegerField()
    last = serializers.IntegerField()


class AffectedPairingSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    flight = serializers.CharField()
    slot = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    status = serializers.CharField()
    started = serializers.BooleanField()
    becomes = serializers.ListField(child=serializers.IntegerField(allow_null=True), allow_null=True)


class CorrectionPreviewSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    slot = serializers.CharField()
    winner_now = serializers.IntegerField(allow_null=True)
    winner_after = serializers.IntegerField()
    needs_confirmation = serializers.BooleanField()
    affected = AffectedPairingSerializer(many=True)


class StandingRoundSerializer(serializers.Serializer):
    flight = serializers.CharField()
    round = serializers.IntegerField()


class UndoPreviewSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    slot = serializers.CharField()
    status = serializers.CharField()
    needs_confirmation = serializers.BooleanField()
    affected = AffectedPairingSerializer(many=True)
    left_standing = StandingRoundSerializer(
        many=True, help_text=gettext_lazy("The later rounds of a Swiss paired while the result stood: the undo leaves them as they are."))


# -- the desk's actions, through the API ---------------------------------------------------------


class PasteInputSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=20000, help_text=gettext_lazy("One player per line, as pasted at the desk."))
    choices = serializers.DictField(
        child=serializers.CharField(max_length=20), required=False, default=dict,
        help_text=gettext_lazy('For a line asked about: its number -> the player id meant, or "new" for a new player.'))

    def validate_choices(self, value):
        out = {}
        for line, choice in value.items():
            if not str(line).isdigit() or not (choice == "new" or choice.isdigit()):
                raise serializers.ValidationError(gettext('Give each line number a player id or "new".'))
            out[int(line)] = choice if choice == "new" else int(choice)
        return out


class PastedLineSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(source="player.pk", allow_null=True)
    entered = serializers.BooleanField(help_text=gettext_lazy("Entered already before this list."))


class CheckedInSerializer(serializers.Serializer):
    checked_in = serializers.ListField(child=serializers.IntegerField(), help_text=gettext_lazy("The entries checked in."))


class CheckInWindowSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=0, max_value=100000,
                                       help_text=gettext_lazy("How long the players may check in from their phones."))


class RegistrationOpenSerializer(serializers.Serializer):
    closes = serializers.DateTimeField(help_text=gettext_lazy("When online registration closes."))
    cap = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=100000,
                                   help_text=gettext_lazy("Places; later registrations join the waiting list."))


class TablesInputSerializer(serializers.Serializer):
    count = serializers.IntegerField(min_value=0, max_value=100000)
    reserved = serializers.ListField(
        child=serializers.DictField(), required=False, default=list, max_length=PAIRS_MAX,
        help_text=gettext_lazy('Tables kept for one flight or one player: [{"table": 1, "flight": "Main"}, {"table": 2, "player": 7}].'))


class TablesCalledSerializer(serializers.Serializer):
    called = serializers.IntegerField(help_text=gettext_lazy("How many matches were given a table."))


class TableInputSerializer(serializers.Serializer):
    table = serializers.CharField(max_length=20, allow_blank=True, help_text=gettext_lazy("Empty takes the match off its table."))
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


class WalkoverInputSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text=gettext_lazy("The player who goes through (one of the two): his id."))
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=TEXT_MAX)
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


class SlipCodesInputSerializer(serializers.Serializer):
    round = serializers.IntegerField(required=False, allow_null=True, default=None,
                                     help_text=gettext_lazy("Only the matches of this round (its id)."))
    renew = serializers.BooleanField(default=False, help_text=gettext_lazy("Revoke the codes given before and issue new ones."))


class SlipCodeSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    player = serializers.IntegerField()
    code = serializers.CharField(help_text=gettext_lazy("Shown once: only its hash is kept."))
