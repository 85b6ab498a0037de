"""Admin for players, matches and games. Games are entered and corrected through the services."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from simple_history.admin import SimpleHistoryAdmin

from config.errors import ConflictError

from . import services
from .engine.errors import ScoringError
from .models import Game, Match, MatchFile, Player


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["name", "country", "club", "federation_id"]
    list_filter = ["country"]
    search_fields = ["name", "club", "federation_id"]


class GameInline(admin.TabularInline):
    """The score sheet: one row per game, as the rules scored it."""

    model = Game
    extra = 0
    can_delete = False
    fields = ["number", "winner", "end", "kind", "cube", "cube_owner", "points", "crawford",
              "score_a_after", "score_b_after"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "played_on", "status", "score_a", "score_b", "crawford_game", "rated"]
    list_filter = ["status", "kind", "rated"]
    search_fields = ["player_a__name", "player_b__name"]
    list_select_related = ["player_a", "player_b"]
    autocomplete_fields = ["player_a", "player_b"]
    inlines = [GameInline]
    derived = ["status", "score_a", "score_b", "crawford_game", "post_crawford", "winner", "forfeited_by",
               "finished_at", "version", "created_by", "source", "source_key"]
    actions = ["delete_last_game"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.derived
        rules = ["player_a", "player_b", "kind", "length", "cube_cap", "jacoby", "beavers", "raccoons",
                 "automatic_doubles", "automatic_double_cap"]
        return self.derived + rules

    def save_model(self, request, obj, form, change):
        if change:
            services_fields = {f: form.cleaned_data[f] for f in ("played_on", "rated") if f in form.changed_data}
            for field, value in services_fields.items():
                setattr(obj, field, value)
            obj._history_user = request.user
            obj.save(update_fields=list(services_fields) or None)
            return
        data = {f: form.cleaned_data[f] for f in (
            "player_a", "player_b", "kind", "length", "cube_cap", "jacoby", "beavers", "raccoons",
            "automatic_doubles", "automatic_double_cap", "played_on", "rated")}
        created = services.match_create(by=request.user, **data)
        obj.pk = created.pk
        obj.__dict__.update(created.__dict__)

    @admin.action(description="Delete the last game of the selected matches (kept in the history)")
    def delete_last_game(self, request, queryset):
        for match in queryset:
            try:
                services.game_delete_last(match=match, by=request.user, reason="deleted in admin")
            except (ValidationError, ScoringError, ConflictError) as error:
                self.message_user(request, f"{match}: {error}", messages.ERROR)


class GameEntryForm(forms.ModelForm):
    """Record the next game of a match; the rules engine checks it before anything is saved."""

    class Meta:
        model = Game
        fields = ["match", "winner", "end", "kind", "cube", "cube_owner", "beavered", "raccooned",
                  "automatic_doubles", "points"]

    points = forms.IntegerField(required=False, min_value=1, help_text="Leave empty: the rules compute it.")

    def clean(self):
        data = super().clean()
        match = data.get("match")
        if match is None or self.errors:
            return data
        self.entry = services.GameInput(
            winner=data["winner"], end=data["end"], kind=data["kind"], cube=data["cube"],
            cube_owner=data.get("cube_owner"), beavered=data["beavered"], raccooned=data["raccooned"],
            automatic_doubles=data["automatic_doubles"], points=data.get("points"),
        )
        try:
            services.game_validate(match=match, game=self.entry)
        except ScoringError as error:
            field = error.field if error.field in self.fields else None
            raise ValidationError({field: error.message} if field else error.message) from None
        return data


@admin.register(Game)
class GameAdmin(SimpleHistoryAdmin):
    list_display = ["match", "number", "winner", "kind", "cube", "points", "crawford"]
    list_select_related = ["match__player_a", "match__player_b"]
    autocomplete_fields = ["match"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = GameEntryForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Game._meta.fields] if obj else []

    def save_model(self, request, obj, form, change):
        match = services.game_record(
            match=form.cleaned_data["match"], number=form.cleaned_data["match"].games.count() + 1,
            game=form.entry, by=request.user,
        )
        obj.pk = match.games.order_by("-number").values_list("pk", flat=True).first()


@admin.register(MatchFile)
class MatchFileAdmin(admin.ModelAdmin):
    list_display = ["name", "match", "uploaded_at"]
    readonly_fields = ["match", "name", "text", "sha256", "uploaded_at", "uploaded_by"]
