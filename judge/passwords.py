"""Passwords the judge sets are stored hashed; passwords written by hand keep working.

A hashed password is one word in the status file's PASSWORD value, in the PHC string format::

    PASSWORD $scrypt$ln=14,r=8,p=1$<salt>$<hash>

(`hashlib.scrypt`, N = 2**ln, a 16-byte random salt, a 32-byte hash, both base64 without padding).
Anything else on a PASSWORD line is a plain password a Master or judgekeeper wrote by hand, compared
as before. Passwords match without regard to case (the command language's rule), so the hash is of
the case-folded password. Comparisons are in constant time; a damaged hash never matches (and never
raises).

Checking a hash costs tens of milliseconds on purpose. `Verifier` remembers the answers of recent
checks (keyed by a digest of the given password under a key made at start, never the password), so a
player who signs on once a mail costs one hash per phase, not one per mail.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re
import secrets
import threading
from collections import OrderedDict

SCHEME = "$scrypt$"
COST = 14  # N = 2**14: about 16 MB and 50 to 100 ms per hash
BLOCK_SIZE, PARALLEL = 8, 1
SALT_BYTES, HASH_BYTES = 16, 32
MAX_COST = 20  # a hand-edited hash asking for more is refused, not computed
HASHED = re.compile(r"\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _derive(given: str, salt: bytes, cost: int, block: int, parallel: int) -> bytes:
    return hashlib.scrypt(given.casefold().encode("utf-8"), salt=salt, n=2 ** cost, r=block,
                          p=parallel, maxmem=256 * block * 2 ** cost + 2 ** 20, dklen=HASH_BYTES)


def hash_password(plain: str, *, cost: int = COST, salt: bytes | None = None) -> str:
    """The stored form of `plain` (a fresh salt each time)."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = _derive(plain, salt, cost, BLOCK_SIZE, PARALLEL)
    return f"{SCHEME}ln={cost},r={BLOCK_SIZE},p={PARALLEL}${_b64(salt)}${_b64(digest)}"


def is_hashed(stored: str | None) -> bool:
    """Whether a PASSWORD value is one the judge hashed (else: a plain password written by hand)."""
    return bool(stored) and stored.startswith(SCHEME)  # type: ignore[union-attr]


def verify(given: str, stored: str | None) -> bool:
    """Whether `given` is the password `stored` (hashed or plain); empty never matches."""
    if not given or not stored:
        return False
    if not is_hashed(stored):
        return hmac.compare_digest(given.casefold().encode("utf-8"), stored.casefold().encode("utf-8"))
    match = HASHED.fullmatch(stored)
    if match is None:
        return False
    cost, block, parallel = (int(match.group(i)) for i in (1, 2, 3))
    if not (1 <= cost <= MAX_COST and 1 <= block <= 32 and 1 <= parallel <= 16):
        return False
    try:
        salt, expected = _unb64(match.group(4)), _unb64(match.group(5))
        actual = _derive(given, salt, cost, block, parallel)
    except (ValueError, binascii.Error, MemoryError):
        return False
    return hmac.compare_digest(actual, expected)


class Verifier:
    """`verify` with a bounded memory of recent answers for hashed passwords (see the module's
    doc); one per long-lived caller, safe to share between threads."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._key = secrets.token_bytes(32)
        self._answers: OrderedDict[tuple[str, bytes], bool] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, given: str, stored: str | None) -> bool:
        if not given or not is_hashed(stored):
            return verify(given, stored)
        assert stored is not None
        key = (stored, hmac.new(self._key, given.casefold().encode("utf-8"), "sha256").digest())
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        answer = verify(given, stored)
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)
        return answer
