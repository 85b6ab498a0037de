from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from analysis.signals import analysis_will_store
        from games.jobs import job_sweep_register
        from games.signals import match_result_changed, match_will_change

        from . import receivers
        from .services import notifications

        match_result_changed.connect(receivers.match_result_changed, dispatch_uid="tournaments.pairing_result")
        match_will_change.connect(receivers.match_will_change, dispatch_uid="tournaments.pairing_lock")
        analysis_will_store.connect(receivers.analysis_will_store, dispatch_uid="tournaments.pairing_analysis")
        job_sweep_register("notifications", notifications.pairing_notices_owed)
