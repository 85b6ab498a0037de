from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The site itself: its settings, its commands, and the language each person reads it in."""

    name = "config"
    verbose_name = "Site"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .languages import language_apply_at_login

        user_logged_in.connect(language_apply_at_login, dispatch_uid="crawford-language-at-login")
