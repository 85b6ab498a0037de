from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LanguagePreference(models.Model):
    """The language a person chose to read Crawford in, kept with his login: his pages after every
    log-in, and the e-mails sent to him (by a page or a background task), are in it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="language_preference", verbose_name=_("login"))
    code = models.CharField(_("language"), max_length=16, help_text=_("A code of settings.LANGUAGES, e.g. da or el."))
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("language preference")
        verbose_name_plural = _("language preferences")

    def __str__(self):
        return f"{self.user_id}: {self.code}"
