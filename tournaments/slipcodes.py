"""The one-time codes printed on the players' halves of a match slip.

A code is six characters drawn with `secrets` from an alphabet without the characters people
misread or mistype (0/O, 1/I/L, 2/Z, 5/S, 8/B): 26⁶, about 300 million codes, of which a player
holds one for one match. It is printed as `ABC-DEF`; what is typed is read without case, spaces or
dashes. Only a keyed hash is stored (HMAC with the site's SECRET_KEY, bound to the pairing and the
player), so the table alone does not give the codes away, and a code is worth nothing elsewhere.
"""

from __future__ import annotations

import hmac
import re
import secrets

from django.utils.crypto import salted_hmac

ALPHABET = "346789ACDEFGHJKMNPQRTUVWXY"
LENGTH = 6
TYPED_MAX = 20
"""The most characters the code field takes (spaces and dashes included)."""

_SPACING = re.compile(r"[\s\-–.]+")


def new_code() -> str:
    """A fresh code, as stored and compared: six characters of `ALPHABET`."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def printed(code: str) -> str:
    """`ACDEFG` → `ACD-EFG`, as the slip shows it."""
    return f"{code[:3]}-{code[3:]}"


def normalise(typed: str) -> str | None:
    """What a person typed (`acd efg`, `ACD-EFG`) as a code, or None when it cannot be one."""
    code = _SPACING.sub("", typed or "").upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def digest(*, pairing_id: int, player_id: int, code: str) -> str:
    """The stored form of `code` for this player of this pairing."""
    return salted_hmac("crawford.slip-code", f"{pairing_id}:{player_id}:{code}", algorithm="sha256").hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)
