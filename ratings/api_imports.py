"""REST API: import finished matches from a results CSV, as `manage.py import_results` does."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services


class ResultsImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="CSV: played_on,player_a,player_b,length,score_a,score_b[,event,source_id]")
    check = serializers.BooleanField(default=False, help_text="Only check the file; store nothing.")


class ResultsImportView(APIView):
    """Staff: import finished matches from a results CSV. Every row is checked first; one bad row
    stores nothing (400 with each bad row's line); rows imported before are skipped."""

    permission_classes = [permissions.IsAdminUser]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request={"multipart/form-data": ResultsImportSerializer}, responses={200: None, 201: None, 400: None})
    def post(self, request):
        serializer = ResultsImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload, check = serializer.validated_data["file"], serializer.validated_data["check"]
        limit = settings.CRAWFORD_MAX_RESULTS_FILE_BYTES
        if upload.size > limit:
            raise serializers.ValidationError(
                {"file": [f"The file is {upload.size:,} bytes; results files up to {limit:,} bytes are accepted."]})
        note = None
        try:
            text, note = services.results_file_decode(upload.read())
            rows = services.results_file_read(text=text)
            if check:
                return Response({"rows": len(rows), "note": note})
            report = services.results_import(rows=rows, by=request.user)
        except services.ResultsFileError as error:
            return Response({
                "file": ["Nothing was imported: fix these rows."],
                "rows": [{"line": line, "problem": problem} for line, problem in error.problems],
                "note": note,
            }, status=status.HTTP_400_BAD_REQUEST)
        return Response({"imported": report.imported, "already_there": report.already_there,
                         "players_created": report.players_created, "note": note},
                        status=status.HTTP_201_CREATED if report.imported else status.HTTP_200_OK)
