"""The OpenAPI schema's own words where the libraries' catalogs lack the reader's language."""

from django.utils.translation import gettext as _
from drf_spectacular import openapi
from drf_spectacular.plumbing import get_view_model
from rest_framework.schemas.utils import get_pk_description


class AutoSchema(openapi.AutoSchema):
    """The schema of a view, its record's id in the path described in our own words (REST
    framework's "A unique integer value identifying this …" has no Danish, Greek or Japanese). A
    module of its own: `config.api` holds classes REST framework's settings name, which the schema
    generator's imports read."""

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        model = get_view_model(self.view, emit_warnings=False)
        if model is None:
            return parameters
        theirs = str(get_pk_description(model, model._meta.pk))
        for parameter in parameters:
            if parameter.get("description") == theirs:
                parameter["description"] = _("The id of the %(record)s.") % {"record": model._meta.verbose_name}
        return parameters
