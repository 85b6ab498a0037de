"""Fill an empty Crawford with a realistic demo: players, match history, events and ratings."""

import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.management.base import TranslatedCommand

from games import demo as games_demo
from games.models import Player
from tournaments import demo as tournaments_demo
from tournaments import services as tournament_services
from tournaments.models import Pairing

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-password"
PLAYER_USER = "player"
PLAYER_PASSWORD = "player-password"


class Command(TranslatedCommand):
    help = gettext_lazy("Load demo data (players, matches, events, ratings) into an empty database. Safe to re-run.")

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=48)
        parser.add_argument("--matches", type=int, default=1500)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, players, matches, seed, **options):
        if Player.objects.exists():
            self.stdout.write(_("The database already holds players: demo data not loaded again."))
            return
        rng = random.Random(seed)
        with transaction.atomic():
            user_model = get_user_model()
            admin = user_model.objects.filter(username=DEMO_USER).first()
            if admin is None:
                admin = user_model.objects.create_superuser(DEMO_USER, "demo@example.org", DEMO_PASSWORD)
            cast = games_demo.demo_players(rng, players)
            history = games_demo.demo_matches(rng, cast, matches)
            events = tournaments_demo.demo_events(rng, cast, by=admin)
            replay = games_demo.demo_replay(rng, cast[:2])
            player = self._player_login(admin)
        self.stdout.write(self.style.SUCCESS(
            _("Demo loaded: %(players)s players, %(matches)s matches, %(events)s events. A game to replay: %(replay)s. "
              "Admin login: %(user)s / %(password)s")
            % {"players": len(cast), "matches": len(history), "events": len(events),
               "replay": f"/matches/{replay.pk}/games/1/", "user": DEMO_USER, "password": DEMO_PASSWORD}
            + (_("; %(player)s's login: %(user)s / %(password)s")
               % {"player": player.name, "user": PLAYER_USER, "password": PLAYER_PASSWORD} if player else "")
        ))

    @staticmethod
    def _player_login(admin):
        """A login for a player with a match to play in the running event, to try "My matches"."""
        pairing = (Pairing.objects.filter(flight__tournament__status="running", status="pending",
                                          player_b__isnull=False)
                   .select_related("player_a").order_by("flight__position", "round__number", "id").first())
        if pairing is None:
            return None
        user_model = get_user_model()
        user = user_model.objects.filter(username=PLAYER_USER).first()
        if user is None:
            user = user_model.objects.create_user(PLAYER_USER, password=PLAYER_PASSWORD)
        tournament_services.player_account_link(player=pairing.player_a, user=user, by=admin)
        return pairing.player_a
