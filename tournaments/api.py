"""REST API for events. Every write goes through `tournaments.services`; reads through selectors."""

import json

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import selectors as analysis_selectors
from analysis.serializers import EventPlayerPRSerializer
from config.api import IdFilter, IdInPath
from config.languages import in_site_language

from games.models import Player

from . import selectors, services
from .services import registration
from .models import Entry, Flight, Pairing, ResultReport, Round, Tournament
from .permissions import ReadOnlyOrSignedIn, require_td
from .serializers import (
    BracketSerializer,
    CheckedInSerializer,
    CheckInWindowSerializer,
    CorrectionPreviewSerializer,
    DrawInputSerializer,
    DrawPreviewSerializer,
    DisputeSerializer,
    EntryCreateSerializer,
    EntrySerializer,
    FlightCreateSerializer,
    FlightSerializer,
    FlightStartSerializer,
    FlightUpdateSerializer,
    OrganiserSerializer,
    OverrideInputSerializer,
    PairingSerializer,
    PastedLineSerializer,
    PasteInputSerializer,
    PlacingSerializer,
    PlayerAccountSerializer,
    PreviewInputSerializer,
    RegistrationOpenSerializer,
    ReportInputSerializer,
    ResultReportSerializer,
    RoundSerializer,
    RoundStartSerializer,
    ScheduleSerializer,
    SlipCodeSerializer,
    SlipCodesInputSerializer,
    StandingSerializer,
    TableInputSerializer,
    TablesCalledSerializer,
    TablesInputSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
    UndoInputSerializer,
    UndoPreviewSerializer,
    WalkoverInputSerializer,
    WithdrawSerializer,
)


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


@extend_schema(description=gettext_lazy(
    "Events. Staff create them; the creator is a TD. `?status=` filters."))
class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = TournamentSerializer
    permission_classes = [ReadOnlyOrSignedIn]
    lookup_field = "slug"
    filterset_fields = ["status"]
    queryset = Tournament.objects.none()

    def get_queryset(self):
        return selectors.tournament_list()

    def _detail(self, tournament, code=status.HTTP_200_OK):
        fresh = selectors.tournament_list().get(pk=tournament.pk)
        return Response(TournamentSerializer(fresh).data, status=code)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def create(self, request):
        data = _valid(TournamentCreateSerializer, request.data)
        return self._detail(services.tournament_create(by=request.user, **data), status.HTTP_201_CREATED)

    @extend_schema(request=TablesInputSerializer, responses={200: TournamentSerializer}, description=gettext_lazy(
        "How many tables the venue has, and which are kept for one flight or one player (the "
        "desk's *Tables*)."))
    @action(detail=True, methods=["post"])
    def tables(self, request, slug=None):
        data = _valid(TablesInputSerializer, request.data)
        return self._detail(services.tables_set(tournament=self.get_object(), by=request.user, count=data["count"],
                                                reserved=data["reserved"]))

    @extend_schema(request=None, responses={200: TablesCalledSerializer}, description=gettext_lazy(
        "Every match waiting without a table gets the table offered to it (the desk's *Call "
        "all*)."))
    @action(detail=True, methods=["post"], url_path="call-tables")
    def call_tables(self, request, slug=None):
        tournament = self.get_object()
        waiting = list(selectors.pairings_without_a_table(tournament))
        return Response({"called": services.tables_call(tournament=tournament, pairings=waiting, by=request.user)})

    @extend_schema(request=SlipCodesInputSerializer, responses={200: SlipCodeSerializer(many=True)}, description=gettext_lazy(
        "The codes of the match slips (the desk's *Slips*): both players of every open match (of "
        "`round`) who hold none get one, shown here once; with `renew`, the codes given before "
        "are revoked and new ones issued (*New slips*)."))
    @action(detail=True, methods=["post"], url_path="slip-codes", pagination_class=None, filter_backends=[])
    def slip_codes(self, request, slug=None):
        data = _valid(SlipCodesInputSerializer, request.data)
        tournament = self.get_object()
        ids = list(selectors.pairings_for_slips(tournament, data["round"]).values_list("pk", flat=True))
        issued = services.slip_codes_issue(tournament=tournament, pairing_ids=ids, by=request.user,
                                           renew=data["renew"])
        return Response([{"pairing": pairing, "player": player, "code": code}
                         for (pairing, player), code in sorted(issued.items())])

    @extend_schema(request=OrganiserSerializer, responses={200: TournamentSerializer}, description=gettext_lazy(
        "Add a TD to this tournament."))
    @action(detail=True, methods=["post"])
    def organisers(self, request, slug=None):
        data = _valid(OrganiserSerializer, request.data)
        user = get_user_model().objects.filter(username=data["username"]).first()
        if user is None:
            raise serializers.ValidationError({"username": [_("There is no user called %(username)s.") % {"username": data["username"]}]})
        tournament = services.tournament_organiser_add(tournament=self.get_object(), user=user, by=request.user)
        return self._detail(tournament)

    @extend_schema(responses={200: ResultReportSerializer(many=True)}, description=gettext_lazy(
        "The TD's queue: disputed results waiting for a ruling."))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def disputes(self, request, slug=None):
        tournament = self.get_object()
        require_td(request.user, tournament)
        return Response(ResultReportSerializer(selectors.dispute_queue(tournament), many=True,
                                               context={"request": request}).data)

    @extend_schema(responses={(200, "text/csv"): str})
    @action(detail=True, methods=["get"], url_path="entries.csv")
    def entries_csv(self, request, slug=None):
        tournament = self.get_object()
        return _download(selectors.entries_csv(tournament), "text/csv", f"{tournament.slug}-entries.csv")

    @extend_schema(responses={(200, "text/csv"): str})
    @action(detail=True, methods=["get"], url_path="results.csv")
    def results_csv(self, request, slug=None):
        tournament = self.get_object()
        return _download(selectors.results_csv(tournament), "text/csv", f"{tournament.slug}-results.csv")

    @extend_schema(responses={(200, "text/calendar"): str})
    @action(detail=True, methods=["get"], url_path="schedule.ics")
    def schedule(self, request, slug=None):
        tournament = self.get_object()
        text = selectors.schedule_ics(tournament, host=request.get_host().split(":")[0] or "crawford")
        return _download(text, "text/calendar", f"{tournament.slug}.ics")


def _download(text: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class FlightFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")

    class Meta:
        model = Flight
        fields = ["tournament", "format", "kind", "status"]


@extend_schema(description=gettext_lazy(
    "Flights of events: main, consolation, last chance, side events. `?tournament=<slug>`."))
class FlightViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = FlightSerializer
    permission_classes = [ReadOnlyOrSignedIn]
    filterset_class = FlightFilter
    queryset = Flight.objects.none()

    def get_queryset(self):
        return selectors.flight_list()

    def _detail(self, flight, code=status.HTTP_200_OK):
        return Response(FlightSerializer(selectors.flight_list().get(pk=flight.pk)).data, status=code)

    @extend_schema(request=FlightCreateSerializer, responses={201: FlightSerializer})
    def create(self, request):
        data = _valid(FlightCreateSerializer, request.data)
        return self._detail(services.flight_create(by=request.user, **data), status.HTTP_201_CREATED)

    @extend_schema(request=FlightUpdateSerializer, responses={200: FlightSerializer}, description=gettext_lazy(
        "Change the settings of a flight that has not started (lengths, seeding, rounds, "
        "qualifiers...)."))
    def partial_update(self, request, pk=None):
        data = dict(_valid(FlightUpdateSerializer, request.data))
        version = data.pop("version", None)
        return self._detail(services.flight_update(flight=self.get_object(), by=request.user,
                                                   expected_version=version, **data))

    @extend_schema(request=FlightStartSerializer, responses={200: FlightSerializer}, description=gettext_lazy(
        "Seed and draw the first round (or check the TD's own draw); the random seed is kept."))
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        data = _valid(FlightStartSerializer, request.data)
        flight = services.flight_start(flight=self.get_object(), by=request.user, first_round=data["first_round"],
                                       random_seed=data["random_seed"], seeds=data["seeds"], apart=data["apart"],
                                       fixed=data["fixed"], expected_version=data["version"])
        return self._detail(flight)

    @extend_schema(request=DrawInputSerializer, responses={200: DrawPreviewSerializer}, description=gettext_lazy(
        "What `start` will draw with the same body, without drawing it (nothing changes): the "
        "seeds, round 1 with its byes, and the flights fed by its losers. Start with the "
        "`seeds`, `apart`, `fixed`, `random_seed` and `version` sent or shown here to get "
        "exactly this draw."))
    @action(detail=True, methods=["post"], url_path="draw-preview", filter_backends=[])
    def draw_preview(self, request, pk=None):
        data = _valid(DrawInputSerializer, request.data)
        return Response(selectors.draw_preview(flight=self.get_object(), by=request.user, **data))

    @extend_schema(request=PasteInputSerializer, responses={200: PastedLineSerializer(many=True)}, description=gettext_lazy(
        "Enter a pasted list, one player per line, making the players who are new (the desk's "
        "*Paste a list*). A line that is unreadable or names several players is a 400 naming it; "
        "send the list again with `choices`."))
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def paste(self, request, pk=None):
        data = _valid(PasteInputSerializer, request.data)
        lines = services.entries_paste(flight=self.get_object(), text=data["text"], choices=data["choices"],
                                       by=request.user)
        return Response(PastedLineSerializer(lines, many=True).data)

    @extend_schema(request=None, responses={200: CheckedInSerializer}, description=gettext_lazy(
        "Check in every registered player of the flight (the desk's *Check everyone in*)."))
    @action(detail=True, methods=["post"], url_path="check-in-all")
    def check_in_all(self, request, pk=None):
        entries = services.entries_check_in_all(flight=self.get_object(), by=request.user)
        return Response({"checked_in": [entry.pk for entry in entries]})

    @extend_schema(request=CheckInWindowSerializer, responses={200: FlightSerializer}, description=gettext_lazy(
        "Let the entered players check themselves in from their phones for `minutes`."))
    @action(detail=True, methods=["post"], url_path="check-in-open")
    def check_in_open(self, request, pk=None):
        data = _valid(CheckInWindowSerializer, request.data)
        return self._detail(registration.check_in_window_open(flight=self.get_object(), by=request.user,
                                                              minutes=data["minutes"]))

    @extend_schema(request=None, responses={200: FlightSerializer}, description=gettext_lazy(
        "Close the players' own check-in now (a TD still checks players in)."))
    @action(detail=True, methods=["post"], url_path="check-in-close")
    def check_in_close(self, request, pk=None):
        return self._detail(registration.check_in_window_close(flight=self.get_object(), by=request.user))

    @extend_schema(request=RegistrationOpenSerializer, responses={200: FlightSerializer}, description=gettext_lazy(
        "Let players register themselves online until `closes` (with `cap` places)."))
    @action(detail=True, methods=["post"], url_path="registration-open")
    def registration_open(self, request, pk=None):
        data = _valid(RegistrationOpenSerializer, request.data)
        return self._detail(registration.registration_open(flight=self.get_object(), by=request.user,
                                                           closes=data["closes"], cap=data["cap"]))

    @extend_schema(request=RoundStartSerializer, responses={200: RoundSerializer}, description=gettext_lazy(
        "Start the next round: pair a Swiss round (or check the TD's tables), open a drawn "
        "knockout round."))
    @action(detail=True, methods=["post"], url_path="start-round")
    def start_round(self, request, pk=None):
        data = _valid(RoundStartSerializer, request.data)
        rnd = services.round_start(flight=self.get_object(), by=request.user, pairings=data["pairings"],
                                   expected_version=data["version"])
        return Response(RoundSerializer(selectors.round_list().get(pk=rnd.pk)).data)

    @extend_schema(responses={200: BracketSerializer}, description=gettext_lazy(
        "The flight for drawing: rounds as columns, slots with players, byes, pending matches, "
        "winners."))
    @action(detail=True, methods=["get"], filter_backends=[])
    def bracket(self, request, pk=None):
        return Response(selectors.bracket(self.get_object()))

    @extend_schema(responses={200: StandingSerializer(many=True)}, description=gettext_lazy(
        "Swiss and round robin standings with tie-breaks."))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request, pk=None):
        return Response(selectors.standings(self.get_object()))

    @extend_schema(responses={200: PlacingSerializer(many=True)}, description=gettext_lazy(
        "Final places once the flight is finished."))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def placings(self, request, pk=None):
        return Response(selectors.placings(self.get_object()))


class EntryFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")

    class Meta:
        model = Entry
        fields = ["tournament", "flight", "status", "player"]


@extend_schema(description=gettext_lazy(
    "Entries: a TD enters players; a player (or TD) checks in or withdraws."))
class EntryViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = EntrySerializer
    permission_classes = [ReadOnlyOrSignedIn]
    filterset_class = EntryFilter
    queryset = Entry.objects.none()

    def get_queryset(self):
        return selectors.entry_list()

    def _detail(self, entry, code=status.HTTP_200_OK):
        return Response(EntrySerializer(selectors.entry_list().get(pk=entry.pk)).data, status=code)

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer})
    def create(self, request):
        data = _valid(EntryCreateSerializer, request.data)
        return self._detail(services.entry_add(by=request.user, **data), status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: EntrySerializer})
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, pk=None):
        return self._detail(services.entry_check_in(entry=self.get_object(), by=request.user))

    @extend_schema(request=WithdrawSerializer, responses={200: EntrySerializer}, description=gettext_lazy(
        "The player leaves: his remaining matches are walkovers (not rated)."))
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        data = _valid(WithdrawSerializer, request.data)
        return self._detail(services.entry_withdraw(entry=self.get_object(), by=request.user, reason=data["reason"]))

    @extend_schema(request=UndoInputSerializer, responses={200: EntrySerializer}, description=gettext_lazy(
        "A TD takes back a withdrawal given by mistake: the player is in again and the walkovers "
        "it gave are undone (with apply_downstream once matches drawn after it have started)."))
    @action(detail=True, methods=["post"], url_path="withdraw-undo")
    def withdraw_undo(self, request, pk=None):
        data = _valid(UndoInputSerializer, request.data)
        return self._detail(services.entry_withdraw_undo(entry=self.get_object(), by=request.user,
                                                         reason=data["reason"], apply_downstream=data["apply_downstream"]))


@extend_schema(description=gettext_lazy(
    "Rounds of the flights, with their status, match length and announced start. `?flight=` and `?status=` "
    "filter."))
class RoundViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = RoundSerializer
    permission_classes = [ReadOnlyOrSignedIn]
    filterset_fields = ["flight", "status"]
    queryset = Round.objects.none()

    def get_queryset(self):
        return selectors.round_list()

    @extend_schema(request=ScheduleSerializer, responses={200: RoundSerializer}, description=gettext_lazy(
        "Announce when the round starts (it then appears in schedule.ics)."))
    @action(detail=True, methods=["post"])
    def schedule(self, request, pk=None):
        data = _valid(ScheduleSerializer, request.data)
        rnd = services.schedule_round(round=self.get_object(), starts_at=data["starts_at"], by=request.user)
        return Response(RoundSerializer(selectors.round_list().get(pk=rnd.pk)).data)


class PairingFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="flight__tournament__slug")
    round = django_filters.NumberFilter(field_name="round__number")
    player = IdFilter(method="filter_player")

    class Meta:
        model = Pairing
        fields = ["tournament", "flight", "round", "status", "slot"]

    def filter_player(self, queryset, name, value):
        return queryset.filter(player_a_id=value) | queryset.filter(player_b_id=value)


REPORTS = gettext_lazy(
    "GET: every version reported for this match, a page at a time (`?page=`). POST: report its result (games or "
    "final score); with an `Idempotency-Key` header, once however often it is sent.")
"""The reports of a pairing, read (GET) and sent (POST): one description for both."""


@extend_schema(description=gettext_lazy(
    "Pairings with their matches. Players report their own results here; TDs rule."))
class PairingViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = PairingSerializer
    permission_classes = [ReadOnlyOrSignedIn]
    filterset_class = PairingFilter
    queryset = Pairing.objects.none()

    def get_queryset(self):
        return selectors.pairing_list()

    @extend_schema(methods=["GET"], responses={200: ResultReportSerializer(many=True)}, description=REPORTS)
    @extend_schema(methods=["POST"], request=ReportInputSerializer, responses={201: ResultReportSerializer},
                   description=REPORTS,
                   parameters=[OpenApiParameter(
                       "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
                       description=gettext_lazy("1 to 64 letters, digits, '-' or '_', made by the client for this result: "
                                   "every try with the same key gets the first answer (status and body) and "
                                   "stores nothing more; a key used for another match answers 409. A refusal "
                                   "sent with a key answers {error, message, fields}."))])
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def reports(self, request, pk=None):
        pairing = self.get_object()
        if request.method == "GET":
            page = self.paginate_queryset(selectors.report_list().filter(pairing=pairing))
            return self.get_paginated_response(
                ResultReportSerializer(page, many=True, context={"request": request}).data)
        data = _valid(ReportInputSerializer, request.data)
        try:
            key = services.save_key_clean(request.headers.get("Idempotency-Key"))
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict) from None

        def write(locked):
            report = services.result_report(
                pairing=locked, by=request.user, score_a=data["score_a"], score_b=data["score_b"],
                games=[dict(g) for g in data["games"]] if data["games"] else None, note=data["note"],
                expected_version=data["version"], held=key is not None,
                improbable_confirmed=data["improbable_confirmed"],
            )
            body = ResultReportSerializer(report, context={"request": request}).data
            return status.HTTP_201_CREATED, json.loads(JSONRenderer().render(body))

        if key is None:
            return Response(write(pairing)[1], status=status.HTTP_201_CREATED)
        # With a key: the first answer (created, or refused) is the answer to every try.
        answer = services.save_once(key=key, pairing=pairing, write=write)
        headers = {"Idempotent-Replayed": "true"} if answer.replayed else None
        return Response(answer.body, status=answer.status, headers=headers)

    @extend_schema(request=OverrideInputSerializer, responses={201: ResultReportSerializer}, description=gettext_lazy(
        "A TD rules: settles a dispute or corrects a result (see correction-preview first)."))
    @action(detail=True, methods=["post"])
    def override(self, request, pk=None):
        data = _valid(OverrideInputSerializer, request.data)
        report = services.result_override(
            pairing=self.get_object(), by=request.user, score_a=data["score_a"], score_b=data["score_b"],
            games=[dict(g) for g in data["games"]] if data["games"] else None, note=data["note"],
            apply_downstream=data["apply_downstream"], expected_version=data["version"],
        )
        return Response(ResultReportSerializer(report, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=PreviewInputSerializer, responses={200: CorrectionPreviewSerializer}, description=gettext_lazy(
        "Dry run: which later pairings a new winner would undo. Nothing is changed."))
    @action(detail=True, methods=["post"], url_path="correction-preview")
    def correction_preview(self, request, pk=None):
        pairing = self.get_object()
        require_td(request.user, pairing.flight.tournament)
        data = _valid(PreviewInputSerializer, request.data)
        if data["winner"] not in (pairing.player_a_id, pairing.player_b_id):
            raise serializers.ValidationError({"winner": [_("The winner must be one of the two players (their id).")]})
        return Response(selectors.correction_preview(pairing=pairing, winner_id=data["winner"]))

    @extend_schema(request=None, responses={200: UndoPreviewSerializer}, description=gettext_lazy(
        "Dry run: which later pairings undoing this result or walkover would take away."))
    @action(detail=True, methods=["get"], url_path="undo-preview")
    def undo_preview(self, request, pk=None):
        pairing = self.get_object()
        require_td(request.user, pairing.flight.tournament)
        return Response(services.undo_preview(pairing=pairing))

    @extend_schema(request=UndoInputSerializer, responses={200: PairingSerializer}, description=gettext_lazy(
        "A TD takes back a walkover or no-show given by mistake: the match is open again, its "
        "games as they were (with apply_downstream once matches drawn from it have started)."))
    @action(detail=True, methods=["post"], url_path="walkover-undo")
    def walkover_undo(self, request, pk=None):
        data = _valid(UndoInputSerializer, request.data)
        pairing = services.pairing_walkover_undo(
            pairing=self.get_object(), by=request.user, reason=data["reason"],
            apply_downstream=data["apply_downstream"], expected_version=data["version"])
        return Response(PairingSerializer(selectors.pairing_list().get(pk=pairing.pk)).data)

    @extend_schema(request=UndoInputSerializer, responses={200: PairingSerializer}, description=gettext_lazy(
        "A TD takes back a result entered by mistake: the match is open again as it was before "
        "(with apply_downstream once matches drawn from it have started)."))
    @action(detail=True, methods=["post"], url_path="result-undo")
    def result_undo(self, request, pk=None):
        data = _valid(UndoInputSerializer, request.data)
        pairing = services.result_undo(
            pairing=self.get_object(), by=request.user, reason=data["reason"],
            apply_downstream=data["apply_downstream"], expected_version=data["version"])
        return Response(PairingSerializer(selectors.pairing_list().get(pk=pairing.pk)).data)

    @extend_schema(request=TableInputSerializer, responses={200: PairingSerializer}, description=gettext_lazy(
        "Seat the match at a table (an empty `table` takes it off its table)."))
    @action(detail=True, methods=["post"])
    def table(self, request, pk=None):
        data = _valid(TableInputSerializer, request.data)
        pairing = services.pairing_table_set(pairing=self.get_object(), table=data["table"], by=request.user,
                                             expected_version=data["version"])
        return Response(PairingSerializer(selectors.pairing_list().get(pk=pairing.pk)).data)

    @extend_schema(request=WalkoverInputSerializer, responses={200: PairingSerializer}, description=gettext_lazy(
        "A TD gives the match to `winner` without play (the other did not show up, or cannot "
        "play)."))
    @action(detail=True, methods=["post"])
    def walkover(self, request, pk=None):
        data = _valid(WalkoverInputSerializer, request.data)
        pairing = self.get_object()
        players = {p.pk: p for p in (pairing.player_a, pairing.player_b) if p is not None}
        if data["winner"] not in players:
            raise serializers.ValidationError({"winner": [_("The winner of a walkover plays the match (his id).")]})
        loser = next(p for pk, p in players.items() if pk != data["winner"]) if len(players) == 2 else None
        reason = data["reason"].strip() or (in_site_language(gettext_noop("%(player)s did not show up"), {"player": loser.name})
                                            if loser else in_site_language(gettext_noop("walkover")))
        pairing = services.pairing_walkover(pairing=pairing, winner=players[data["winner"]], reason=reason,
                                            by=request.user, expected_version=data["version"])
        return Response(PairingSerializer(selectors.pairing_list().get(pk=pairing.pk)).data)

    @extend_schema(request=None, responses={200: PairingSerializer}, description=gettext_lazy(
        "The players sit down: the match is created for entering games as they are played."))
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        pairing = services.pairing_start(pairing=self.get_object(), by=request.user)
        return Response(PairingSerializer(selectors.pairing_list().get(pk=pairing.pk)).data)


class ReportFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="pairing__flight__tournament__slug")

    class Meta:
        model = ResultReport
        fields = ["tournament", "pairing", "status"]


@extend_schema(description=gettext_lazy(
    "Result reports, every version kept. The opponent confirms or disputes; a TD overrides."))
class ResultReportViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = ResultReportSerializer
    permission_classes = [ReadOnlyOrSignedIn]
    filterset_class = ReportFilter
    queryset = ResultReport.objects.none()

    def get_queryset(self):
        return selectors.report_list()

    @extend_schema(request=None, responses={200: ResultReportSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        report = services.result_confirm(report=self.get_object(), by=request.user)
        return Response(ResultReportSerializer(selectors.report_list().get(pk=report.pk),
                                               context={"request": request}).data)

    @extend_schema(request=DisputeSerializer, responses={200: ResultReportSerializer})
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        data = _valid(DisputeSerializer, request.data)
        report = services.result_dispute(report=self.get_object(), by=request.user, reason=data["reason"])
        return Response(ResultReportSerializer(selectors.report_list().get(pk=report.pk),
                                               context={"request": request}).data)


@extend_schema(description=gettext_lazy(
    "Link a login to a player, so he can report his own matches: a site admin for anyone, a TD "
    "for a player entirely of his own events; a site admin undoes a link (DELETE)."))
class PlayerAccountViewSet(IdInPath, viewsets.GenericViewSet):
    permission_classes = [ReadOnlyOrSignedIn]
    serializer_class = PlayerAccountSerializer

    def create(self, request):
        data = _valid(PlayerAccountSerializer, request.data)
        user = get_object_or_404(get_user_model(), username=data["username"])
        account = services.player_account_link(player=data["player"], user=user, by=request.user)
        return Response({"player": account.player_id, "username": user.get_username()},
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None},
                   parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH, description=gettext_lazy("The player's id."))], description=gettext_lazy(
        "A site admin undoes a link: `pk` is the player's id; his results stay."))
    def destroy(self, request, pk=None):
        player = get_object_or_404(Player, pk=pk)
        registration.account_unlink(player=player, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(description=gettext_lazy(
    "The event's PR table: each player's average PR over his analysed matches in it, best first."))
class EventAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=EventPlayerPRSerializer(many=True))
    def get(self, request, slug: str):
        tournament = get_object_or_404(Tournament, slug=slug)
        rows = analysis_selectors.pr_table(selectors.event_matches(tournament))
        return Response(EventPlayerPRSerializer(rows, many=True).data)
