"""Admin for events. Actions go through the services, so the rules are the same as in the API."""

from django.contrib import admin, messages
from django.core.exceptions import ImproperlyConfigured, PermissionDenied, ValidationError
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


class CreatedByServiceAdmin(SimpleHistoryAdmin):
    """An admin whose add form creates the object through a service (the same rules as the API).

    The service runs when the form is cleaned, so its refusals show beside the fields; after
    that the admin only shows what the service made. Existing objects change only through the
    actions or the fields left editable.
    """

    create_fields: list[str] = []
    optional_on_create: list[str] = []
    """Fields the service fills in when left empty (a slug from the name...)."""

    def create(self, request, data):
        raise ImproperlyConfigured(f"{type(self).__name__} must say how to create its objects.")

    def get_fields(self, request, obj=None):
        return self.create_fields if obj is None else super().get_fields(request, obj)

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return form
        admin_ = self

        class CreateForm(form):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                for name in admin_.optional_on_create:
                    if name in self.fields:
                        self.fields[name].required = False

            def clean(self):
                data = super().clean()
                if not self.errors:
                    try:
                        self.created = admin_.create(request, data)
                    except PermissionDenied as error:
                        self.add_error(None, str(error))
                    except ValidationError as error:
                        if hasattr(error, "error_dict"):
                            for field, messages_ in error.message_dict.items():
                                self.add_error(field if field in self.fields else None, messages_)
                        else:
                            self.add_error(None, error)
                return data

            def _post_clean(self):
                """Nothing more to check: the service validated the object and saved it."""

        return CreateForm

    def get_inlines(self, request, obj):
        return super().get_inlines(request, obj) if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        obj.__dict__.update(form.created.__dict__)

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)


class FlightInline(admin.TabularInline):
    model = Flight
    fields = ["name", "kind", "format", "lengths", "status"]
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # flights are added on their own page, through the rules


@admin.register(Tournament)
class TournamentAdmin(CreatedByServiceAdmin):
    list_display = ["name", "slug", "start_date", "end_date", "venue", "status"]
    list_filter = ["status"]
    search_fields = ["name", "slug", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [FlightInline]
    create_fields = ["name", "slug", "venue", "start_date", "end_date", "organisers", "cube_cap", "clock",
                     "clock_seconds", "bye_policy", "correction_policy"]
    optional_on_create = ["slug", "end_date"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else ["slug", "cube_cap", "bye_policy", "correction_policy", "status", "version"]

    def create(self, request, data):
        return services.tournament_create(by=request.user, **{f: data.get(f) for f in self.create_fields
                                                              if data.get(f) not in (None, "")})


@admin.register(Flight)
class FlightAdmin(CreatedByServiceAdmin):
    list_display = ["name", "tournament", "kind", "format", "status", "seeding", "random_seed", "champion"]
    list_filter = ["format", "kind", "status"]
    create_fields = ["tournament", "name", "kind", "format", "lengths", "feeders", "seeding", "random_seed",
                     "swiss_rounds", "out_after_losses", "tie_breaks", "qualifiers", "auto_pair"]
    optional_on_create = ["feeders", "tie_breaks"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [f.name for f in Flight._meta.fields if f.name not in ("name", "position", "auto_pair")]

    def create(self, request, data):
        return services.flight_create(by=request.user, **{f: data.get(f) for f in self.create_fields
                                                          if data.get(f) not in (None, "", [])})
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
class EntryAdmin(CreatedByServiceAdmin):
    list_display = ["player", "flight", "seed", "status", "late"]
    list_filter = ["status", "flight__tournament"]
    search_fields = ["player__name"]
    list_select_related = ["player", "flight"]
    raw_id_fields = ["player"]
    create_fields = ["flight", "player", "seed"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else [f.name for f in Entry._meta.fields]

    def create(self, request, data):
        return services.entry_add(flight=data["flight"], player=data["player"], seed=data.get("seed"),
                                  by=request.user)
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
    readonly_fields = ["flight", "number", "length", "status"]

    def has_add_permission(self, request, obj=None):
        return False  # rounds come from starting them


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
