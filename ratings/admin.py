from django.contrib import admin

from .models import RatingRun, RatingSystemState


@admin.register(RatingRun)
class RatingRunAdmin(admin.ModelAdmin):
    """Runs are written by the recompute only: shown, never edited here."""

    list_display = ["id", "system", "status", "stage", "matches_done", "matches_total", "published", "requested_at",
                    "finished_at"]
    list_filter = ["system", "status", "published"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingSystemState)
class RatingSystemStateAdmin(admin.ModelAdmin):
    list_display = ["system", "published_run", "requested", "claimed", "queued_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
