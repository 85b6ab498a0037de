"""The Jinja2 environment of the desk's hot templates (`templates/jinja2/`): Django's `url` and
`static`, nothing else."""

from django.templatetags.static import static
from django.urls import reverse
from jinja2 import Environment


def environment(**options) -> Environment:
    env = Environment(**options)
    env.globals.update({"url": lambda name, *args: reverse(name, args=args), "static": static})
    return env
