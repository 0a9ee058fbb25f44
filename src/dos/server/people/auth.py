"""Signed tokens for guests: a seat token opens one seat of one table; a player token keeps a
player id across tables.

A player token made by signing in (a passkey, a recovery code: ``dos.server.people.accounts``) also
names its **session**, one per device signed in; signing out on that device adds the session
to ``Signer.signed_out``, and its tokens open nothing from then on. Guest tokens have no
session (nothing to sign out of).

Tokens are signed by ``itsdangerous`` (HMAC-SHA1 over a key derived from the server's secret,
a timestamp, URL-safe base64), one salt per kind so that one kind never passes for another.
The secret is kept in the data folder (``secret.key``), so tokens survive restarts; the
processes of a server on many (``dos serve --redis``) share one from ``DOS_SECRET``.

>>> signer = Signer(b"k" * 32)
>>> token = signer.seat_token("K7M2QX", 2, "p_abc", now=0)
>>> signer.read_seat(token, now=10)
SeatClaim(code='K7M2QX', seat=2, player_id='p_abc')
>>> signer.read_seat(token[:-2] + "xx", now=10)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dos.server.people.auth.TokenError: bad_token: the token's signature is wrong ...
>>> signed_in = signer.player_token("p_abc", session="s1", now=0)
>>> signer.read_player_session(signed_in, now=10)
('p_abc', 's1')
>>> signer.signed_out.add("s1")
>>> signer.read_player(signed_in, now=10)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dos.server.people.auth.TokenError: bad_token: this player token was signed out...
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

from dos.server.clock import SYSTEM_CLOCK, Clock

TOKEN_DAYS = 30
"""How long a token stays valid."""


MIN_SECRET_BYTES = 16
"""The shortest secret a ``Signer`` takes."""


class TokenError(Exception):
    """A token that does not open anything; ``code`` is ``bad_token`` or ``expired_token``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class SeatClaim(NamedTuple):
    """What a valid seat token says."""

    code: str
    seat: int
    player_id: str


def new_player_id() -> str:
    """A fresh public player id."""
    return "p_" + secrets.token_urlsafe(9)


def new_session() -> str:
    """A fresh session id, for the player token of one device signed in."""
    return secrets.token_urlsafe(12)


_NOW: ContextVar[float | None] = ContextVar("token_now", default=None)


class _Clock(TimestampSigner):
    """itsdangerous's timestamp signer on the time ``Signer`` gives it (its clock's, or the
    ``now=`` of a call): set around every signing and reading."""

    def get_timestamp(self) -> int:
        now = _NOW.get()
        assert now is not None, "signed or read outside Signer"
        return int(now)


@contextmanager
def _at(now: float) -> Iterator[None]:
    reset = _NOW.set(now)
    try:
        yield
    finally:
        _NOW.reset(reset)


class Signer:
    """Makes and checks tokens with one secret."""

    def __init__(
        self,
        secret: bytes,
        lifetime: float = TOKEN_DAYS * 86400.0,
        *,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"the token secret must be at least {MIN_SECRET_BYTES} bytes")
        self.lifetime = lifetime
        self.clock = clock
        """The server's clock (``Service.clock``): tokens are stamped and their lifetime
        counted on its wall time, unless a call says ``now``."""
        self.signed_out: set[str] = set()
        """The sessions signed out (``dos.server.people.accounts`` keeps them): their player tokens
        are refused."""
        self._kinds = {
            kind: URLSafeTimedSerializer(secret, salt=f"dos-{kind}", signer=_Clock)
            for kind in ("seat", "player")
        }

    def _sign(self, kind: str, payload: dict[str, Any], now: float | None) -> str:
        with _at(self.clock.time() if now is None else now):
            token: str = self._kinds[kind].dumps(payload)
        return token

    def _read(self, kind: str, token: str, now: float | None) -> dict[str, Any]:
        try:
            with _at(self.clock.time() if now is None else now):
                data: Any = self._kinds[kind].loads(token, max_age=int(self.lifetime))
        except SignatureExpired:
            raise TokenError(
                "expired_token", "the token has expired; join the table again"
            ) from None
        except (BadSignature, UnicodeError, ValueError, TypeError):
            raise TokenError(
                "bad_token",
                f"the token's signature is wrong (forged, from another server, or not a {kind} "
                "token)",
            ) from None
        if not isinstance(data, dict):
            raise TokenError("bad_token", "the token's payload is not valid")
        return data

    def seat_token(self, code: str, seat: int, player_id: str, now: float | None = None) -> str:
        """A token that opens ``seat`` of table ``code``."""
        return self._sign("seat", {"t": code, "s": seat, "p": player_id}, now)

    def player_token(
        self, player_id: str, now: float | None = None, session: str | None = None
    ) -> str:
        """A token that proves a player id (of a device signed in: with its ``session``)."""
        payload = {"p": player_id} if session is None else {"p": player_id, "s": session}
        return self._sign("player", payload, now)

    def read_seat(self, token: str, now: float | None = None) -> SeatClaim:
        """The claim of a seat token; raises ``TokenError``."""
        data = self._read("seat", token, now)
        code, seat, player = data.get("t"), data.get("s"), data.get("p")
        if not isinstance(code, str) or type(seat) is not int or not isinstance(player, str):
            raise TokenError("bad_token", "the token's payload is not valid")
        return SeatClaim(code, seat, player)

    def read_player(self, token: str, now: float | None = None) -> str:
        """The player id of a player token; raises ``TokenError``."""
        return self.read_player_session(token, now)[0]

    def read_player_session(self, token: str, now: float | None = None) -> tuple[str, str | None]:
        """The player id of a player token and its session (``None``: a guest's token);
        raises ``TokenError``, also for a session signed out."""
        data = self._read("player", token, now)
        player, session = data.get("p"), data.get("s")
        if not isinstance(player, str) or not (session is None or isinstance(session, str)):
            raise TokenError("bad_token", "the token's payload is not valid")
        if session is not None and session in self.signed_out:
            raise TokenError(
                "bad_token", "this player token was signed out: sign in again on this device"
            )
        return player, session


class SecretMissingError(ValueError):
    """Many processes are to run, and no secret is configured for all of them to share."""


def load_secret(folder: Path, shared: bool = False) -> bytes:
    """The secret kept in ``folder/secret.key``, made on first use (``DOS_SECRET`` overrides).

    ``shared``: the server is one of many processes (``dos serve --redis``), which must all
    sign with one secret, so it must be configured: ``DOS_SECRET``, else
    ``SecretMissingError``. A file in each process's data folder would give each its own (and
    processes sharing one folder could each make one at their first start)."""
    from_env = os.environ.get("DOS_SECRET")
    if from_env:
        if len(from_env.encode()) < MIN_SECRET_BYTES:
            raise SecretMissingError(f"DOS_SECRET: at least {MIN_SECRET_BYTES} bytes")
        return from_env.encode()
    if shared:
        raise SecretMissingError(
            "DOS_SECRET: with --redis every process signs tokens with one secret: set "
            "DOS_SECRET to the same value (32 random bytes or more) for each"
        )
    path = folder / "secret.key"
    if path.exists():
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    folder.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_bytes(32)
    temporary = path.with_suffix(".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(secret.hex())
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    return secret
