"""The name matcher on its own: no database."""

from games.names import Known, Matcher, fold, surname_first

ROSTER = [
    Known(1, "Søren Thygesen", "Copenhagen BG"), Known(2, "Greta Kowalski", "Warsaw BC"),
    Known(3, "Anna Berg", "Oslo BK"), Known(4, "Anna Lind", "Malmö BK"), Known(5, "Seed 1"),
    Known(6, "Hans Müller", "Wien"),
]


def asked(typed, club=""):
    return [(c.name, c.why) for c in Matcher(ROSTER).candidates(typed, club=club)]


def test_accents_and_special_letters_are_folded():
    assert fold("Søren  Thygesen-Holm") == "soren thygesen holm"
    assert fold("Hans MÜLLER") == "hans muller"
    assert asked("Soren Thygesen") == [("Søren Thygesen", "the same name without accents")]


def test_a_near_spelling_is_offered_and_an_exact_name_is_the_only_answer():
    assert asked("Greta Kowalsky") == [("Greta Kowalski", "a near spelling")]
    assert asked("greta  KOWALSKI") == [("Greta Kowalski", "the same name")]


def test_surname_given_is_read_as_a_name():
    assert surname_first("Kowalski, Greta") == "Greta Kowalski"
    assert surname_first("Greta Kowalski") is None
    assert asked("Kowalski Greta") == [("Greta Kowalski", "the same name, its words in another order")]


def test_a_lone_given_name_offers_its_players_those_of_the_club_first():
    assert asked("Anna", club="Malmö BK") == [("Anna Lind", "the same given name"), ("Anna Berg", "the same given name")]


def test_names_that_differ_in_a_number_or_share_nothing_are_new_players():
    assert asked("Seed 10") == []
    assert asked("Jan Novak") == []


def test_many_names_at_once_get_the_same_answers_as_one_by_one():
    matcher = Matcher(ROSTER)
    typed = ["Soren Thygesen", "Greta Kowalsky", "Kowalski Greta", "Anna", "Seed 10", "Jan Novak", "Anna Berg"]
    one_by_one = {name: matcher.candidates(name) for name in typed}
    assert matcher.candidates_many(typed) == {name: found for name, found in one_by_one.items() if found}
