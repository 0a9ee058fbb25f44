"""Your player on any device: passkeys, a recovery code, signing in and out (docs/accounts.md).

A player is a ``player_id`` (``dos.server.people.auth``): their results and ratings hang off it. A
guest's id lives in one browser's player token. An **account** keeps that same id beyond the
browser: the player registers **passkeys** (WebAuthn, ``dos.server.people.passkeys``) and may keep
one **recovery code**; on any device, signing in with either gives a player token for the
id again. A guest who registers keeps every result and rating they had.

What is trusted and what is not:

- Who the player is comes from their player token (``Authorization: Bearer TOKEN``), never
  from a request's body; signing in is the only way to get a token for an id one did not
  hold, and it takes a passkey's signature or the recovery code.
- A passkey ceremony (registration or sign-in) begins with a random **challenge** the server
  keeps in memory for ``CEREMONY_SECONDS`` under a random **ceremony** handle, known only to
  the one who asked (and, for a registration, bound to their player). Finishing takes it
  away whatever the outcome: each challenge answers once; a replay finds nothing.
- A recovery code (100 random bits, shown once) is stored only as its SHA-256: a code that
  strong needs no slow hash. Signing in with it uses it up; a new one replaces the old.
  Tries are counted by the ``recover`` limit, on top of ``accounts`` for every request here.
- A token got by signing in names its session (one per device); signing out adds it to the
  sessions refused (``dos_signed_out``, loaded at start into ``Signer.signed_out``).

Here are those rules: the service (``Accounts``), its ceremonies and its recovery codes. The
rows they keep are ``dos.server.people.account_store``'s, the requests' bodies
``dos.server.people.account_bodies``', the endpoints ``dos.server.http.account_routes``'.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from dos.server.clock import Clock
from dos.server.net.errors import ApiError
from dos.server.people.account_bodies import FinishRegistration, FinishSignIn
from dos.server.people.account_store import (
    MAX_PASSKEYS,
    StoredAccount,
    add_passkey,
    ensure_account,
    find_passkey,
    last_name,
    load_account,
    record_use,
    remove_passkey,
    set_recovery,
    sign_out,
    signed_out_sessions,
    unb64,
    use_recovery,
)
from dos.server.people.auth import Signer, TokenError, new_session
from dos.server.people.passkeys import (
    PasskeyError,
    authentication_options,
    b64encode,
    credential_id_of,
    registration_options,
    verify_assertion,
    verify_registration,
)
from dos.server.people.relying_party import RelyingParty
from dos.server.storage.database import Database

CEREMONY_SECONDS = 180.0
"""How long a passkey ceremony's challenge can be answered."""
MAX_CEREMONIES = 10_000
"""The most ceremonies open at once (the oldest are dropped past it)."""
RECOVERY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U, so a code read aloud or retyped stays the same."""
RECOVERY_LENGTH = 20
"""Characters of a recovery code: 100 random bits."""


# --- the ceremonies in progress ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A passkey ceremony begun: what it is for, its challenge, and for a registration the
    player who asked and their user handle."""

    kind: Literal["register", "sign_in"]
    challenge: bytes
    expires: float
    player_id: str | None = None
    user_handle: bytes | None = None


class Ceremonies:
    """The ceremonies begun and not yet finished, by their handle: each is taken once.

    >>> ceremonies = Ceremonies(clock=lambda: 0.0)
    >>> handle, ceremony = ceremonies.open("sign_in")
    >>> ceremonies.take(handle, "sign_in") == ceremony
    True
    >>> ceremonies.take(handle, "sign_in")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dos.server.people.passkeys.PasskeyError: bad_ceremony: no such ceremony...
    """

    def __init__(
        self,
        seconds: float = CEREMONY_SECONDS,
        most: int = MAX_CEREMONIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self.most = most
        self.clock = clock
        self._open: OrderedDict[str, Ceremony] = OrderedDict()

    def __len__(self) -> int:
        return len(self._open)

    def open(
        self,
        kind: Literal["register", "sign_in"],
        player_id: str | None = None,
        user_handle: bytes | None = None,
    ) -> tuple[str, Ceremony]:
        """A new ceremony with a fresh challenge; returns its handle and itself."""
        now = self.clock()
        while self._open and next(iter(self._open.values())).expires <= now:
            self._open.popitem(last=False)  # the oldest expire first
        while len(self._open) >= self.most:
            self._open.popitem(last=False)
        handle = secrets.token_urlsafe(24)
        ceremony = Ceremony(
            kind, secrets.token_bytes(32), now + self.seconds, player_id, user_handle
        )
        self._open[handle] = ceremony
        return handle, ceremony

    def take(self, handle: str, kind: Literal["register", "sign_in"]) -> Ceremony:
        """The ceremony of ``handle``, taken away (it answers once); ``PasskeyError``
        ``bad_ceremony`` if there is none of this kind, or it expired."""
        ceremony = self._open.pop(handle, None)
        if ceremony is None or ceremony.kind != kind:
            raise PasskeyError(
                400,
                "bad_ceremony",
                "no such ceremony: it was finished already, has expired, or is of another "
                "kind; begin again",
                "ceremony",
            )
        if ceremony.expires <= self.clock():
            raise PasskeyError(
                400, "bad_ceremony", "the ceremony has expired; begin again", "ceremony"
            )
        return ceremony


# --- recovery codes ------------------------------------------------------------------------------


_LOOKALIKES = str.maketrans("OIL", "011")
"""Letters a person may type for the digits they look like."""


def new_recovery_code() -> str:
    """A fresh recovery code: 20 characters of Crockford's base 32, in groups of four."""
    raw = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, RECOVERY_LENGTH, 4))


def recovery_digest(code: str) -> str:
    """The hash a recovery code is stored as, whatever way it was typed (case, dashes,
    spaces, O for 0, I or L for 1); ``PasskeyError`` for what cannot be a code.

    >>> recovery_digest("abcd-efgh-jkmn-pqrs-tv01") == recovery_digest("ABCDEFGHJKMNPQRSTVOI")
    True
    >>> recovery_digest("ABCD")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dos.server.people.passkeys.PasskeyError: bad_recovery_code: a recovery code has 20 letters ...
    """
    plain = "".join(code.split()).replace("-", "").upper()
    plain = plain.translate(_LOOKALIKES)
    if len(plain) != RECOVERY_LENGTH or any(c not in RECOVERY_ALPHABET for c in plain):
        raise PasskeyError(
            400,
            "bad_recovery_code",
            f"a recovery code has {RECOVERY_LENGTH} letters and digits (dashes and spaces aside)",
            "code",
        )
    return hashlib.sha256(f"dos-recovery:{plain}".encode("ascii")).hexdigest()


# --- the service ---------------------------------------------------------------------------------


class Server(Protocol):
    """What the accounts need of the server (``dos.server.service.Service``): its database,
    its token signer and its clock."""

    @property
    def db(self) -> Database:
        """The server's database."""
        ...

    @property
    def signer(self) -> Signer:
        """The signer of player tokens, and the sessions signed out."""
        ...

    @property
    def clock(self) -> Clock:
        """The server's time."""
        ...


@dataclass(frozen=True, slots=True)
class Me:
    """Who a request's player token says is asking."""

    player_id: str
    session: str | None


class Accounts:
    """Registration, sign-in and sign-out over the server's database and token signer."""

    def __init__(self, server: Server, rp: RelyingParty) -> None:
        self.server = server
        self.rp = rp
        self.ceremonies = Ceremonies(clock=server.clock.monotonic)
        """The ceremonies under way, their lifetimes on the server's clock."""

    @property
    def _db(self) -> Database:
        return self.server.db

    def _now(self) -> float:
        """The server's wall time (``Server.clock``), for the accounts' rows."""
        return self.server.clock.time()

    async def start(self) -> None:
        """Loads the sessions signed out (after the database is migrated)."""
        sessions = await self._db.call(signed_out_sessions, self._now())
        self.server.signer.signed_out.update(sessions)

    def me(self, authorization: str | None) -> Me:
        """The player of an ``Authorization: Bearer TOKEN`` header; 401 without one."""
        scheme, _, token = (authorization or "").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise ApiError(
                401,
                "no_token",
                "send your player token: Authorization: Bearer PLAYER_TOKEN",
                "authorization",
            )
        try:
            player_id, session = self.server.signer.read_player_session(token)
        except TokenError as error:
            raise ApiError(401, error.code, error.message, "authorization") from None
        return Me(player_id, session)

    def _token(self, player_id: str, session: str | None) -> str:
        return self.server.signer.player_token(player_id, session=session)

    async def status(self, me: Me, session: str | None = None) -> dict[str, Any]:
        """The account of ``me`` with a fresh token (of ``session``, else ``me``'s)."""
        account = await self._db.read(load_account, me.player_id)
        return self._status(account, session or me.session)

    def _status(self, account: StoredAccount, session: str | None) -> dict[str, Any]:
        return {
            "player_id": account.player_id,
            "registered": account.registered,
            "passkeys": [
                {
                    "id": p.credential_id,
                    "created_at": p.created_at,
                    "used_at": p.used_at,
                    "backed_up": p.backed_up,
                }
                for p in account.passkeys
            ],
            "recovery": account.recovery,
            "player_token": self._token(account.player_id, session),
        }

    async def _signed_in(self, player_id: str) -> dict[str, Any]:
        session = new_session()
        account = await self._db.read(load_account, player_id)
        name = await self._db.read(last_name, player_id)
        return {
            "player_id": player_id,
            "player_token": self._token(player_id, session),
            "name": name,
            "account": self._status(account, session),
        }

    # registration

    async def begin_registration(self, me: Me, name: str | None) -> dict[str, Any]:
        """A registration ceremony for ``me``'s player: options for a new passkey."""
        handle = await self._db.call(ensure_account, me.player_id, self._now())
        account = await self._db.read(load_account, me.player_id)
        if len(account.passkeys) >= MAX_PASSKEYS:
            raise ApiError(
                409, "too_many_passkeys", f"a player keeps at most {MAX_PASSKEYS} passkeys", None
            )
        shown = name or await self._db.read(last_name, me.player_id) or me.player_id
        key, ceremony = self.ceremonies.open("register", me.player_id, handle)
        options = registration_options(
            self.rp,
            user_handle=handle,
            user_name=shown,
            challenge=ceremony.challenge,
            exclude=[unb64(p.credential_id) for p in account.passkeys],
        )
        return {"ceremony": key, "options": options}

    async def finish_registration(self, me: Me, body: FinishRegistration) -> dict[str, Any]:
        """Checks the new passkey and keeps it; the device gets a token of a session (its
        own, or a new one for a guest)."""
        ceremony = self.ceremonies.take(body.ceremony, "register")
        if ceremony.player_id != me.player_id or ceremony.user_handle is None:
            raise PasskeyError(
                400, "bad_ceremony", "this ceremony was begun by another player", "ceremony"
            )
        new = verify_registration(self.rp, body.credential, ceremony.challenge)
        why = await self._db.call(add_passkey, me.player_id, ceremony.user_handle, new, self._now())
        if why == "credential_taken":
            raise ApiError(409, why, "this passkey is registered already", "credential.id")
        if why == "too_many_passkeys":
            raise ApiError(409, why, f"a player keeps at most {MAX_PASSKEYS} passkeys", None)
        if why is not None:
            raise ApiError(
                400, why, "the account changed during the ceremony; begin again", "ceremony"
            )
        session = me.session or new_session()
        return await self.status(me, session)

    async def remove(self, me: Me, credential_id: str) -> dict[str, Any]:
        """Removes one of ``me``'s passkeys."""
        if not await self._db.call(remove_passkey, me.player_id, credential_id):
            raise ApiError(404, "no_passkey", "you have no passkey with this id", "credential_id")
        return await self.status(me)

    # recovery

    async def new_recovery(self, me: Me) -> dict[str, Any]:
        """A new recovery code for ``me`` (the old one stops working)."""
        code = new_recovery_code()
        await self._db.call(set_recovery, me.player_id, recovery_digest(code), self._now())
        return {"code": code, "account": await self.status(me, me.session or new_session())}

    async def recover(self, code: str) -> dict[str, Any]:
        """Signs in with a recovery code, and uses it up."""
        player_id = await self._db.call(use_recovery, recovery_digest(code))
        if player_id is None:
            raise ApiError(
                401,
                "unknown_recovery_code",
                "no player has this recovery code: mistyped, used already, or replaced by a "
                "newer one",
                "code",
            )
        return await self._signed_in(player_id)

    # sign-in

    def begin_sign_in(self) -> dict[str, Any]:
        """A sign-in ceremony: options that let the authenticator offer this site's
        passkeys (nothing to type)."""
        key, ceremony = self.ceremonies.open("sign_in")
        return {
            "ceremony": key,
            "options": authentication_options(self.rp, challenge=ceremony.challenge),
        }

    async def finish_sign_in(self, body: FinishSignIn) -> dict[str, Any]:
        """Checks the passkey's answer; the device gets a token for the passkey's player."""
        ceremony = self.ceremonies.take(body.ceremony, "sign_in")
        credential_id = b64encode(credential_id_of(body.credential))
        passkey = await self._db.read(find_passkey, credential_id)
        if passkey is None:
            raise ApiError(
                401,
                "no_credential",
                "no player has this passkey here (removed, or made for another server)",
                "credential.id",
            )
        checked = verify_assertion(
            self.rp,
            body.credential,
            ceremony.challenge,
            public_key=passkey.public_key,
            sign_count=passkey.sign_count,
            user_handle=passkey.user_handle,
        )
        await self._db.call(
            record_use, credential_id, checked.sign_count, checked.backed_up, self._now()
        )
        return await self._signed_in(passkey.player_id)

    async def sign_out(self, me: Me) -> dict[str, Any]:
        """Signs this device's session out: its tokens open nothing any more."""
        if me.session is None:
            return {"signed_out": False}
        await self._db.call(sign_out, me.session, me.player_id, self._now())
        self.server.signer.signed_out.add(me.session)
        return {"signed_out": True}
