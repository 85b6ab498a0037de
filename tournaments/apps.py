from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from analysis.signals import analysis_will_store
        from config.api import existing_route_register
        from games.jobs import job_sweep_register
        from games.keepers import match_keeper_register
        from games.pages import match_context_register

        from . import receivers, selectors
        from .services import notifications, scoresheet

        existing_route_register("tournaments.tournament", "tournament-detail", "slug")
        match_keeper_register(scoresheet.is_pairing_match, scoresheet.WRITES)
        match_context_register(selectors.match_pages_context)
        analysis_will_store.connect(receivers.analysis_will_store, dispatch_uid="tournaments.pairing_analysis")
        job_sweep_register("notifications", notifications.pairing_notices_owed)
