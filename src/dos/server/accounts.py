"""Your player on any device: passkeys, a recovery code, signing in and out (docs/accounts.md).

A player is a ``player_id`` (``dos.server.auth``): their results and ratings hang off it. A
guest's id lives in one browser's player token. An **account** keeps that same id beyond the
browser: the player registers **passkeys** (WebAuthn, ``dos.server.passkeys``) and may keep
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
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from dos.server.auth import TOKEN_DAYS, TokenError, new_session
from dos.server.errors import ApiError
from dos.server.limits import Counters
from dos.server.limits import limited as limits_dependency
from dos.server.messages import DisplayName
from dos.server.models import AccountRow, GamePlayerRow, PasskeyRow, SignedOutRow
from dos.server.passkeys import (
    AuthenticationJson,
    NewPasskey,
    PasskeyError,
    RegistrationJson,
    RelyingParty,
    authentication_options,
    b64encode,
    credential_id_of,
    registration_options,
    verify_assertion,
    verify_registration,
)
from dos.server.service import Service

CEREMONY_SECONDS = 180.0
"""How long a passkey ceremony's challenge can be answered."""
MAX_CEREMONIES = 10_000
"""The most ceremonies open at once (the oldest are dropped past it)."""
MAX_PASSKEYS = 20
"""The most passkeys one player keeps."""
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
    dos.server.passkeys.PasskeyError: bad_ceremony: no such ceremony...
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


# --- storage: functions of a session -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredPasskey:
    """A passkey as stored, with its player's user handle."""

    credential_id: str
    player_id: str
    public_key: bytes
    sign_count: int
    user_handle: bytes
    backed_up: bool
    created_at: float
    used_at: float | None


@dataclass(frozen=True, slots=True)
class StoredAccount:
    """What a player keeps: their passkeys and whether they have an unused recovery code."""

    player_id: str
    passkeys: list[StoredPasskey]
    recovery: bool

    @property
    def registered(self) -> bool:
        """Whether anything keeps the player beyond a browser's token."""
        return bool(self.passkeys) or self.recovery


def _unb64(text: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def ensure_account(session: Session, player_id: str, now: float) -> bytes:
    """The player's account, made if they have none; returns its WebAuthn user handle."""
    row = session.get(AccountRow, player_id)
    if row is None:
        row = AccountRow(
            player_id=player_id,
            user_handle=b64encode(secrets.token_bytes(32)),
            recovery_hash=None,
            recovery_at=None,
            created_at=now,
        )
        session.add(row)
        session.flush()
    return _unb64(row.user_handle)


def _passkey(row: PasskeyRow, handle: str) -> StoredPasskey:
    return StoredPasskey(
        credential_id=row.credential_id,
        player_id=row.player_id,
        public_key=bytes(row.public_key),
        sign_count=row.sign_count,
        user_handle=_unb64(handle),
        backed_up=row.backed_up,
        created_at=row.created_at,
        used_at=row.used_at,
    )


def load_account(session: Session, player_id: str) -> StoredAccount:
    """A player's passkeys (oldest first) and whether they have a recovery code; a guest
    has neither."""
    row = session.get(AccountRow, player_id)
    if row is None:
        return StoredAccount(player_id, [], False)
    passkeys = session.scalars(
        select(PasskeyRow)
        .where(PasskeyRow.player_id == player_id)
        .order_by(PasskeyRow.created_at, PasskeyRow.credential_id)
    )
    return StoredAccount(
        player_id,
        [_passkey(p, row.user_handle) for p in passkeys],
        row.recovery_hash is not None,
    )


def find_passkey(session: Session, credential_id: str) -> StoredPasskey | None:
    """The passkey with this credential id (base64url), or ``None``."""
    found = session.execute(
        select(PasskeyRow, AccountRow.user_handle)
        .join(AccountRow, AccountRow.player_id == PasskeyRow.player_id)
        .where(PasskeyRow.credential_id == credential_id)
    ).first()
    return None if found is None else _passkey(found[0], found[1])


def add_passkey(
    session: Session, player_id: str, user_handle: bytes, new: NewPasskey, now: float
) -> str | None:
    """Stores a new passkey of ``player_id`` (whose account has ``user_handle``); returns
    why it cannot be (``credential_taken``, ``too_many_passkeys``, ``bad_ceremony``: the
    account's handle changed), else ``None``."""
    if ensure_account(session, player_id, now) != user_handle:
        return "bad_ceremony"
    credential_id = b64encode(new.credential_id)
    if session.get(PasskeyRow, credential_id) is not None:
        return "credential_taken"
    count = len(
        session.scalars(
            select(PasskeyRow.credential_id).where(PasskeyRow.player_id == player_id)
        ).all()
    )
    if count >= MAX_PASSKEYS:
        return "too_many_passkeys"
    session.add(
        PasskeyRow(
            credential_id=credential_id,
            player_id=player_id,
            public_key=new.public_key,
            sign_count=new.sign_count,
            transports=new.transports,
            backed_up=new.backed_up,
            created_at=now,
            used_at=None,
        )
    )
    return None


def record_use(
    session: Session, credential_id: str, sign_count: int, backed_up: bool, now: float
) -> None:
    """A passkey signed in: its counter (which only goes up) and when."""
    session.execute(
        update(PasskeyRow)
        .where(PasskeyRow.credential_id == credential_id)
        .values(used_at=now, backed_up=backed_up)
    )
    session.execute(
        update(PasskeyRow)
        .where(PasskeyRow.credential_id == credential_id, PasskeyRow.sign_count < sign_count)
        .values(sign_count=sign_count)
    )


def remove_passkey(session: Session, player_id: str, credential_id: str) -> bool:
    """Removes one of the player's passkeys; whether they had it."""
    done = session.execute(
        delete(PasskeyRow).where(
            PasskeyRow.player_id == player_id, PasskeyRow.credential_id == credential_id
        )
    )
    return bool(getattr(done, "rowcount", 0))


def set_recovery(session: Session, player_id: str, digest: str, now: float) -> None:
    """The player's recovery code is now the one with this hash (the old one is gone)."""
    ensure_account(session, player_id, now)
    session.execute(
        update(AccountRow)
        .where(AccountRow.player_id == player_id)
        .values(recovery_hash=digest, recovery_at=now)
    )


def use_recovery(session: Session, digest: str) -> str | None:
    """The player whose unused recovery code has this hash, the code used up in the same
    statement (two tries of one code cannot both win); ``None`` when no player has it."""
    found = session.execute(
        update(AccountRow)
        .where(AccountRow.recovery_hash == digest)
        .values(recovery_hash=None, recovery_at=None)
        .returning(AccountRow.player_id)
    ).first()
    return None if found is None else str(found[0])


def sign_out(session: Session, session_id: str, player_id: str, now: float) -> None:
    """Keeps a session signed out."""
    if session.get(SignedOutRow, session_id) is None:
        session.add(SignedOutRow(session=session_id, player_id=player_id, at=now))


def signed_out_sessions(session: Session, now: float) -> list[str]:
    """The sessions signed out whose tokens may still be alive; older ones are forgotten."""
    oldest = now - TOKEN_DAYS * 86400.0
    session.execute(delete(SignedOutRow).where(SignedOutRow.at < oldest))
    return list(session.scalars(select(SignedOutRow.session)))


def last_name(session: Session, player_id: str) -> str | None:
    """The display name of the player's latest game, if they played one."""
    return session.scalars(
        select(GamePlayerRow.name)
        .where(GamePlayerRow.player_id == player_id)
        .order_by(GamePlayerRow.game_id.desc())
        .limit(1)
    ).first()


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
    dos.server.passkeys.PasskeyError: bad_recovery_code: a recovery code has 20 letters ...
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


# --- HTTP bodies ---------------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


CeremonyHandle = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A ceremony's handle, as ``begin`` gave it."""


class BeginPasskey(_Body):
    """``POST /api/account/passkeys/begin``: the name the passkey is shown under in the
    player's password manager (their display name; by default the latest one they played
    under). Who registers is the player token's player, never the body's."""

    name: DisplayName | None = None


class CeremonyOptions(_Body):
    """A ceremony begun: its handle (send it back to finish) and the options to pass to
    ``navigator.credentials.create`` or ``.get`` as ``publicKey`` (bytes in base64url)."""

    ceremony: str
    options: dict[str, Any]


class FinishRegistration(_Body):
    """``POST /api/account/passkeys/finish``: the ceremony and the new credential
    (``PublicKeyCredential`` with its bytes in base64url)."""

    ceremony: CeremonyHandle
    credential: RegistrationJson


class FinishSignIn(_Body):
    """``POST /api/account/sign-in/finish``: the ceremony and the passkey's answer."""

    ceremony: CeremonyHandle
    credential: AuthenticationJson


class RecoverySignIn(_Body):
    """``POST /api/account/sign-in/recovery``: a recovery code, as the player typed it."""

    code: str = Field(min_length=1, max_length=64)


class PasskeyInfo(_Body):
    """One passkey of the player."""

    id: str
    """The credential id, base64url (``DELETE /api/account/passkeys/{id}``)."""
    created_at: float
    used_at: float | None
    """When it last signed in (null: never yet)."""
    backed_up: bool
    """Synced by its provider to the player's other devices."""


class AccountStatus(_Body):
    """``GET /api/account``: the player of the token, and what keeps them."""

    player_id: str
    registered: bool
    """Whether a passkey or a recovery code keeps this player (false: a guest)."""
    passkeys: list[PasskeyInfo]
    recovery: bool
    """Whether the player has an unused recovery code."""
    player_token: str
    """A fresh player token for the same player and session (keep it)."""


class SignedIn(_Body):
    """A device signed in: the player, a player token of a new session, the display name of
    their latest game (if any) and their account."""

    player_id: str
    player_token: str
    name: str | None
    account: AccountStatus


class RecoveryCode(_Body):
    """``POST /api/account/recovery``: the new recovery code, shown this once (the server
    keeps only its hash), and the account."""

    code: str
    account: AccountStatus


class SignedOut(_Body):
    """``POST /api/account/sign-out``: whether a session was signed out (a guest's token
    has none: forgetting it is all there is to do)."""

    signed_out: bool


class RelyingPartyInfo(_Body):
    """``GET /api/account/relying-party``: the domain passkeys are made for here, and the
    name shown beside them."""

    id: str
    name: str


# --- the service ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Me:
    """Who a request's player token says is asking."""

    player_id: str
    session: str | None


class Accounts:
    """Registration, sign-in and sign-out over the server's database and token signer."""

    def __init__(self, service: Service, rp: RelyingParty) -> None:
        self.service = service
        self.rp = rp
        self.ceremonies = Ceremonies(clock=service.clock.monotonic)
        """The ceremonies under way, their lifetimes on the server's clock."""

    @property
    def _db(self) -> Any:
        return self.service.db

    def _now(self) -> float:
        """The server's wall time (``Service.clock``), for the accounts' rows."""
        return self.service.clock.time()

    async def start(self) -> None:
        """Loads the sessions signed out (after the database is migrated)."""
        sessions = await self._db.call(signed_out_sessions, self._now())
        self.service.signer.signed_out.update(sessions)

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
            player_id, session = self.service.signer.read_player_session(token)
        except TokenError as error:
            raise ApiError(401, error.code, error.message, "authorization") from None
        return Me(player_id, session)

    def _token(self, player_id: str, session: str | None) -> str:
        return self.service.signer.player_token(player_id, session=session)

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
            exclude=[_unb64(p.credential_id) for p in account.passkeys],
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
        self.service.signer.signed_out.add(me.session)
        return {"signed_out": True}


# --- the endpoints -------------------------------------------------------------------------------

Authorization = Annotated[str | None, Header(max_length=2048)]
"""``Bearer PLAYER_TOKEN``."""
CredentialId = Annotated[
    str, PathParam(min_length=1, max_length=1400, pattern=r"^[A-Za-z0-9_\-]+$")
]
"""A passkey's credential id in a path (base64url)."""


def _refused(error: PasskeyError) -> ApiError:
    return ApiError(error.status, error.code, error.message, error.field)


def accounts_router(accounts: Accounts, counters: Counters) -> APIRouter:
    """The account endpoints (docs/accounts.md): each counts against the ``accounts`` limit,
    a recovery-code sign-in also against ``recover``."""
    router = APIRouter(prefix="/api/account", tags=["accounts"])
    counted = [limits_dependency(counters, "accounts")]

    @router.get("/relying-party", response_model=RelyingPartyInfo, dependencies=counted)
    async def relying_party() -> dict[str, Any]:
        """The domain passkeys are made for on this server (a page elsewhere cannot use
        them) and the name shown beside them."""
        return {"id": accounts.rp.id, "name": accounts.rp.name}

    @router.get("", response_model=AccountStatus, dependencies=counted)
    async def account(authorization: Authorization = None) -> dict[str, Any]:
        """Your player: whether a passkey or recovery code keeps it, your passkeys, and a
        fresh player token."""
        return await accounts.status(accounts.me(authorization))

    @router.post("/passkeys/begin", response_model=CeremonyOptions, dependencies=counted)
    async def begin_registration(
        body: BeginPasskey | None = None, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Begins a passkey registration for your player (the one of your token)."""
        return await accounts.begin_registration(
            accounts.me(authorization), body.name if body else None
        )

    @router.post("/passkeys/finish", response_model=AccountStatus, dependencies=counted)
    async def finish_registration(
        body: FinishRegistration, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Keeps the new passkey; answers your account, with a token of this device's
        session."""
        try:
            return await accounts.finish_registration(accounts.me(authorization), body)
        except PasskeyError as error:
            raise _refused(error) from None

    @router.delete("/passkeys/{credential_id}", response_model=AccountStatus, dependencies=counted)
    async def remove_passkey_endpoint(
        credential_id: CredentialId, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Removes one of your passkeys (it can no longer sign in here)."""
        return await accounts.remove(accounts.me(authorization), credential_id)

    @router.post("/recovery", response_model=RecoveryCode, dependencies=counted)
    async def recovery(authorization: Authorization = None) -> dict[str, Any]:
        """A new recovery code for your player, shown this once; the old one stops working."""
        return await accounts.new_recovery(accounts.me(authorization))

    @router.post("/sign-in/begin", response_model=CeremonyOptions, dependencies=counted)
    async def begin_sign_in() -> dict[str, Any]:
        """Begins a passkey sign-in (no name needed: the authenticator offers its passkeys)."""
        return accounts.begin_sign_in()

    @router.post("/sign-in/finish", response_model=SignedIn, dependencies=counted)
    async def finish_sign_in(body: FinishSignIn) -> dict[str, Any]:
        """Signs this device in with a passkey: a player token for its player."""
        try:
            return await accounts.finish_sign_in(body)
        except PasskeyError as error:
            raise _refused(error) from None

    @router.post(
        "/sign-in/recovery",
        response_model=SignedIn,
        dependencies=[limits_dependency(counters, "accounts", "recover")],
    )
    async def sign_in_with_recovery(body: RecoverySignIn) -> dict[str, Any]:
        """Signs this device in with a recovery code, which is used up."""
        try:
            return await accounts.recover(body.code)
        except PasskeyError as error:
            raise _refused(error) from None

    @router.post("/sign-out", response_model=SignedOut, dependencies=counted)
    async def sign_out_endpoint(authorization: Authorization = None) -> dict[str, Any]:
        """Signs this device out: its player token opens nothing any more."""
        return await accounts.sign_out(accounts.me(authorization))

    return router
