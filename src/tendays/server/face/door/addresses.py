"""Who is asking: a request's client address as the limits count it (an IPv6 client is its /64
network), believed from ``X-Forwarded-For`` only when a trusted proxy sends it, and whether
the request came over TLS."""

from __future__ import annotations

import ipaddress
from collections.abc import MutableMapping
from typing import Any

from tendays.engine.i18n import gettext as _

from .limits import Network

__all__ = ["ForwardedError", "client_address", "client_key", "over_tls"]

Scope = MutableMapping[str, Any]


class ForwardedError(ValueError):
    """A trusted proxy forwarded a hop that is not an address."""


def client_address(scope: Scope, trusted: list[Network]) -> str:
    """The client as the limits count it (:func:`client_key`): the peer, or (from a trusted proxy)
    the rightmost hop of all ``X-Forwarded-For`` lines that is not a trusted proxy.
    :class:`ForwardedError` for a hop that is not an address."""
    peer = str((scope.get("client") or ("unknown", 0))[0])
    if not trusted or not _within(peer, trusted):
        return client_key(peer)
    hops = [
        hop.strip()
        for name, value in scope.get("headers", ())
        if name == b"x-forwarded-for"
        for hop in value.decode("latin-1").split(",")
    ]
    hops = [hop for hop in hops if hop]
    for hop in reversed(hops):
        if _ip(hop) is None:
            raise ForwardedError(
                _(
                    "the X-Forwarded-For header holds something that is not an address: {hop}"
                ).format(hop=hop[:60])
            )
        if not _within(hop, trusted):
            return client_key(hop)
    return client_key(hops[0] if hops else peer)


def over_tls(scope: Scope, trusted: list[Network]) -> bool:
    """Whether the request came over TLS: to this server, or (from a trusted proxy) to the proxy, as
    its last ``X-Forwarded-Proto`` says."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    peer = str((scope.get("client") or ("unknown", 0))[0])
    if not trusted or not _within(peer, trusted):
        return False
    said = [
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name == b"x-forwarded-proto"
    ]
    return bool(said) and said[-1].split(",")[-1].strip().lower() in ("https", "wss")


def client_key(address: str) -> str:
    """How the limits count ``address``: an IPv4 address as it is, an
    IPv6 one as its /64 network."""
    ip = _ip(address)
    if ip is None:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _within(address: str, networks: list[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)
