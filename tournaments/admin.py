"""Admin for events. Actions go through the services, so the rules are the same as in the API."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from simple_history.admin import SimpleHistoryAdmin

from config.errors import ConflictError

from . import services
from .models import Entry, Flight, Pairing, PlayerAccount, ResultReport, Round, Tournament


def _run(modeladmin, request, queryset, call, done):
    for obj in queryset:
        try:
            call(obj)
        except (ValidationError, PermissionDenied, ConflictError) as error:
            text = "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)
            modeladmin.message_user(request, f"{obj}: {text}", level=messages.ERROR)
        else:
            modeladmin.message_user(request, f"{obj}: {done}")


class FlightInline(admin.TabularInline):
    model = Flight
    fields = ["name", "kind", "format", "lengths", "status"]
    readonly_fields = ["status"]
    extra = 0
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "start_date", "end_date", "venue", "status"]
    list_filter = ["status"]
    search_fields = ["name", "slug", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [FlightInline]


@admin.register(Flight)
class FlightAdmin(SimpleHistoryAdmin):
    list_display = ["name", "tournament", "kind", "format", "status", "seeding", "random_seed", "champion"]
    list_filter = ["format", "kind", "status"]
    readonly_fields = ["random_seed", "first_round", "status", "champion", "version"]
    list_select_related = ["tournament", "champion"]
    actions = ["start_flight", "start_next_round", "advance_flight"]

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
class EntryAdmin(SimpleHistoryAdmin):
    list_display = ["player", "flight", "seed", "status", "late"]
    list_filter = ["status", "flight__tournament"]
    search_fields = ["player__name"]
    list_select_related = ["player", "flight"]
    raw_id_fields = ["player"]
    actions = ["check_in", "withdraw"]

    @admin.action(description="Check in")
    def check_in(self, request, queryset):
        _run(self, request, queryset, lambda e: services.entry_check_in(entry=e, by=request.user), "checked in")

    @admin.action(description="Withdraw (remaining matches are walkovers)")
    def withdraw(self, request, queryset):
        _run(self, request, queryset, lambda e: services.entry_withdraw(entry=e, by=request.user), "withdrawn")


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["flight", "number", "length", "status", "starts_at"]
    list_filter = ["status"]
    list_select_related = ["flight"]


@admin.register(Pairing)
class PairingAdmin(SimpleHistoryAdmin):
    list_display = ["flight", "slot", "player_a", "player_b", "status", "score_a", "score_b", "winner"]
    list_filter = ["status", "flight__tournament"]
    search_fields = ["player_a__name", "player_b__name", "slot"]
    list_select_related = ["flight", "player_a", "player_b", "winner"]
    readonly_fields = [f.name for f in Pairing._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False  # pairings come from the draw


@admin.register(ResultReport)
class ResultReportAdmin(SimpleHistoryAdmin):
    list_display = ["pairing", "version", "score_a", "score_b", "status", "submitted_by", "confirmed_by", "override"]
    list_filter = ["status", "override"]
    list_select_related = ["pairing__flight", "pairing__player_a", "pairing__player_b", "submitted_by",
                           "confirmed_by"]
    readonly_fields = [f.name for f in ResultReport._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False  # reported through the API or the pages, never typed in here


@admin.register(PlayerAccount)
class PlayerAccountAdmin(admin.ModelAdmin):
    list_display = ["player", "user"]
    raw_id_fields = ["player", "user"]
