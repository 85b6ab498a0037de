"""`{{ user|shown_name }}`: a login as others see it (`games.people.public_name`), never its login name."""

from django import template

from games.people import public_name

register = template.Library()


@register.filter
def shown_name(user) -> str:
    return public_name(user) if user is not None else ""
