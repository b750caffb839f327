"""Limits by client address: how many connections one address may hold, and how many
wrong codes (invite codes, score sheet, club evening and club codes, tokens) it may try in a
window of time, over a websocket and over HTTP (a sheet's exports) alike.

An address is the connection's remote IP, or, behind a proxy this server trusts
(``trust_forwarded``), the last address of its ``X-Forwarded-For`` header: the one that
proxy added (``deploy/nginx.conf`` appends the address it was connected from).  Every
address before it came from the client, which may write anything there.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

from websockets.asyncio.server import ServerConnection

from ..core.errors import Refused

T = TypeVar("T")

# A wrong one of these codes counts as an attempt.
WRONG_CODES = frozenset({
    "bad_invite", "bad_sheet_code", "bad_evening_code", "bad_club_code", "bad_token",
})  # fmt: skip


def client_address(ws: ServerConnection, trust_forwarded: bool) -> str:
    """The address a connection's limits count against (see the module's docstring)."""
    if trust_forwarded and ws.request is not None:
        hops = [
            hop.strip()
            for header in ws.request.headers.get_all("X-Forwarded-For")
            for hop in header.split(",")
        ]  # several headers read as one list, in order
        if hops and hops[-1]:
            return hops[-1]
    remote = ws.remote_address
    return str(remote[0]) if isinstance(remote, tuple) else str(remote)


class Connections:
    """The connections open by address, against a cap per address and one in all."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address, self.total = per_address, total
        self.open: Counter[str] = Counter()

    def admit(self, address: str) -> bool:
        """Count a new connection in, if there is room for it."""
        if sum(self.open.values()) >= self.total or self.open[address] >= self.per_address:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class FailedAttempts:
    """Wrong codes by address: at most ``limit`` in any ``window`` seconds.

    Only addresses with a wrong code in the last ``window`` are kept: each new failure
    forgets the addresses whose latest failure is older (they are kept in the order of
    their latest failure, so that costs nothing while there are none), and at most
    ``most`` addresses are kept at all (the one that failed longest ago goes first)."""

    def __init__(
        self, limit: int, window: float, now: Callable[[], float], most: int = 65_536
    ) -> None:
        self.limit, self.window, self.now, self.most = limit, window, now, most
        self.failures: OrderedDict[str, deque[float]] = OrderedDict()

    def check(self, address: str) -> None:
        """Refuse (``too_many_attempts``) an address that has used up its tries."""
        times = self.failures.get(address)
        if times is None:
            return
        while times and self.now() - times[0] >= self.window:
            times.popleft()
        if not times:
            del self.failures[address]
        elif len(times) >= self.limit:
            wait = max(1, round(self.window - (self.now() - times[0])))
            raise Refused(
                "too_many_attempts",
                f"too many wrong codes from your address: try again in {wait} s",
            )

    def failed(self, address: str) -> None:
        now = self.now()
        times = self.failures.setdefault(address, deque(maxlen=self.limit))
        times.append(now)
        self.failures.move_to_end(address)
        failures = self.failures
        while failures:
            oldest, last = next(iter(failures.items()))
            if len(failures) <= self.most and now - last[-1] < self.window:
                break
            del failures[oldest]

    async def coded(self, address: str, work: Awaitable[T]) -> T:
        """``work`` that checks a secret code (an invite code, a sheet's, a token): refused
        at once from an address that tried too many wrong ones lately; a wrong one counts."""
        try:
            self.check(address)
        except Refused:
            if asyncio.iscoroutine(work):
                work.close()
            raise
        try:
            return await work
        except Refused as err:
            if err.code in WRONG_CODES:
                self.failed(address)
            raise
