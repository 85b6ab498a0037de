from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_migrate

        from analysis.signals import analysis_stored
        from games.jobs import job_sweep_register
        from games.pages import match_panel_register
        from games.models import Match
        from games.signals import match_result_changed, results_import_finished, results_imported

        from . import receivers, selectors, services

        match_result_changed.connect(receivers.result_changed, dispatch_uid="ratings.result_changed")
        results_imported.connect(receivers.results_imported, dispatch_uid="ratings.results_imported")
        results_import_finished.connect(receivers.results_import_finished, dispatch_uid="ratings.results_import_finished")
        post_migrate.connect(services.history_account_install, sender=self,
                             dispatch_uid="ratings.history_account_install")
        post_delete.connect(receivers.match_deleted, sender=Match, dispatch_uid="ratings.match_deleted")
        analysis_stored.connect(receivers.analysis_stored, dispatch_uid="ratings.analysis_stored")
        job_sweep_register("rating runs", lambda: len(services.rating_recompute_owed()))
        match_panel_register("after_sheet", selectors.match_rating_changes_html)
