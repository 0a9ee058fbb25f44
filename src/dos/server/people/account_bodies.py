"""The bodies of the account endpoints' requests and answers (``dos.server.http.account_routes``,
docs/accounts.md), checked by pydantic: unknown fields are refused, and every text has a
bound.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from dos.server.people.passkeys import AuthenticationJson, RegistrationJson
from dos.server.protocol.base import DisplayName


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
