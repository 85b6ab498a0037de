"""Which player a typed name means: one matcher for the desk's paste, imports, match files and the API.

Plain Python (no Django): it is handed the names of the players there are and says, for a typed
name, whether one of them is meant exactly, and which ones are near enough to ask about:

- the same name with its accents or special letters folded ("Soren" for "Søren", "Muller" for
  "Müller"), or in another case or spacing;
- a near spelling ("Kowalsky" for "Kowalski"), by edit distance (RapidFuzz), words in any order;
- "Surname, Given" read as "Given Surname";
- a lone given name ("Anna") against the players who have it, those of the club first.

Only a name that is the same as the record (case and spacing aside) is exact; anything else is
a question for a person, never a new player made silently.

    >>> roster = [Known(1, "Søren Thygesen", "Copenhagen BG"), Known(2, "Greta Kowalski", "Warsaw BC")]
    >>> [c.key for c in candidates("Soren Thygesen", roster)]
    [1]
    >>> candidates("Greta Kowalsky", roster)[0].why
    'a near spelling'
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable

import numpy
from rapidfuzz import fuzz, process

NEAR = 84
"""The least similarity (0-100, RapidFuzz's token sort ratio of the folded names) of a near spelling."""

MOST = 5
"""How many candidates a question offers at most."""

_SPECIAL = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
                          "ı": "i", "ŀ": "l"})
_NOT_LETTERS = re.compile(r"[^\w]+")


def fold(name: str) -> str:
    """A name as the matcher compares it: lower case, accents and special letters folded,
    punctuation as spaces, single spaces ("Søren  Thygesen-Holm" -> "soren thygesen holm")."""
    text = unicodedata.normalize("NFKD", name.casefold().translate(_SPECIAL))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).translate(_SPECIAL)
    return " ".join(_NOT_LETTERS.sub(" ", text).replace("_", " ").split())


def same_name(a: str, b: str) -> bool:
    """Whether two names are the same as a record keeps them: case and spacing aside."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def surname_first(text: str) -> str | None:
    """ "Kowalski, Greta" -> "Greta Kowalski": the name a "Surname, Given" line means, or None
    when the text is not written that way (no comma, or more than one)."""
    parts = [" ".join(part.split()) for part in text.split(",")]
    if len(parts) != 2 or not all(parts):
        return None
    return f"{parts[1]} {parts[0]}"


@dataclasses.dataclass(frozen=True, slots=True)
class Known:
    """A player there is, as the matcher sees him: a key (the id), his name and club."""

    key: int
    name: str
    club: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Candidate:
    """A player a typed name may mean, with why it was offered and how close it is (0-100)."""

    key: int
    name: str
    club: str
    why: str
    score: float


class Matcher:
    """The players there are, folded once, asked about any number of typed names."""

    def __init__(self, known: Iterable[Known]):
        self.known = list(known)
        self.folded = [fold(k.name) for k in self.known]
        self.by_fold: dict[str, list[int]] = {}
        self.by_word: dict[str, list[int]] = {}
        for index, name in enumerate(self.folded):
            self.by_fold.setdefault(name, []).append(index)
            for word in set(name.split()):
                self.by_word.setdefault(word, []).append(index)
        # Names that differ in a number ("Seed 1", "Seed 10") are different players: no near spellings.
        self.spelled = {index: name for index, name in enumerate(self.folded) if not any(c.isdigit() for c in name)}

    def exact(self, typed: str) -> list[Known]:
        """The players whose name is `typed` (case and spacing aside)."""
        return [self.known[i] for i in self.by_fold.get(fold(typed), ()) if same_name(self.known[i].name, typed)]

    def candidates(self, typed: str, *, club: str = "", near: dict[int, float] | None = None) -> list[Candidate]:
        """The players `typed` may mean, the likeliest first; the exact ones alone when there are.
        `near`: its near spellings (index → score) when already worked out (`candidates_many`)."""
        exact = self.exact(typed)
        if exact:
            return [Candidate(k.key, k.name, k.club, "the same name", 100.0) for k in exact]
        folded = fold(typed)
        if not folded:
            return []
        found: dict[int, Candidate] = {}

        def offer(index: int, why: str, score: float) -> None:
            k = self.known[index]
            if k.key not in found or found[k.key].score < score:
                found[k.key] = Candidate(k.key, k.name, k.club, why, score)

        for index in self.by_fold.get(folded, ()):
            offer(index, "the same name without accents", 100.0)
        words = folded.split()
        if len(words) == 1:
            for index in self.by_word.get(words[0], ()):
                same_club = bool(club) and fold(self.known[index].club) == fold(club)
                given = self.folded[index].split()[0] == words[0]
                offer(index, "the same given name" if given else "the same surname", 90.0 if same_club else 80.0)
        if near is None and not any(c.isdigit() for c in folded):
            near = {index: score for _, score, index in process.extract(
                folded, self.spelled, scorer=fuzz.token_sort_ratio, score_cutoff=NEAR, limit=MOST * 2)}
        for index, score in sorted((near or {}).items(), key=lambda hit: -hit[1])[:MOST * 2]:
            why = "the same name, its words in another order" if score == 100 else "a near spelling"
            offer(index, why, min(float(score), 99.0))
        ranked = sorted(found.values(), key=lambda c: (-c.score, c.name, c.key))
        return ranked[:MOST]

    def candidates_many(self, names: list[str], *, chunk: int = 256) -> dict[str, list[Candidate]]:
        """`candidates` of many names at once (an import's new names), the near spellings worked
        out a chunk of names at a time by RapidFuzz's `cdist` on every core; only names with
        candidates are returned."""
        found: dict[str, list[Candidate]] = {}
        keys = list(self.spelled)
        choices = [self.spelled[index] for index in keys]
        queries = [(name, fold(name)) for name in names]
        near: dict[str, dict[int, float]] = {}
        fuzzy = [(name, folded) for name, folded in queries if folded and not any(c.isdigit() for c in folded)]
        for start in range(0, len(fuzzy) if choices else 0, chunk):
            part = fuzzy[start:start + chunk]
            scores = process.cdist([folded for _, folded in part], choices, scorer=fuzz.token_sort_ratio,
                                   score_cutoff=NEAR, dtype=numpy.float64, workers=-1)
            for row, (name, _) in enumerate(part):
                hits = numpy.nonzero(scores[row])[0]
                if len(hits):
                    near[name] = {keys[i]: float(scores[row][i]) for i in hits}
        for name, _ in queries:
            if name in near or self.exact(name) or self._plain(name):
                found[name] = self.candidates(name, near=near.get(name, {}))
        return {name: cands for name, cands in found.items() if cands}

    def _plain(self, typed: str) -> bool:
        """Whether `typed` meets a player by its folded name or, alone, by one word of a name."""
        folded = fold(typed)
        return folded in self.by_fold or (len(folded.split()) == 1 and folded in self.by_word)


def candidates(typed: str, known: Iterable[Known], *, club: str = "") -> list[Candidate]:
    """The players `typed` may mean among `known` (see `Matcher.candidates`)."""
    return Matcher(known).candidates(typed, club=club)
