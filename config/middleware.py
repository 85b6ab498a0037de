"""What every HTML page does with a write that lost a race: the same 409 the API answers."""

from django.shortcuts import render

from .errors import as_conflict


class ConflictMiddleware:
    """A conflict no view answered itself (`ConflictError`, or a database lock that PostgreSQL
    gave up) is a 409 page that asks the person to reload, never a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        conflict = as_conflict(exception)
        if conflict is None:
            return None
        return render(request, "409.html", {"message": str(conflict), "back": request.get_full_path()}, status=409)
