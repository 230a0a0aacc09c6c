"""The documented deployment, for real: nginx from Debian with deploy/nginx/tendays.conf (TLS with a
certificate made here, WebSockets) in front of ``tendays serve``, and a game played through it in Chromium.

Only what a machine needs changes in the configuration: ports, the server name, the certificate's and the
log's paths. Each change must find its line, so the documented file and this test cannot drift apart.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, click_move, free_port, is_over, legal_buttons, new_page, open_lobby

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
# slow: starts Chromium
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (scripts/test.sh installs Debian's)"),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing"),
]
SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "tendays.conf"
ADMIN = "pr0xy-admin-Rq7Lx3Vw9Zt1Yb5Nc2Kd8Hs4Pf6Gj0"


def wait_for_port(port: int, process: subprocess.Popen[Any], what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{what} exited: {process.stdout.read() if process.stdout else ''}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not listen on port {port}")


def site_config(folder: Path, https: int, http: int, upstream: int) -> str:
    text = SITE.read_text()
    for old, new in (
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;"),
        ("server_name tendays.example.org;", "server_name localhost;"),
        ("/etc/letsencrypt/live/tendays.example.org/fullchain.pem", str(folder / "cert.pem")),
        ("/etc/letsencrypt/live/tendays.example.org/privkey.pem", str(folder / "key.pem")),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
        ("/var/log/nginx/tendays.access.log", str(folder / "access.log")),
    ):
        assert old in text, f"deploy/nginx/tendays.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("proxy")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(folder / "key.pem"),
            "-out",
            str(folder / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    upstream, https, http = free_port(), free_port(), free_port()
    env = {
        **os.environ,
        "TENDAYS_DB": f"sqlite:///{folder / 'tendays.db'}",
        "TENDAYS_PORT": str(upstream),
        "TENDAYS_TRUSTED_PROXIES": "127.0.0.1",
        "TENDAYS_ADMIN_TOKEN": ADMIN,
        "TENDAYS_BOT_DELAY": "0",
        "TENDAYS_BOT_WORKERS": "0",
        "TENDAYS_CREATES_PER_MINUTE": "3",
        "PYTHONUNBUFFERED": "1",
    }
    app = subprocess.Popen(
        [sys.executable, "-m", "tendays", "serve", "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    (folder / "site.conf").write_text(site_config(folder, https, http, upstream))
    (folder / "nginx.conf").write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
    proxy = subprocess.Popen(
        [str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for_port(upstream, app, "tendays serve")
        wait_for_port(https, proxy, "nginx")
        yield {"url": f"https://localhost:{https}", "http": f"http://127.0.0.1:{http}", "folder": folder}
    finally:
        for process in (proxy, app):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def https_call(url: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> Any:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the certificate made for the test
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_game_played_in_chromium_through_nginx_with_tls(browser: Any, site: dict[str, Any]) -> None:
    page = new_page(browser, ignore_https_errors=True)
    open_lobby(page, site["url"] + "/")
    page.fill("#player-name", "Alice")
    page.check("input[name=edition][value=usa]")
    page.check("input[name=seats][value='2']")
    page.select_option("#seat-2", "easy")
    page.check("input[name=days][value='5']")
    page.fill("input[name=turn_limit]", "4")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#connection.open")  # the table's WebSocket, upgraded through nginx over TLS
    assert page.url.startswith(site["url"])
    deadline = time.monotonic() + 60
    while not is_over(page):
        assert time.monotonic() < deadline, "the game through the proxy did not end"
        moves = legal_buttons(page)
        if moves:
            click_move(page, moves[0])
        page.wait_for_timeout(30)
    page.fill("#chat-input", "gg through nginx")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat .chat-line:has-text('gg through nginx')")
    assert not page.js_errors
    page.context.close()  # nginx logs a WebSocket once it closes
    log, deadline = "", time.monotonic() + 10
    while "GET /ws/games/" not in log and time.monotonic() < deadline:
        time.sleep(0.1)
        log = (site["folder"] / "access.log").read_text()
    assert "GET /ws/games/" in log and " 101 " in log and "token" not in log  # no seat token in any address


def test_plain_http_is_sent_to_https(site: dict[str, Any]) -> None:
    with socket.create_connection(("127.0.0.1", int(site["http"].rsplit(":", 1)[1])), timeout=10) as raw:
        raw.sendall(b"GET /play/abc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answer = raw.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 301") and "Location: https://localhost/play/abc" in answer


def test_limits_count_the_address_nginx_saw_not_a_forged_one(site: dict[str, Any]) -> None:
    game = {"edition": "usa", "name": "Mallory", "seats": [{"kind": "human"}, {"kind": "human"}]}
    forged = {"X-Forwarded-For": "203.0.113.9"}
    statuses = [https_call(site["url"] + "/api/games", game, forged)[0] for _ in range(4)]
    assert 429 in statuses and statuses[0] in (201, 429)
    status, seen = https_call(site["url"] + "/api/admin/limits", headers={"Authorization": f"Bearer {ADMIN}"})
    assert status == 200 and seen["recent"][0]["address"] == "127.0.0.1"  # nginx replaced the forged header
    status, _ = https_call(site["url"] + "/api/games", {**game, "name": "x" * 20_000})
    assert status == 413  # refused by nginx itself (client_max_body_size)


def test_answers_over_tls_carry_hsts_from_nginx_and_the_servers_headers_once(site: dict[str, Any]) -> None:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the certificate made for the test
    for path in ("/", "/api/games", "/static/js/pages/lobby.js", "/api/games/nosuch"):
        request = urllib.request.Request(site["url"] + path)
        try:
            with urllib.request.urlopen(request, timeout=10, context=context) as answer:
                headers = answer.headers
        except urllib.error.HTTPError as error:
            headers = error.headers
        assert headers.get_all("Strict-Transport-Security") == ["max-age=63072000"], path
        assert len(headers.get_all("Content-Security-Policy")) == 1, path
        assert headers.get_all("X-Frame-Options") == ["DENY"], path
