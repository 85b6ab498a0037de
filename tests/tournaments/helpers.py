"""What the API tests of events share."""

API = "/api/v1"


def ok(response, code=200):
    """The JSON body of a response that has the expected status (the body is shown when not)."""
    assert response.status_code == code, response.content
    return response.json()


class FlightDriver:
    """A TD's view of one flight through the API, with players known by their seed."""

    def __init__(self, td_api, flight, seed_of):
        self.td_api, self.flight, self.seed_of = td_api, flight, seed_of
        self.player = {seed: pid for pid, seed in seed_of.items()}

    def pairings(self, **filters):
        rows, page = [], 1
        while True:
            body = ok(self.td_api.get(f"{API}/pairings/", {"flight": self.flight, "page": page, **filters}))
            rows += body["results"]
            if not body["next"]:
                return rows
            page += 1

    def drawn(self, **filters):
        """Stored pairings: slot -> (seed a, seed b or None for a bye, status)."""
        return {
            p["slot"]: (self.seed_of[p["player_a"]["id"]],
                        p["player_b"] and self.seed_of[p["player_b"]["id"]], p["status"])
            for p in self.pairings(**filters)
        }

    def pairing(self, slot):
        return next(p for p in self.pairings(slot=slot))

    def win(self, slot, winner_seed, client=None):
        """The TD (or `client`) reports `slot` won by `winner_seed`, the loser one point short."""
        p = self.pairing(slot)
        length = p["length"]
        a_wins = self.seed_of[p["player_a"]["id"]] == winner_seed
        assert a_wins or self.seed_of[p["player_b"]["id"]] == winner_seed, (slot, winner_seed)
        body = {"score_a": length, "score_b": length - 1} if a_wins else {"score_a": length - 1, "score_b": length}
        return ok((client or self.td_api).post(f"{API}/pairings/{p['id']}/reports/", body, format="json"), 201)

    def reads(self):
        """What every snapshot holds: the pairings, the number of reports, the flight."""
        return (
            self.pairings(),
            ok(self.td_api.get(f"{API}/result-reports/"))["count"],
            ok(self.td_api.get(f"{API}/flights/{self.flight}/")),
        )
