from django.contrib import admin
from django.urls import reverse

from games.admin import ReadOnlyAdmin

from .models import OfficialList, RatingCalibration, RatingRun, RatingSystemState


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
