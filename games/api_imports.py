"""REST API: import finished matches from a results CSV, as `manage.py import_results` does.

A check (`check=true`) answers at once. An import runs in the background: 202 with the job, to
poll at `/api/v1/imports/{id}/` (status, rows done of the total, errors by line, result).
"""

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from . import results
from .api import import_job_response
from .imports import import_job_submit
from .models import ImportKind
from .permissions import api_door, may_import_history
from .serializers import ImportJobSerializer


class ResultsImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=gettext_lazy(
        "CSV: played_on,player_a,player_b,length,score_a,score_b[,event,source_id,new_player]; the file's name is "
        "its sheet, part of each row's identity."))
    check = serializers.BooleanField(default=False, help_text=gettext_lazy("Only check the file; store nothing."))
    sheet = serializers.CharField(required=False, max_length=255, help_text=gettext_lazy(
        "The sheet's name, part of each row's identity (default: the file's name): give the same name when a sheet "
        "is sent again under another file name."))
    new_players = serializers.CharField(required=False, allow_blank=True, max_length=20_000, help_text=gettext_lazy(
        'Names that are new players even when near a player\'s, comma-separated: "David L,Anne K".'))
    accept_new_names = serializers.BooleanField(default=False, help_text=gettext_lazy(
        "Every name that is nobody's is a new player, even when near a player's."))

    def validate_sheet(self, value):
        if not value.strip() or "\x00" in value:
            raise serializers.ValidationError(_("Give the sheet a name, or leave the field out for the file's name."))
        return value


@extend_schema(description=gettext_lazy(
    "Staff: import finished matches from a results CSV. `check=true` checks every row and "
    "answers at once: 200 with the count, or 400 with each bad row's line. Otherwise the file "
    "becomes a background import: 202 with the job to poll at `/api/v1/imports/{id}/`. The job "
    "checks every row first (one bad row stores nothing: the job fails with the rows by line), "
    "then stores them, skipping rows imported before."))
class ResultsImportView(APIView):
    permission_classes = [api_door(may_import_history)]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request={"multipart/form-data": ResultsImportSerializer},
                   responses={200: None, 202: ImportJobSerializer, 400: None})
    def post(self, request):
        serializer = ResultsImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload, check = serializer.validated_data["file"], serializer.validated_data["check"]
        limit = settings.CRAWFORD_MAX_RESULTS_FILE_BYTES
        if upload.size > limit:
            raise serializers.ValidationError(
                {"file": [_("The file is %(size)s bytes; results files up to %(limit)s bytes are accepted.")
                          % {"size": number_format(upload.size, force_grouping=True),
                             "limit": number_format(limit, force_grouping=True)}]})
        note = None
        try:
            text, note = results.results_file_decode(upload.read())
            if check:
                rows = results.results_file_read(text=text)
                return Response({"rows": len(rows), "note": note})
        except results.ResultsFileError as error:
            return Response({
                "file": [_("Nothing was imported: fix these rows.")],
                "rows": [{"line": line, "problem": problem} for line, problem in error.problems],
                "note": note,
            }, status=status.HTTP_400_BAD_REQUEST)
        data = serializer.validated_data
        options = {"new_players": [name for name in data.get("new_players", "").replace("\x00", "").split(",")
                                   if name.strip()],
                   "accept_new_names": data["accept_new_names"]}
        if data.get("sheet"):
            options["sheet"] = data["sheet"]
        job = import_job_submit(kind=ImportKind.RESULTS, name=upload.name or "results.csv", text=text,
                                note=note or "", by=request.user, options=options)
        return import_job_response(job)
