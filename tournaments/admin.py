"""Admin for events. Every write goes through the services, so the rules are the same as in the API.

Events, flights, entries and player accounts are added through their services; afterwards a
flight's settings change through `flight_update` (until it starts), a round's start through
`schedule_round`, a login's player through `player_account_link`, and an event's organisers are
added through `tournament_organiser_add`. Everything else is shown read-only, and nothing here is
deleted: a withdrawal, a superseded report or a corrected result keeps its history.
"""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from games.admin import REFUSALS, ServiceAdmin, ServiceAdminMixin, refusal_text

from . import services
from .services import registration
from .models import Entry, Flight, FlightStatus, Pairing, PlayerAccount, ResultReport, Round, Tournament
from .services.events import FLIGHT_SETTINGS


def _run(modeladmin, request, queryset, call, done):
    for obj in queryset:
        try:
            call(obj)
        except REFUSALS as error:
            modeladmin.message_user(request, f"{obj}: {refusal_text(error)}", level=messages.ERROR)
        else:
            modeladmin.message_user(request, f"{obj}: {done}")


class EventServiceMixin(ServiceAdminMixin):
    """Added through a service with the fields it takes (`create_fields`); never deleted here."""

    create_fields: list[str] = []
    optional_on_create: list[str] = []
    """Fields the service fills in when left empty (a slug from the name...)."""

    def get_fields(self, request, obj=None):
        return self.create_fields if obj is None else super().get_fields(request, obj)

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is None:
            for name in self.optional_on_create:
                if name in form.base_fields:
                    form.base_fields[name].required = False
        return form

    def get_inlines(self, request, obj):
        return super().get_inlines(request, obj) if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        return False


class EventServiceAdmin(EventServiceMixin, ServiceAdmin):
    """An `EventServiceMixin` for rows that keep their history."""


class FlightInline(admin.TabularInline):
    model = Flight
    fields = ["name", "kind", "format", "lengths", "status"]
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # flights are added on their own page, through the rules

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(EventServiceAdmin):
    list_display = ["name", "slug", "start_date", "end_date", "venue", "status"]
    list_filter = ["status"]
    search_fields = ["name", "slug", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [FlightInline]
    create_fields = ["name", "slug", "venue", "start_date", "end_date", "organisers", "cube_cap", "clock",
                     "clock_seconds"]
    optional_on_create = ["slug", "end_date"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [f.name for f in Tournament._meta.fields]  # organisers are added through the service

    def create(self, request, data):
        return services.tournament_create(by=request.user, **{f: data.get(f) for f in self.create_fields
                                                              if data.get(f) not in (None, "")})

    def update(self, request, obj, data, changed):
        wanted = set(data["organisers"])
        current = set(obj.organisers.all())
        if current - wanted:
            raise ValidationError({"organisers": [gettext("An organiser stays with the event: add organisers here, "
                                                          "none can be taken off.")]})
        for user in sorted(wanted - current, key=lambda user: user.pk):
            obj = services.tournament_organiser_add(tournament=obj, user=user, by=request.user)
        return obj


@admin.register(Flight)
class FlightAdmin(EventServiceAdmin):
    list_display = ["name", "tournament", "kind", "format", "status", "seeding", "random_seed", "champion"]
    list_filter = ["format", "kind", "status"]
    list_select_related = ["tournament", "champion"]
    create_fields = ["tournament", "name", "kind", "format", "lengths", "feeders", "seeding", "random_seed",
                     "swiss_rounds", "out_after_losses", "tie_breaks", "qualifiers", "auto_pair", "scoring"]
    optional_on_create = ["feeders", "tie_breaks", "scoring"]
    actions = ["start_flight", "start_next_round", "advance_flight"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        fixed = [f.name for f in Flight._meta.fields]
        if obj.status == FlightStatus.DRAFT:
            return [name for name in fixed if name not in FLIGHT_SETTINGS]  # the name stays: feeders use it
        return fixed

    def create(self, request, data):
        return services.flight_create(by=request.user, **{f: data.get(f) for f in self.create_fields
                                                          if data.get(f) not in (None, "", [])})

    def update(self, request, obj, data, changed):
        return services.flight_update(flight=obj, by=request.user, **{f: data[f] for f in changed})

    @admin.action(description="Start (seed and draw round 1)")
    def start_flight(self, request, queryset):
        _run(self, request, queryset, lambda f: services.flight_start(flight=f, by=request.user), "started")

    @admin.action(description="Start the next round")
    def start_next_round(self, request, queryset):
        _run(self, request, queryset, lambda f: services.round_start(flight=f, by=request.user), "round started")

    @admin.action(description="Advance (work out what follows from the results)")
    def advance_flight(self, request, queryset):
        _run(self, request, queryset, lambda f: services.flight_advance(flight=f, by=request.user), "advanced")


@admin.register(Entry)
class EntryAdmin(EventServiceAdmin):
    list_display = ["player", "flight", "seed", "status", "late"]
    list_filter = ["status", "flight__tournament"]
    search_fields = ["player__name"]
    list_select_related = ["player", "flight"]
    raw_id_fields = ["player"]
    create_fields = ["flight", "player", "seed"]
    actions = ["check_in", "withdraw"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else [f.name for f in Entry._meta.fields]

    def create(self, request, data):
        return services.entry_add(flight=data["flight"], player=data["player"], seed=data.get("seed"),
                                  by=request.user)

    @admin.action(description="Check in")
    def check_in(self, request, queryset):
        _run(self, request, queryset, lambda e: services.entry_check_in(entry=e, by=request.user), "checked in")

    @admin.action(description="Withdraw (remaining matches are walkovers)")
    def withdraw(self, request, queryset):
        _run(self, request, queryset, lambda e: services.entry_withdraw(entry=e, by=request.user), "withdrawn")


@admin.register(Round)
class RoundAdmin(EventServiceAdmin):
    list_display = ["flight", "number", "length", "status", "starts_at"]
    list_filter = ["status"]
    list_select_related = ["flight"]
    readonly_fields = ["flight", "number", "length", "status", "started_at"]

    def has_add_permission(self, request, obj=None):
        return False  # rounds come from starting them

    def update(self, request, obj, data, changed):
        if data["starts_at"] is None:
            raise ValidationError({"starts_at": [gettext("Give the date and time the round starts.")]})
        return services.schedule_round(round=obj, starts_at=data["starts_at"], by=request.user)


@admin.register(Pairing)
class PairingAdmin(EventServiceAdmin):
    list_display = ["flight", "slot", "player_a", "player_b", "status", "score_a", "score_b", "winner"]
    list_filter = ["status", "flight__tournament"]
    search_fields = ["player_a__name", "player_b__name", "slot"]
    list_select_related = ["flight", "player_a", "player_b", "winner"]
    readonly_fields = [f.name for f in Pairing._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False  # pairings come from the draw

    def has_change_permission(self, request, obj=None):
        return False  # results are reported, confirmed and overridden through the event


@admin.register(ResultReport)
class ResultReportAdmin(EventServiceAdmin):
    list_display = ["pairing", "version", "score_a", "score_b", "status", "submitted_by", "confirmed_by", "override"]
    list_filter = ["status", "override"]
    list_select_related = ["pairing__flight", "pairing__player_a", "pairing__player_b", "submitted_by",
                           "confirmed_by"]
    readonly_fields = [f.name for f in ResultReport._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False  # reported through the API or the pages, never typed in here

    def has_change_permission(self, request, obj=None):
        return False  # every version is kept: a report is superseded, never edited


@admin.register(PlayerAccount)
class PlayerAccountAdmin(EventServiceMixin, admin.ModelAdmin):
    list_display = ["player", "user"]
    raw_id_fields = ["player", "user"]
    create_fields = ["player", "user"]
    actions = ["unlink"]

    @admin.action(description="Undo the link (the login no longer acts for the player)")
    def unlink(self, request, queryset):
        _run(self, request, queryset.select_related("player"),
             lambda a: registration.account_unlink(player=a.player, by=request.user), "link undone")

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else ["player"]

    def create(self, request, data):
        return self.update(request, PlayerAccount(player=data["player"]), data, ["user"])

    def update(self, request, obj, data, changed):
        if data["user"] is None:
            raise ValidationError({"user": [gettext("Choose the login that belongs to this player.")]})
        return services.player_account_link(player=obj.player, user=data["user"], by=request.user)
