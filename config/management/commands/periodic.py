"""manage.py periodic: the periodic checks once, as beat sends them (ratings owed, analyses lost,
the heartbeat). For a site without beat: a small club's systemd timer runs it every minute."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import ngettext

from config.celery import app


class Command(BaseCommand):
    help = "Run every periodic check of the beat schedule once, in this process."

    def handle(self, *args, **options):
        app.loader.import_default_modules()
        failed = []
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
            result = app.tasks[entry["task"]].apply()
            if result.failed():
                failed.append(name)
                self.stderr.write(f"{name}: failed: {type(result.result).__name__}: {result.result}")
            else:
                self.stdout.write(f"{name}: done")
        if failed:
            raise CommandError(ngettext("%(count)s periodic check failed: %(names)s", "%(count)s periodic checks failed: %(names)s",
                                        len(failed)) % {"count": len(failed), "names": ", ".join(failed)})
