"""Forwarded addresses: the client behind a trusted proxy is the rightmost hop it did not forge,
an IPv6 client counts per /64 network, a forwarded line that is no address is refused, and the
limits count the forwarded client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, settings

from tendays.server.face.app import Limits, create_app
from tendays.server.face.door.addresses import ForwardedError, client_address


def _scope(peer: str, *lines: str) -> dict[str, Any]:
    return {"client": (peer, 1), "headers": [(b"x-forwarded-for", line.encode()) for line in lines]}


def test_the_rightmost_untrusted_hop_of_every_forwarded_line_is_the_client() -> None:
    trusted = Limits(trusted_proxies=("127.0.0.1", "10.0.0.0/8")).networks()
    # A proxy that appends a line: the client's forged first line does not choose its address.
    assert client_address(_scope("127.0.0.1", "198.51.100.1", "203.0.113.9"), trusted) == "203.0.113.9"
    assert client_address(_scope("127.0.0.1", "198.51.100.1", "203.0.113.9, 10.2.3.4"), trusted) == "203.0.113.9"
    with pytest.raises(ForwardedError):
        client_address(_scope("127.0.0.1", "203.0.113.9", "not-an-address"), trusted)


def test_ipv6_clients_count_per_64_network() -> None:
    one = client_address(_scope("2001:db8:1:2::1"), [])
    assert one == client_address(_scope("2001:db8:1:2:ffff::9"), []) == "2001:db8:1:2::/64"
    assert client_address(_scope("2001:db8:1:3::1"), []) != one
    assert client_address(_scope("::ffff:192.0.2.1"), []) == "192.0.2.1"


def test_a_forwarded_line_that_is_no_address_is_refused(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(trusted_proxies=("127.0.0.1",)))
    with TestClient(app, client=("127.0.0.1", 5000)) as client:
        answer = client.get("/health", headers={"X-Forwarded-For": "<script>"})
        assert answer.status_code == 400 and "not an address" in answer.json()["detail"]
        assert client.get("/health", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 200


@pytest.mark.slow  # over a second of CPU
def test_creates_are_limited_for_the_forwarded_client_not_its_forged_line(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(trusted_proxies=("127.0.0.1",), creates_per_minute=2)
    )
    body = {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}
    with TestClient(app, client=("127.0.0.1", 5000)) as client:
        codes = [
            client.post(
                "/api/games",
                json=body,
                headers=[("X-Forwarded-For", f"198.51.100.{n}"), ("X-Forwarded-For", "203.0.113.9")],
            ).status_code
            for n in range(4)
        ]
    assert codes == [201, 201, 429, 429]
