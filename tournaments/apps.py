from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from games.signals import match_result_changed

        from . import receivers

        match_result_changed.connect(receivers.match_result_changed, dispatch_uid="tournaments.pairing_result")
