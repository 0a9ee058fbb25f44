"""The account endpoints (``/api/account``, docs/accounts.md): each reads who asks from the
player token of its ``Authorization`` header, and hands the rest to the service
(``dos.server.people.accounts.Accounts``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi import Path as PathParam

from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.people.account_bodies import (
    AccountStatus,
    BeginPasskey,
    CeremonyOptions,
    FinishRegistration,
    FinishSignIn,
    RecoveryCode,
    RecoverySignIn,
    RelyingPartyInfo,
    SignedIn,
    SignedOut,
)
from dos.server.people.accounts import Accounts
from dos.server.people.passkeys import PasskeyError

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
