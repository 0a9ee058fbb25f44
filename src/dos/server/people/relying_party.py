"""Who passkeys are made for: the relying party, this server (docs/accounts.md).

Its **id** is the domain passkeys are bound to (a passkey made on ``dos.example.org`` is
offered there only), its **origins** the addresses a ceremony may come from. Both come from
the environment (``RelyingParty.from_environment``): ``DOS_RP_ID`` (default ``localhost``) and
``DOS_ORIGINS``. Without origins, the id's own origin is expected: ``https://ID``, or for
``localhost`` any ``http(s)://localhost:PORT`` (a development server on any port).

>>> rp = RelyingParty()
>>> rp.allows("http://localhost:8000"), rp.allows("http://127.0.0.1:8000")
(True, False)
>>> RelyingParty("dos.example.org").allows("https://dos.example.org")
True
>>> RelyingParty("dos.example.org").allows("http://dos.example.org")
False
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*$")
_IPV4 = re.compile(r"^[0-9.]+$")


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who passkeys are made for: the domain (``id``), the name shown beside them and the
    origins a ceremony may come from (none: the id's own, see the module's docstring)."""

    id: str = "localhost"
    name: str = "DOS"
    origins: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not _HOST.match(self.id) or _IPV4.match(self.id):
            raise ValueError(
                f"DOS_RP_ID: {self.id!r} is not a domain name (lower case, no scheme, no port; "
                "WebAuthn refuses IP addresses)"
            )
        if not self.name.strip():
            raise ValueError("DOS_RP_NAME: empty")
        for origin in self.origins:
            parts = urlsplit(origin)
            if (
                parts.scheme not in ("http", "https")
                or not parts.hostname
                or parts.path
                or parts.query
                or parts.fragment
                or origin.endswith("/")
            ):
                raise ValueError(
                    f"DOS_ORIGINS: {origin!r} is not an origin (scheme://host[:port], no path)"
                )

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> RelyingParty:
        """The relying party the environment describes: ``DOS_RP_ID``, ``DOS_RP_NAME``,
        ``DOS_ORIGINS`` (separated by commas or spaces).

        >>> RelyingParty.from_environment({"DOS_RP_ID": "dos.example.org",
        ...     "DOS_ORIGINS": "https://dos.example.org, https://www.dos.example.org"}).origins
        ('https://dos.example.org', 'https://www.dos.example.org')
        """
        env = os.environ if environ is None else environ
        origins = tuple(o for o in re.split(r"[\s,]+", env.get("DOS_ORIGINS", "")) if o)
        return cls(
            id=env.get("DOS_RP_ID", "").strip() or "localhost",
            name=env.get("DOS_RP_NAME", "").strip() or "DOS",
            origins=origins,
        )

    def allows(self, origin: str) -> bool:
        """Whether a ceremony may come from ``origin`` (``scheme://host[:port]``)."""
        if self.origins:
            return origin in self.origins
        if self.id != "localhost":
            return origin == f"https://{self.id}"
        try:
            parts = urlsplit(origin)
            parts.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            return False
        return (
            parts.scheme in ("http", "https")
            and parts.hostname == "localhost"
            and not parts.path
            and not parts.query
            and not parts.fragment
            and "@" not in parts.netloc
        )

    def expected(self) -> str:
        """The origins allowed, in words (for refusals)."""
        if self.origins:
            return ", ".join(self.origins)
        if self.id == "localhost":
            return "http(s)://localhost:PORT"
        return f"https://{self.id}"
