"""Signed tokens for guests: a seat token opens one seat of one table; a player token keeps a
player id across tables.

A token is ``v1.<payload>.<signature>``: the payload is base64url JSON, the signature an
HMAC-SHA256 of it with the server's secret. The secret is kept in the data folder
(``secret.key``), so tokens survive restarts.

>>> signer = Signer(b"k" * 32)
>>> token = signer.seat_token("K7M2QX", 2, "p_abc", now=0)
>>> signer.read_seat(token, now=10)
SeatClaim(code='K7M2QX', seat=2, player_id='p_abc')
>>> signer.read_seat(token[:-2] + "xx", now=10)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dos.server.auth.TokenError: bad_token: the token's signature is wrong ...
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from pathlib import Path
from typing import Any, NamedTuple

TOKEN_DAYS = 30
"""How long a token stays valid."""

_PREFIX = "v1"


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


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_player_id() -> str:
    """A fresh public player id."""
    return "p_" + secrets.token_urlsafe(9)


class Signer:
    """Makes and checks tokens with one secret."""

    def __init__(self, secret: bytes, lifetime: float = TOKEN_DAYS * 86400.0) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret
        self.lifetime = lifetime

    def _sign(self, payload: dict[str, Any], now: float | None) -> str:
        issued = time.time() if now is None else now
        body = _b64(json.dumps({**payload, "e": int(issued + self.lifetime)}).encode())
        mac = hmac.new(self._secret, f"{_PREFIX}.{body}".encode(), hashlib.sha256).digest()
        return f"{_PREFIX}.{body}.{_b64(mac)}"

    def _read(self, token: str, now: float | None) -> dict[str, Any]:
        parts = token.split(".") if isinstance(token, str) else []
        if len(parts) != 3 or parts[0] != _PREFIX:
            raise TokenError("bad_token", "not a token of this server")
        mac = hmac.new(self._secret, f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest()
        try:
            given = _unb64(parts[2])
        except ValueError:
            given = b""
        if not hmac.compare_digest(mac, given):
            raise TokenError(
                "bad_token", "the token's signature is wrong (forged or from another server)"
            )
        data: Any = json.loads(_unb64(parts[1]))
        if not isinstance(data, dict) or not isinstance(data.get("e"), int):
            raise TokenError("bad_token", "the token's payload is not valid")
        if data["e"] < (time.time() if now is None else now):
            raise TokenError("expired_token", "the token has expired; join the table again")
        return data

    def seat_token(self, code: str, seat: int, player_id: str, now: float | None = None) -> str:
        """A token that opens ``seat`` of table ``code``."""
        return self._sign({"k": "seat", "t": code, "s": seat, "p": player_id}, now)

    def player_token(self, player_id: str, now: float | None = None) -> str:
        """A token that proves a player id."""
        return self._sign({"k": "player", "p": player_id}, now)

    def read_seat(self, token: str, now: float | None = None) -> SeatClaim:
        """The claim of a seat token; raises ``TokenError``."""
        data = self._read(token, now)
        if data.get("k") != "seat":
            raise TokenError("bad_token", "this is not a seat token")
        return SeatClaim(str(data["t"]), int(data["s"]), str(data["p"]))

    def read_player(self, token: str, now: float | None = None) -> str:
        """The player id of a player token; raises ``TokenError``."""
        data = self._read(token, now)
        if data.get("k") != "player":
            raise TokenError("bad_token", "this is not a player token")
        return str(data["p"])


def load_secret(folder: Path) -> bytes:
    """The secret kept in ``folder/secret.key``, made on first use (``DOS_SECRET`` overrides)."""
    from_env = os.environ.get("DOS_SECRET")
    if from_env:
        return from_env.encode()
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
