"""The page of an import job: its progress bar, refreshed while it runs (staff only)."""

from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from .imports import import_job_stalled
from .models import ImportJob, ImportStatus


@staff_member_required
def import_job(request, pk: int):
    """One import: its status, rows done of the total, errors by line, and what it stored."""
    job = get_object_or_404(ImportJob.objects.defer("text"), pk=pk)
    context = {
        "job": job,
        "busy": job.status in (ImportStatus.QUEUED, ImportStatus.RUNNING),
        "stalled": import_job_stalled(job),
        "poll_url": reverse("import-job", args=[job.pk]),
    }
    if request.headers.get("X-Requested-With") == "fetch" or request.GET.get("fragment"):
        return render(request, "games/_import_job.html", context)
    return render(request, "games/import_job.html", context)
