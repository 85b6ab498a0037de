from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Analysis"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games.jobs import job_sweep_register
        from games.pages import match_panel_register, replay_notes_register
        from games.models import MatchFile

        from . import receivers, selectors, services

        post_save.connect(receivers.match_file_saved, sender=MatchFile, dispatch_uid="analysis.match_file_saved")
        job_sweep_register("analyses", lambda: len(services.analysis_owed()))
        match_panel_register("end", selectors.match_analysis_html)
        replay_notes_register(selectors.replay_notes_html)
