from django.shortcuts import render

from . import selectors


def home(request):
    return render(request, "home.html", {"recent": selectors.match_list().filter(status="finished")[:20]})
