"""Places in a flight before its draw: the cap, the entries, the waiting list, check-in and
withdrawal add up, whichever way a place is taken (the desk, the players' pages, the API)."""

import datetime
import itertools
import os

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from config.errors import ConflictError
from games import services as games
from tournaments import services
from tournaments.models import Entry, EntryStatus, WaitingEntry
from tournaments.services import registration

from .helpers import API, ok

pytestmark = pytest.mark.django_db

_serial = itertools.count(1)


@pytest.fixture
def cup(make_user):
    """A flight open for online registration with 2 places: Anna and Bo entered, Cy and Di waiting."""
    n = next(_serial)
    td = make_user(f"cup-td-{n}")
    admin = get_user_model().objects.create_user(f"cup-admin-{n}", is_superuser=True)
    event = services.tournament_create(name=f"Club Cup {n}", start_date=datetime.date(2026, 6, 1), organisers=[td],
                                       by=admin)
    flight = services.flight_create(tournament=event, name="Main", format="round_robin", lengths=[3], by=td)
    registration.registration_open(flight=flight, by=td, closes=timezone.now() + datetime.timedelta(days=2), cap=2)
    people = {}
    for name in ("Anna", "Bo", "Cy", "Di", "Ed"):
        player = games.player_create(name=f"{name} {n}")
        people[name] = (player, make_user(f"{name.lower()}-{n}", player=player))
    for name in ("Anna", "Bo", "Cy", "Di"):
        registration.registration_enter(flight=flight, by=people[name][1])
    flight.refresh_from_db()
    return {"td": td, "event": event, "flight": flight, "people": people}


def entered(flight):
    return sorted(Entry.objects.filter(flight=flight).exclude(status=EntryStatus.WITHDRAWN)
                  .values_list("player__name", flat=True))


def waiting(flight):
    return list(WaitingEntry.objects.filter(flight=flight).values_list("player__name", flat=True))


def test_the_desk_cannot_enter_a_waiting_player_past_the_places_and_says_what_to_do(cup, client):
    n = _n(cup)
    client.force_login(cup["td"])
    cy = cup["people"]["Cy"][0]
    page = client.post(f"/desk/{cup['event'].slug}/", {"action": "enter", "flight": cup["flight"].pk,
                                                         "player": cy.pk}, follow=True)
    assert (f"Main is full: all 2 places are taken. Cy {n} is number 1 on the waiting list. Raise the number of "
            "places to enter him." in page.content.decode())
    assert entered(cup["flight"]) == [f"Anna {_n(cup)}", f"Bo {_n(cup)}"]
    assert waiting(cup["flight"]) == [f"Cy {_n(cup)}", f"Di {_n(cup)}"]


def _n(cup):
    return cup["people"]["Anna"][0].name.split()[1]


def test_a_waiting_player_entered_at_the_desk_leaves_the_waiting_list_and_the_next_cancellation_works(cup, client_for):
    n, flight, td = _n(cup), cup["flight"], cup["td"]
    registration.registration_open(flight=flight, by=td, closes=flight.registration_closes, cap=3)
    # More places: Cy, first waiting, took the third; the TD now enters Di at the desk with a fourth.
    registration.registration_open(flight=flight, by=td, closes=flight.registration_closes, cap=4)
    assert waiting(flight) == []
    assert entered(flight) == [f"Anna {n}", f"Bo {n}", f"Cy {n}", f"Di {n}"]
    # A player waiting while the flight is full, entered by the TD once a place is free, leaves the list.
    ed = cup["people"]["Ed"]
    registration.registration_enter(flight=flight, by=ed[1])
    assert waiting(flight) == [f"Ed {n}"]
    anna = Entry.objects.get(flight=flight, player=cup["people"]["Anna"][0])
    ok(client_for(td).post(f"{API}/entries/{anna.pk}/withdraw/", {"reason": "ill"}, format="json"))
    assert waiting(flight) == []
    assert entered(flight) == [f"Bo {n}", f"Cy {n}", f"Di {n}", f"Ed {n}"]
    # The next cancellation in the flight simply frees a place.
    registration.registration_cancel(flight=flight, by=cup["people"]["Bo"][1])
    assert entered(flight) == [f"Cy {n}", f"Di {n}", f"Ed {n}"]


def test_the_api_enters_a_waiting_player_only_into_a_free_place_and_takes_him_off_the_list(cup, client_for):
    n, flight, td = _n(cup), cup["flight"], cup["td"]
    cy = cup["people"]["Cy"][0]
    response = client_for(td).post(f"{API}/entries/", {"flight": flight.pk, "player": cy.pk}, format="json")
    assert response.status_code == 400
    assert response.json() == {"player": [f"Main is full: all 2 places are taken. Cy {n} is number 1 on the "
                                          "waiting list. Raise the number of places to enter him."]}
    assert waiting(flight) == [f"Cy {n}", f"Di {n}"]


def test_a_player_who_withdrew_cannot_check_in_again_ahead_of_the_waiting_list(cup, client_for, client):
    n, flight, td = _n(cup), cup["flight"], cup["td"]
    anna = Entry.objects.get(flight=flight, player=cup["people"]["Anna"][0])
    services.entry_withdraw(entry=anna, by=td)
    assert entered(flight) == [f"Bo {n}", f"Cy {n}"]
    assert waiting(flight) == [f"Di {n}"]
    message = (f"Anna {n} withdrew from Main, whose 2 places are all taken and 1 player waits for one: he can join "
               "the waiting list, or the TD raises the number of places.")
    response = client_for(td).post(f"{API}/entries/{anna.pk}/check-in/")
    assert response.status_code == 400
    assert response.json() == {"status": [message]}
    client.force_login(td)
    page = client.post(f"/desk/{cup['event'].slug}/", {"action": "check_in", "entry": anna.pk}, follow=True)
    assert message in page.content.decode()
    assert entered(flight) == [f"Bo {n}", f"Cy {n}"]
    assert Entry.objects.get(pk=anna.pk).status == EntryStatus.WITHDRAWN


def test_raising_the_places_on_the_event_page_promotes_the_waiting_list_in_order(cup, client):
    n, flight, td = _n(cup), cup["flight"], cup["td"]
    registration.registration_enter(flight=flight, by=cup["people"]["Ed"][1])
    client.force_login(td)
    closes = timezone.localtime(flight.registration_closes).strftime("%Y-%m-%dT%H:%M")
    client.post(f"/events/{cup['event'].slug}/register/", {"action": "open", "flight": flight.pk, "closes": closes,
                                                              "cap": "4"})
    assert entered(flight) == [f"Anna {n}", f"Bo {n}", f"Cy {n}", f"Di {n}"]
    assert waiting(flight) == [f"Ed {n}"]


def test_fewer_places_than_players_entered_are_refused(cup):
    flight = cup["flight"]
    registration.registration_open(flight=flight, by=cup["td"], closes=flight.registration_closes, cap=4)
    with pytest.raises(ValidationError) as refused:
        registration.registration_open(flight=flight, by=cup["td"], closes=flight.registration_closes, cap=3)
    assert refused.value.message_dict == {"cap": ["4 players are entered in Main already: give at least 4 places "
                                                  "(withdraw players first to have fewer)."]}


def test_a_new_registrant_queues_behind_the_waiting_list_even_when_a_place_is_free(cup):
    n, flight = _n(cup), cup["flight"]
    # Left over from before the places were counted: a free place while two wait.
    Entry.objects.filter(flight=flight, player=cup["people"]["Bo"][0]).update(status=EntryStatus.WITHDRAWN)
    made = registration.registration_enter(flight=flight, by=cup["people"]["Ed"][1])
    assert isinstance(made, WaitingEntry)
    assert waiting(flight) == [f"Cy {n}", f"Di {n}", f"Ed {n}"]


REFUSED = (ValidationError, ConflictError, PermissionDenied)
EXAMPLES, STEPS = (15, 50) if os.environ.get("CI") else (8, 30)


class Places(RuleBasedStateMachine):
    """A flight before its draw, with eight players who register, take it back, are entered or
    withdrawn at the desk, check in, and a TD who changes the number of places."""

    @initialize(cap=st.integers(min_value=2, max_value=4))
    def start(self, cap):
        n = next(_serial)
        User = get_user_model()
        self.td = User.objects.create_user(f"places-td-{n}")
        admin = User.objects.create_user(f"places-admin-{n}", is_superuser=True)
        event = services.tournament_create(name=f"Places {n}", start_date=datetime.date(2026, 6, 1),
                                           organisers=[self.td], by=admin)
        self.flight = services.flight_create(tournament=event, name="Main", format="swiss", lengths=[3],
                                             swiss_rounds=3, by=self.td)
        self.closes = timezone.now() + datetime.timedelta(days=1)
        registration.registration_open(flight=self.flight, by=self.td, closes=self.closes, cap=cap)
        from tournaments.models import PlayerAccount

        self.players, self.logins = [], []
        for i in range(8):
            player = games.player_create(name=f"Places {n}-{i}")
            login = User.objects.create_user(f"places-{n}-{i}")
            PlayerAccount.objects.create(player=player, user=login)
            self.players.append(player)
            self.logins.append(login)
        self.order = []  # the waiting list as the players joined it

    def _try(self, call):
        try:
            return call()
        except REFUSED:
            return None

    def _sync_order(self):
        ids = set(WaitingEntry.objects.filter(flight=self.flight).values_list("player_id", flat=True))
        self.order = [pid for pid in self.order if pid in ids]

    @rule(i=st.integers(0, 7))
    def register(self, i):
        made = self._try(lambda: registration.registration_enter(flight=self.flight, by=self.logins[i]))
        self._sync_order()
        if isinstance(made, WaitingEntry):
            self.order.append(self.players[i].pk)

    @rule(i=st.integers(0, 7))
    def cancel(self, i):
        self._try(lambda: registration.registration_cancel(flight=self.flight, by=self.logins[i]))
        self._sync_order()

    @rule(i=st.integers(0, 7))
    def desk_enter(self, i):
        self._try(lambda: services.entry_add(flight=self.flight, player=self.players[i], by=self.td))
        self._sync_order()

    @rule(i=st.integers(0, 7), by_td=st.booleans())
    def withdraw(self, i, by_td):
        entry = Entry.objects.filter(flight=self.flight, player=self.players[i]).first()
        if entry is not None:
            self._try(lambda: services.entry_withdraw(entry=entry, by=self.td if by_td else self.logins[i]))
        self._sync_order()

    @rule(i=st.integers(0, 7))
    def check_in(self, i):
        entry = Entry.objects.filter(flight=self.flight, player=self.players[i]).first()
        if entry is not None:
            self._try(lambda: services.entry_check_in(entry=entry, by=self.td))
        self._sync_order()

    @rule(cap=st.one_of(st.none(), st.integers(min_value=2, max_value=6)))
    def set_places(self, cap):
        self._try(lambda: registration.registration_open(flight=self.flight, by=self.td, closes=self.closes,
                                                          cap=cap))
        self._sync_order()

    @invariant()
    def places_add_up(self):
        if not hasattr(self, "flight"):
            return
        self.flight.refresh_from_db()
        active = set(Entry.objects.filter(flight=self.flight).exclude(status=EntryStatus.WITHDRAWN)
                     .values_list("player_id", flat=True))
        queue = list(WaitingEntry.objects.filter(flight=self.flight).values_list("player_id", flat=True))
        cap = self.flight.registration_cap
        assert cap is None or len(active) <= cap
        assert not active & set(queue)
        assert queue == self.order
        # A player waits only while the flight is full.
        assert not queue or (cap is not None and len(active) == cap)


def test_places_add_up_whatever_the_players_and_the_td_do_in_whatever_order():
    run_state_machine_as_test(Places, settings=settings(max_examples=EXAMPLES, stateful_step_count=STEPS))
