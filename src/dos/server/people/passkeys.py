"""Passkeys (WebAuthn) on the server: the options a browser needs, and the checks of what it
answers, through ``webauthn`` (py_webauthn, Duo Labs), for the relying party this server is
(``dos.server.people.relying_party``).

Everything a browser sends is checked here before it is believed, and every refusal names the
rule it broke (``PasskeyError``: an HTTP status, a ``code``, a message and the field). The
options sent out and the checks of what comes back are read together (each check holds an
answer to exactly what its options asked for), and nothing else in the server touches
WebAuthn; the accounts' rules are ``dos.server.people.accounts``.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dos.server.people.relying_party import RelyingParty

if TYPE_CHECKING:
    from webauthn.helpers.structs import AuthenticatorTransport

# ``webauthn`` (and the cryptography it loads) is imported by the functions that use it, at
# the first ceremony: it would add a quarter of a second to every server start.

TIMEOUT_MS = 120_000
"""How long the browser is asked to wait for the person at the authenticator."""

MAX_CREDENTIAL_ID = 1023
"""The longest credential id WebAuthn allows, in bytes."""


class PasskeyError(Exception):
    """A ceremony's answer refused: the HTTP ``status``, a ``code`` for programs, a message
    for people and the request ``field`` at fault."""

    def __init__(self, status: int, code: str, message: str, field: str | None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.field = field


# --- what a browser sends ------------------------------------------------------------------------


def _b64(max_length: int) -> Any:
    return Field(min_length=1, max_length=max_length, pattern=r"^[A-Za-z0-9_\-]+={0,2}$")


CredentialIdText = Annotated[str, _b64(1400)]
"""A credential id in base64url (at most 1,023 bytes)."""


class _Json(BaseModel):
    # Browsers add fields of their own (``clientExtensionResults``, ``publicKey``, ...):
    # whatever is not read here is let through and ignored.
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)


class AttestationJson(_Json):
    """``response`` of a new credential (``navigator.credentials.create``), base64url."""

    client_data_json: Annotated[str, _b64(4096)] = Field(alias="clientDataJSON")
    attestation_object: Annotated[str, _b64(12000)] = Field(alias="attestationObject")
    transports: list[Annotated[str, Field(max_length=32)]] | None = Field(
        default=None, max_length=10
    )


class AssertionJson(_Json):
    """``response`` of a sign-in (``navigator.credentials.get``), base64url."""

    client_data_json: Annotated[str, _b64(4096)] = Field(alias="clientDataJSON")
    authenticator_data: Annotated[str, _b64(4096)] = Field(alias="authenticatorData")
    signature: Annotated[str, _b64(2048)]
    user_handle: Annotated[str, _b64(128)] | None = Field(default=None, alias="userHandle")


class RegistrationJson(_Json):
    """A new passkey as the browser made it (``PublicKeyCredential``, its bytes base64url)."""

    id: CredentialIdText
    raw_id: CredentialIdText = Field(alias="rawId")
    type: Literal["public-key"]
    response: AttestationJson


class AuthenticationJson(_Json):
    """A passkey's answer to a sign-in challenge (``PublicKeyCredential``, base64url)."""

    id: CredentialIdText
    raw_id: CredentialIdText = Field(alias="rawId")
    type: Literal["public-key"]
    response: AssertionJson


def b64decode(text: str, field_name: str) -> bytes:
    """The bytes of base64url ``text`` (padding optional); ``PasskeyError`` naming
    ``field_name`` when it is not base64url.

    >>> b64decode("AQID", "x")
    b'\\x01\\x02\\x03'
    """
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise PasskeyError(
            400, "bad_credential", f"{field_name}: not base64url", field_name
        ) from None


def b64encode(data: bytes) -> str:
    """``data`` in base64url without padding.

    >>> b64encode(b"\\x01\\x02\\x03")
    'AQID'
    """
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


# --- options -------------------------------------------------------------------------------------


def registration_options(
    rp: RelyingParty,
    *,
    user_handle: bytes,
    user_name: str,
    challenge: bytes,
    exclude: list[bytes],
) -> dict[str, Any]:
    """What ``navigator.credentials.create`` needs (``publicKey``), as JSON: a discoverable
    credential (so a new device signs in with nothing typed), with user verification."""
    from webauthn import generate_registration_options
    from webauthn.helpers import options_to_json_dict
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=rp.name,
        user_id=user_handle,
        user_name=user_name,
        user_display_name=user_name,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=c) for c in exclude],
    )
    return options_to_json_dict(options)


def authentication_options(rp: RelyingParty, *, challenge: bytes) -> dict[str, Any]:
    """What ``navigator.credentials.get`` needs (``publicKey``), as JSON: no credentials
    listed (the authenticator offers this site's passkeys), user verification required."""
    from webauthn import generate_authentication_options
    from webauthn.helpers import options_to_json_dict
    from webauthn.helpers.structs import UserVerificationRequirement

    options = generate_authentication_options(
        rp_id=rp.id,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    return options_to_json_dict(options)


# --- checks --------------------------------------------------------------------------------------

_CLIENT_DATA = "credential.response.clientDataJSON"


def check_client_data(
    rp: RelyingParty, raw: bytes, kind: Literal["webauthn.create", "webauthn.get"], challenge: bytes
) -> str:
    """The origin of ``clientDataJSON`` once its ceremony type, challenge and origin are
    checked; else ``PasskeyError`` saying which rule it broke (before the library's checks,
    so that each rule has its own code)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise PasskeyError(
            400, "bad_credential", "clientDataJSON is not JSON", _CLIENT_DATA
        ) from None
    if not isinstance(data, dict):
        raise PasskeyError(
            400, "bad_credential", "clientDataJSON is not a JSON object", _CLIENT_DATA
        )
    if data.get("type") != kind:
        raise PasskeyError(
            400,
            "bad_credential",
            f"clientDataJSON: the ceremony is {str(data.get('type'))[:40]!r}, expected {kind!r}",
            _CLIENT_DATA,
        )
    sent = data.get("challenge")
    if not isinstance(sent, str) or len(sent) > 200 or b64encode(challenge) != sent.rstrip("="):
        raise PasskeyError(
            400,
            "bad_challenge",
            "clientDataJSON: the credential answers another challenge than this ceremony's",
            _CLIENT_DATA,
        )
    origin = data.get("origin")
    if not isinstance(origin, str) or len(origin) > 300 or not rp.allows(origin):
        shown = origin[:80] if isinstance(origin, str) else origin
        raise PasskeyError(
            400,
            "bad_origin",
            f"clientDataJSON: origin {shown!r} is not this server's (expected {rp.expected()})",
            _CLIENT_DATA,
        )
    if data.get("crossOrigin") is True:
        raise PasskeyError(
            400, "bad_origin", "clientDataJSON: made in a frame of another site", _CLIENT_DATA
        )
    return origin


def _transports(names: list[str] | None) -> list[AuthenticatorTransport]:
    from webauthn.helpers.structs import AuthenticatorTransport

    known = {t.value: t for t in AuthenticatorTransport}
    return [known[n] for n in names or [] if n in known]


def _credential_id(credential: RegistrationJson | AuthenticationJson) -> bytes:
    raw = b64decode(credential.raw_id, "credential.rawId")
    if not raw or len(raw) > MAX_CREDENTIAL_ID:
        raise PasskeyError(
            400, "bad_credential", "credential.rawId: 1 to 1,023 bytes", "credential.rawId"
        )
    if b64encode(raw) != credential.id.rstrip("="):
        raise PasskeyError(400, "bad_credential", "credential.id and rawId differ", "credential.id")
    return raw


@dataclass(frozen=True, slots=True)
class NewPasskey:
    """A passkey checked at its registration: what to keep of it."""

    credential_id: bytes
    public_key: bytes
    sign_count: int
    backed_up: bool
    transports: list[str]


def verify_registration(
    rp: RelyingParty, credential: RegistrationJson, challenge: bytes
) -> NewPasskey:
    """The passkey a registration answer makes, once checked: the challenge is this
    ceremony's, the origin and the relying party this server's, the person was present and
    verified, the key's algorithm one we take, the attestation (if any) sound."""
    from webauthn import verify_registration_response
    from webauthn.helpers.exceptions import WebAuthnException
    from webauthn.helpers.structs import AuthenticatorAttestationResponse, RegistrationCredential

    raw_id = _credential_id(credential)
    client_data = b64decode(credential.response.client_data_json, _CLIENT_DATA)
    origin = check_client_data(rp, client_data, "webauthn.create", challenge)
    attestation = b64decode(
        credential.response.attestation_object, "credential.response.attestationObject"
    )
    parsed = RegistrationCredential(
        id=credential.id.rstrip("="),
        raw_id=raw_id,
        response=AuthenticatorAttestationResponse(
            client_data_json=client_data,
            attestation_object=attestation,
            transports=_transports(credential.response.transports),
        ),
    )
    try:
        verified = verify_registration_response(
            credential=parsed,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=origin,
            require_user_verification=True,
        )
    except WebAuthnException as error:
        raise PasskeyError(400, "bad_credential", _why(error), "credential") from None
    except Exception:  # a parser of hostile bytes: whatever it trips on is a refusal
        raise PasskeyError(
            400, "bad_credential", "the attestation could not be read", "credential"
        ) from None
    if verified.credential_id != raw_id:
        raise PasskeyError(
            400, "bad_credential", "the attestation names another credential", "credential.id"
        )
    return NewPasskey(
        credential_id=raw_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        backed_up=verified.credential_backed_up,
        transports=[t.value for t in _transports(credential.response.transports)],
    )


def credential_id_of(credential: AuthenticationJson) -> bytes:
    """The id of the passkey that answered (checked against ``rawId``)."""
    return _credential_id(credential)


@dataclass(frozen=True, slots=True)
class Assertion:
    """A sign-in answer checked: the passkey's new signature counter and backup state."""

    sign_count: int
    backed_up: bool


def verify_assertion(
    rp: RelyingParty,
    credential: AuthenticationJson,
    challenge: bytes,
    *,
    public_key: bytes,
    sign_count: int,
    user_handle: bytes,
) -> Assertion:
    """Checks a sign-in answer from a known passkey: this ceremony's challenge, this server's
    origin and relying party, the person present and verified, the user the passkey was made
    for, a signature by the passkey's key, a counter that went up (a cloned key's does not)."""
    from webauthn import verify_authentication_response
    from webauthn.helpers.exceptions import WebAuthnException
    from webauthn.helpers.structs import AuthenticationCredential, AuthenticatorAssertionResponse

    raw_id = _credential_id(credential)
    client_data = b64decode(credential.response.client_data_json, _CLIENT_DATA)
    origin = check_client_data(rp, client_data, "webauthn.get", challenge)
    handle = credential.response.user_handle
    if handle is not None and b64decode(handle, "credential.response.userHandle") != user_handle:
        raise PasskeyError(
            400,
            "bad_credential",
            "credential.response.userHandle: the passkey was made for another player",
            "credential.response.userHandle",
        )
    parsed = AuthenticationCredential(
        id=credential.id.rstrip("="),
        raw_id=raw_id,
        response=AuthenticatorAssertionResponse(
            client_data_json=client_data,
            authenticator_data=b64decode(
                credential.response.authenticator_data, "credential.response.authenticatorData"
            ),
            signature=b64decode(credential.response.signature, "credential.response.signature"),
        ),
    )
    try:
        verified = verify_authentication_response(
            credential=parsed,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
            require_user_verification=True,
        )
    except WebAuthnException as error:
        raise PasskeyError(400, "bad_credential", _why(error), "credential") from None
    except Exception:  # a parser of hostile bytes: whatever it trips on is a refusal
        raise PasskeyError(
            400, "bad_credential", "the signature could not be checked", "credential"
        ) from None
    return Assertion(verified.new_sign_count, verified.credential_backed_up)


def _why(error: Exception) -> str:
    """The library's reason, short and without the bytes it was given."""
    text = str(error).split(". See __cause__", 1)[0]
    return text[:200] or type(error).__name__
