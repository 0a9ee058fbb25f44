"""The errors of leases, a table's (``dos.cluster.lease``) or a process's
(``dos.cluster.process_lease``), and how their Redis calls are made."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

if TYPE_CHECKING:
    from dos.cluster.lease import Holder

T = TypeVar("T")


class LeaseError(Exception):
    """A lease could not be acquired, kept or reached: a table's (``code``, the table's code)
    or a process's (``code``, its owner id)."""

    def __init__(self, code: str, message: str, subject: str = "table") -> None:
        self.code = code
        super().__init__(f"{subject} {code}: {message}")


class LeaseLostError(LeaseError):
    """The lease is no longer this owner's, or may not be: it expired, another owner took
    it (``holder``, a ``dos.cluster.lease.Holder``), or Redis could not be reached before it
    expired. The process must stop acting as the owner of the table (of every table, for a
    process's lease); its writes are refused from the next owner's claim on."""

    def __init__(
        self,
        code: str,
        epoch: int | None,
        why: str,
        holder: Holder | None = None,
        subject: str = "table",
    ) -> None:
        self.epoch = epoch
        self.holder = holder
        self.why = why
        lease = "the lease" if epoch is None else f"the lease of epoch {epoch}"
        super().__init__(code, f"{lease} was lost: {why}", subject)


class ProcessLeaseGoneError(LeaseLostError):
    """Redis no longer holds the process lease the taker believed it held (it lapsed, or Redis
    restarted without its data): every table taken under it is lost; a new process lease may
    be taken at once."""


class RedisUnavailableError(LeaseError):
    """Redis did not answer (down, unreachable, timed out); the lease's state is unknown."""


async def ask(code: str, what: str, call: Callable[[], Awaitable[T]], subject: str = "table") -> T:
    """``await call()``; a connection closed by Redis (it restarted) is tried once more, on a
    new one (every call it is given may run twice); every Redis failure becomes
    ``RedisUnavailableError``."""
    for attempt in range(2):
        try:
            return await call()
        except RedisConnectionError as error:
            if attempt == 0:
                continue
            failure: RedisError = error
        except RedisError as error:
            failure = error
        break
    raise RedisUnavailableError(
        code, f"could not {what} the lease, Redis did not answer ({failure})", subject
    ) from failure
