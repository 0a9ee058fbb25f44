"""The accounts' rows, as functions of a session (run by ``dos.server.storage.database.Database``):
a player's account and passkeys, their recovery code's hash, the sessions signed out, and the
name of their latest game. The rules of accounts (who may do what, how many passkeys) are the
service's (``dos.server.people.accounts``); each function here does its part in one transaction.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from dos.server.people.auth import TOKEN_DAYS
from dos.server.people.passkeys import NewPasskey, b64encode
from dos.server.storage.models import AccountRow, GamePlayerRow, PasskeyRow, SignedOutRow

MAX_PASSKEYS = 20
"""The most passkeys one player keeps."""


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


def unb64(text: str) -> bytes:
    """Bytes from base64url without padding, as the rows keep them.

    >>> unb64(b64encode(b"dos"))
    b'dos'
    """
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
    return unb64(row.user_handle)


def _passkey(row: PasskeyRow, handle: str) -> StoredPasskey:
    return StoredPasskey(
        credential_id=row.credential_id,
        player_id=row.player_id,
        public_key=bytes(row.public_key),
        sign_count=row.sign_count,
        user_handle=unb64(handle),
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
    why it cannot be (``credential_taken``, ``too_many_passkeys``: ``MAX_PASSKEYS`` kept
    already, ``bad_ceremony``: the account's handle changed), else ``None``."""
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
