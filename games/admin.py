"""Admin for players, matches and games. Every write goes through the services, as in the API:
players are added and changed by `player_create` / `player_update`, matches by `match_create` and
`match_update` (rated, date played), games are recorded by `game_record` and only the last game
of a match is deleted, by `game_delete_last`. What no service changes is shown read-only, and
deletes that no service makes are not offered."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from simple_history.admin import SimpleHistoryAdmin

from config.errors import ConflictError
from config.languages import in_site_language

from . import services
from .keepers import match_writes
from .engine.errors import ScoringError
from .engine.scoring import OUTCOME_FIELDS
from .models import Game, Match, MatchFile, MatchStatus, Player
from .permissions import is_site_admin, may_create_match, may_delete_players, may_enter_results

REFUSALS = (ValidationError, ScoringError, ConflictError, PermissionDenied)
"""What a service raises when it refuses a write: shown to the admin user, nothing changed."""


def refusal_text(error: Exception) -> str:
    if isinstance(error, ScoringError):
        return error.message
    if isinstance(error, ValidationError):
        return "; ".join(error.messages)
    return str(error)


def add_refusal(form: forms.BaseForm, error: Exception) -> None:
    """Put a service's refusal beside the fields it names (or above the form)."""
    if isinstance(error, ScoringError):
        form.add_error(error.field if error.field in form.fields else None, error.message)
    elif isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        for field, texts in error.message_dict.items():
            form.add_error(field if field in form.fields else None, texts)
    else:
        form.add_error(None, refusal_text(error))


class ServiceForm(forms.ModelForm):
    """A model form whose `clean` hands the data to a service (set by the admin as `write`).

    The service saves; a refusal is shown on the form and nothing is stored. The model form's
    own checks of the instance are skipped: the service validates what it writes.
    """

    write = None

    def clean(self):
        data = super().clean()
        if not self.errors and self.write is not None:
            try:
                self.written = self.write(data)
            except REFUSALS as error:
                add_refusal(self, error)
        return data

    def _post_clean(self):
        """Nothing more to check: the service validated the object and saved it."""


class ServiceAdminMixin:
    """An admin whose add and change forms write through a service (`create`, `update`)."""

    def create(self, request, data):
        raise PermissionDenied(_("This cannot be added here."))

    def update(self, request, obj, data, changed: list[str]):
        raise PermissionDenied(_("This cannot be changed here."))

    def get_form(self, request, obj=None, **kwargs):
        kwargs.setdefault("form", ServiceForm)
        form = super().get_form(request, obj, **kwargs)
        admin_ = self

        class Form(form):
            def write(self, data):
                if obj is None:
                    return admin_.create(request, data)
                changed = [name for name in self.changed_data if name in data]
                if not changed:
                    return obj
                return admin_.update(request, obj, data, changed)

        return Form

    def save_model(self, request, obj, form, change):
        obj.__dict__.update(form.written.__dict__)

    def save_related(self, request, form, formsets, change):
        """Related rows are written by the services too."""

    def construct_change_message(self, request, form, formsets, add=False):
        return super().construct_change_message(request, form, [], add)  # inlines are never changed here


class ServiceAdmin(ServiceAdminMixin, SimpleHistoryAdmin):
    """A `ServiceAdminMixin` with the history of each object, which is shown and never reverted."""

    def revert_disabled(self, request, obj=None):
        return True

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        """An earlier version is shown, never saved back: a correction goes through the services."""
        if request.method == "POST":
            raise PermissionDenied(_("An earlier version cannot be restored here."))
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(Player)
class PlayerAdmin(ServiceAdmin):
    list_display = ["name", "country", "club", "federation_id"]
    list_filter = ["country"]
    search_fields = ["name", "club", "federation_id"]
    fields = ["name", "country", "club", "federation_id"]

    def has_delete_permission(self, request, obj=None):
        return may_delete_players(request.user)

    def create(self, request, data):
        return services.player_create(by=request.user, **{f: data.get(f) for f in self.fields})

    def update(self, request, obj, data, changed):
        return services.player_update(player=obj, by=request.user, **{f: data.get(f) for f in changed})


class GameInline(admin.TabularInline):
    """The score sheet: one row per game, as the rules scored it."""

    model = Game
    extra = 0
    can_delete = False
    fields = ["number", "winner", "end", "kind", "cube", "cube_owner", "points", "crawford",
              "score_a_after", "score_b_after"]
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


MATCH_RULES = ["player_a", "player_b", "kind", "length", "cube_cap", "jacoby", "beavers", "raccoons",
               "automatic_doubles", "automatic_double_cap"]


@admin.register(Match)
class MatchAdmin(ServiceAdmin):
    """A match is added with its rules; afterwards only `rated` and `played_on` change, through
    `match_update` (which has the ratings recomputed). Games come from the score sheet."""

    list_display = ["__str__", "played_on", "status", "score_a", "score_b", "crawford_game", "rated"]
    list_filter = ["status", "kind", "rated"]
    search_fields = ["player_a__name", "player_b__name"]
    list_select_related = ["player_a", "player_b"]
    autocomplete_fields = ["player_a", "player_b"]
    inlines = [GameInline]
    derived = ["status", "score_a", "score_b", "crawford_game", "post_crawford", "winner", "forfeited_by",
               "finished_at", "version", "created_by", "source", "source_key"]
    actions = ["delete_last_game"]

    def get_fields(self, request, obj=None):
        editable = MATCH_RULES + ["played_on", "rated"]
        return editable if obj is None else editable + self.derived

    def get_readonly_fields(self, request, obj=None):
        return self.derived if obj is None else self.derived + MATCH_RULES

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        return False  # a result leaves the history through its games, a forfeit or the event, never here

    def has_add_permission(self, request):
        return may_create_match(request.user)

    def create(self, request, data):
        return services.match_create(by=request.user, **{f: data[f] for f in MATCH_RULES + ["played_on", "rated"]})

    def update(self, request, obj, data, changed):
        return match_writes(obj).match_update(
            match=obj, by=request.user, reason="changed in admin", **{f: data[f] for f in changed}
        )

    @admin.action(description=gettext_lazy("Delete the last game of the selected matches (kept in the history)"))
    def delete_last_game(self, request, queryset):
        for match in queryset:
            if not may_enter_results(request.user, match):
                self.message_user(request, _("%(match)s: only a TD of its event or a site admin changes its games.")
                                  % {"match": match}, messages.ERROR)
                continue
            try:
                match_writes(match).game_delete_last(match=match, by=request.user, reason="deleted in admin")
            except REFUSALS as error:
                self.message_user(request, _("%(match)s: %(refusal)s") % {"match": match, "refusal": refusal_text(error)},
                                  messages.ERROR)


class GameEntryForm(ServiceForm):
    """Record the next game of a match; the rules engine checks it before anything is saved."""

    class Meta:
        model = Game
        fields = ["match", "winner", "end", "kind", "cube", "cube_owner", "beavered", "raccooned",
                  "automatic_doubles", "points"]

    points = forms.IntegerField(required=False, min_value=1, label=gettext_lazy("points"),
                                help_text=gettext_lazy("Leave empty: the rules compute it."))


@admin.register(Game)
class GameAdmin(ServiceAdmin):
    """Games are recorded as the next game of their match; a recorded game is shown, not edited
    (corrections keep the earlier version: use the API or the TD's desk); only the last game of
    a match can be deleted, and it stays in the match's history."""

    list_display = ["match", "number", "winner", "kind", "cube", "points", "crawford"]
    list_select_related = ["match__player_a", "match__player_b"]
    autocomplete_fields = ["match"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = GameEntryForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Game._meta.fields] if obj else []

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        """Only the last game of a match that was not forfeited, one at a time."""
        if obj is None or not may_enter_results(request.user, obj.match):
            return False
        match = obj.match
        last = match.games.order_by("-number").values_list("number", flat=True).first()
        return obj.number == last and match.status != MatchStatus.FORFEITED

    def has_add_permission(self, request):
        return is_site_admin(request.user)  # who may enter games of any match; each is asked again below

    def create(self, request, data):
        match = data["match"]
        if not may_enter_results(request.user, match):
            raise PermissionDenied(_("Only a TD of its event or a site admin enters the games of this match."))
        game = services.GameInput(**{field: data.get(field) for field in OUTCOME_FIELDS})
        match = match_writes(match).game_record(match=match, number=match.games.count() + 1, game=game,
                                                 by=request.user)
        return match.games.order_by("-number").first()

    def delete_view(self, request, object_id, extra_context=None):
        """The confirmed delete of the last game, through `game_delete_last`; back to its match."""
        game = self.get_object(request, unquote(object_id)) if request.method == "POST" else None
        if game is None or not self.has_delete_permission(request, game):
            return super().delete_view(request, object_id, extra_context)
        match = game.match
        back = HttpResponseRedirect(reverse("admin:games_match_change", args=[match.pk]))
        reason = in_site_language(gettext_noop("game %(number)s deleted in admin"), {"number": game.number})
        try:
            match_writes(match).game_delete_last(match=match, number=game.number, by=request.user, reason=reason)
        except REFUSALS as error:
            self.message_user(request, _("Game %(number)s was not deleted: %(reason)s")
                              % {"number": game.number, "reason": refusal_text(error)}, messages.ERROR)
            return back
        self.log_deletions(request, [game])
        self.message_user(request, _("Game %(number)s deleted; it stays in the match's history.")
                          % {"number": game.number})
        return back


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records written by a service only (a command, a task, the API): shown here, never added,
    changed or deleted."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(MatchFile)
class MatchFileAdmin(ReadOnlyAdmin):
    """Match files are stored by `import_mat` and the match-files API, kept with their match."""

    list_display = ["name", "match", "uploaded_at"]
    readonly_fields = ["match", "name", "text", "sha256", "uploaded_at", "uploaded_by"]
