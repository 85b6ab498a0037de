from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.utils.translation import gettext, ngettext

        from config.api import existing_route_register, field_error_register
        from config.languages import list_join

        from .engine.errors import ScoringError, translator_install
        from .imports import import_jobs_resume_stale, import_runner_register
        from .jobs import job_sweep_register
        from .matfiles import match_file_import_job
        from .models import ImportKind
        from .results import results_import_job

        field_error_register(ScoringError)
        translator_install(gettext, ngettext, list_join)  # the rules' refusals in the reader's language
        existing_route_register("games.player", "player-detail")
        import_runner_register(ImportKind.MATCH_FILE, match_file_import_job)
        import_runner_register(ImportKind.RESULTS, results_import_job)
        job_sweep_register("imports", lambda: len(import_jobs_resume_stale()))
