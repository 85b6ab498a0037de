"""Fill an empty Crawford with a realistic demo: players, match history, events and ratings."""

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import demo as games_demo
from games.models import Player
from tournaments import demo as tournaments_demo

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-password"


class Command(BaseCommand):
    help = "Load demo data (players, matches, events, ratings) into an empty database. Safe to re-run."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=48)
        parser.add_argument("--matches", type=int, default=240)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, players, matches, seed, **options):
        if Player.objects.exists():
            self.stdout.write("The database already holds players: demo data not loaded again.")
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
        self.stdout.write(self.style.SUCCESS(
            f"Demo loaded: {len(cast)} players, {len(history)} matches, {len(events)} events."
            f" Admin login: {DEMO_USER} / {DEMO_PASSWORD}"
        ))
