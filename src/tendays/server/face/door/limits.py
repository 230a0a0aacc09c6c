"""What one client may send (:class:`Limits`), and the book that counts it in one-minute
windows and keeps the refusals for the operator (:class:`LimitBook`)."""

from __future__ import annotations

import ipaddress
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LimitBook", "Limits", "Network"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass
class Limits:
    """What one client may send. A per-minute limit of 0 turns that limit off."""

    max_message_bytes: int = 4096  # one WebSocket message
    messages_per_second: int = 20  # per WebSocket connection
    clock: Callable[[], float] = field(default=time.monotonic)  # tests pin it
    max_body_bytes: int = 16 * 1024  # a REST request's body
    max_url_bytes: int = 2048  # a request's path and query
    creates_per_minute: int = 10  # games created, per client address
    joins_per_minute: int = 30  # seats joined, per client address
    connections_per_minute: int = 60  # table connections opened, per client address
    connections_at_once: int = 40  # table connections open at once, per client address
    trusted_proxies: tuple[str, ...] = ()  # addresses or networks whose X-Forwarded-For is believed
    hello_seconds: float = 10.0  # time a new table connection has to say hello
    body_seconds: float = 10.0  # time a request's body has to arrive, once its headers have
    replays_per_minute: int = 10  # records opened from files, per client address
    # requests one API token may make a minute, counted in the database (face/door/bearer.py)
    token_requests_per_minute: int = 300

    def networks(self) -> list[Network]:
        return [ipaddress.ip_network(p, strict=False) for p in self.trusted_proxies]


class LimitBook:
    """Sliding one-minute windows per (what, address), and the refusals, for the operator to see."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._windows: dict[tuple[str, str], deque[float]] = {}
        self.open: Counter[str] = Counter()  # table connections open, per address
        self.replaying: Counter[str] = Counter()  # records being replayed, per address
        self.refused: Counter[str] = Counter()  # refusals per limit since the start
        self.recent: deque[dict[str, Any]] = deque(maxlen=200)  # the latest refusals
        self._checks = 0

    def allow(self, what: str, address: str, per_minute: int) -> float:
        """0 if ``address`` may do ``what`` once more now (and count
        it), else the seconds to wait."""
        if per_minute <= 0:
            return 0.0
        now = self.clock()
        self._checks += 1
        if self._checks % 1000 == 0:
            self._forget_idle(now)
        window = self._windows.setdefault((what, address), deque())
        while window and now - window[0] >= 60.0:
            window.popleft()
        if len(window) >= per_minute:
            return max(1.0, 60.0 - (now - window[0]))
        window.append(now)
        return 0.0

    def waiting(self, what: str, address: str, per_minute: int) -> float:
        """0 if ``address`` may do ``what`` once more now, else the
        seconds to wait; counts nothing."""
        window = self._windows.get((what, address))
        if per_minute <= 0 or not window:
            return 0.0
        now = self.clock()
        while window and now - window[0] >= 60.0:
            window.popleft()
        return max(1.0, 60.0 - (now - window[0])) if len(window) >= per_minute else 0.0

    def note_refusal(self, what: str, address: str) -> None:
        self.refused[what] += 1
        self.recent.append({"at": round(time.time(), 3), "limit": what, "address": address})

    def _forget_idle(self, now: float) -> None:
        for key in [k for k, w in self._windows.items() if not w or now - w[-1] >= 60.0]:
            del self._windows[key]

    def to_json(self, limits: Limits) -> dict[str, Any]:
        busiest = Counter({address: n for address, n in self.open.items() if n})
        return {
            "limits": {
                "creates_per_minute": limits.creates_per_minute,
                "joins_per_minute": limits.joins_per_minute,
                "connections_per_minute": limits.connections_per_minute,
                "connections_at_once": limits.connections_at_once,
                "max_body_bytes": limits.max_body_bytes,
                "body_seconds": limits.body_seconds,
                "replays_per_minute": limits.replays_per_minute,
                "token_requests_per_minute": limits.token_requests_per_minute,
                "max_url_bytes": limits.max_url_bytes,
                "max_message_bytes": limits.max_message_bytes,
                "messages_per_second": limits.messages_per_second,
                "trusted_proxies": list(limits.trusted_proxies),
            },
            "refused": dict(self.refused),
            "recent": list(self.recent)[::-1],
            "open_connections": sum(self.open.values()),
            "busiest_addresses": [
                {"address": a, "connections": n} for a, n in busiest.most_common(10)
            ],
        }
