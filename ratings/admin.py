from django.contrib import admin
from django.db import transaction
from django.urls import reverse

from games.admin import ReadOnlyAdmin

from . import services
from .permissions import may_import_ratings
from .models import ChangeKind, OfficialList, RatingCalibration, RatingRun, RatingStart, RatingSystemState


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnlyAdmin):
    """Runs are written by the recompute only: shown, never edited here."""

    list_display = ["id", "system", "status", "stage", "matches_done", "matches_total", "published", "requested_at",
                    "finished_at"]
    list_filter = ["system", "status", "published"]


@admin.register(RatingSystemState)
class RatingSystemStateAdmin(ReadOnlyAdmin):
    list_display = ["system", "published_run", "requested", "claimed", "queued_at"]


@admin.register(OfficialList)
class OfficialListAdmin(ReadOnlyAdmin):
    """Official lists are published from the rating list page, the API or
    `manage.py publish_rating_list` (one service); once published they are kept as they are."""

    list_display = ["as_of", "system", "players", "published_at", "published_by", "note"]
    list_filter = ["system"]
    date_hierarchy = "as_of"

    def view_on_site(self, obj):
        """The list on the public rating list page (its rows are too many for an admin page)."""
        return f"{reverse('rating-list')}?system={obj.system}&list={obj.pk}"


@admin.register(RatingCalibration)
class RatingCalibrationAdmin(ReadOnlyAdmin):
    """Fits of crawford's parameters on this site's history (`calibrate_ratings`): shown, never
    edited here; adopting is the command's, on a staff member's confirmation."""

    list_display = ["id", "system", "status", "matches", "created_at", "adopted_at", "adopted_by"]
    list_filter = ["system", "status"]
    readonly_fields = ["system", "status", "parameters", "matches", "reason", "report", "created_at", "created_by",
                       "adopted_at", "adopted_by"]


@admin.register(RatingStart)
class RatingStartAdmin(admin.ModelAdmin):
    """Players' starts from another rating list; `manage.py import_ratings` or the API make them."""

    list_display = ("player", "rating", "experience", "as_of", "source", "imported_at")
    search_fields = ("player__name", "player__federation_id")
    list_select_related = ("player",)
    readonly_fields = ("imported_at", "imported_by")
    autocomplete_fields = ("player",)

    def has_add_permission(self, request):
        return super().has_add_permission(request) and may_import_ratings(request.user)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and may_import_ratings(request.user)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and may_import_ratings(request.user)

    def save_model(self, request, obj, form, change):
        """A start changed by hand reruns the ratings, as an import does."""
        obj.imported_by = request.user
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            services.rating_recompute_request(kind=ChangeKind.STARTS)

    def delete_model(self, request, obj):
        with transaction.atomic():
            super().delete_model(request, obj)
            services.rating_recompute_request(kind=ChangeKind.STARTS)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            super().delete_queryset(request, queryset)
            services.rating_recompute_request(kind=ChangeKind.STARTS)
