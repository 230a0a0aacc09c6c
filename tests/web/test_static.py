"""Checks of the browser client's files that need no browser: everything they load is shipped with
the package (no CDN, no other site), every module they import exists, and the scripts parse.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tendays.web.pages import page_html

STATIC = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static"
EDITIONS = STATIC.parents[1] / "editions"
PAGES = sorted(page.name for page in STATIC.glob("*.html"))
SCRIPTS = sorted((STATIC / "js").rglob("*.js"))

LOADS = re.compile(r"""<(?:script|link|img|iframe|source)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.I)
IMPORTS = re.compile(r"""^\s*import\b[^;]*?\bfrom\s+["']([^"']+)["']""", re.M)
URL = re.compile(r"https?://[^\s\"'`)<>]+")
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//.*?$", re.S | re.M)
STRING = re.compile(r"""["'`]([^"'`\n]*)["'`]""")
KEY = re.compile(r"\b([A-Za-z_]\w*)\s*:")


def test_the_pages_and_scripts_exist() -> None:
    for page in PAGES:
        assert (STATIC / page).is_file(), page
    names = {p.relative_to(STATIC / "js").as_posix() for p in SCRIPTS}
    shared = {"dom", "rest", "storage", "format", "connection", "edition", "map", "protocol"}
    assert names >= {f"shared/{name}.js" for name in shared} | {"pages/lobby.js", "pages/table.js"}


def test_a_page_loads_its_scripts_from_pages_and_no_module_imports_one() -> None:
    """The scripts an .html page loads are js/pages/*.js and nothing imports them; every other
    module lives in a folder (js/shared/ or the folder of its part of a page), none at the top."""
    entries = {
        (STATIC / src.removeprefix("/static/")).resolve()
        for page in PAGES
        for src in LOADS.findall((STATIC / page).read_text("utf-8"))
        if src.endswith(".js")
    }
    pages = STATIC / "js" / "pages"
    assert entries == set(pages.glob("*.js")), "js/pages/ holds exactly the pages' scripts"
    for script in SCRIPTS:
        assert script.parent != STATIC / "js", f"{script.name} lies at the top of js/"
        for target in IMPORTS.findall(script.read_text("utf-8")):
            module = (script.parent / target).resolve()
            assert module.parent != pages, f"{script.name} imports the page script {target!r}"


def test_the_lobby_links_to_the_puzzles_and_the_guided_game() -> None:
    lobby = page_html(STATIC / "index.html")
    links = set(re.findall(r'<a\b[^>]*\bhref="(/[a-z]+)"', lobby))
    assert {"/puzzles", "/learn"} <= links


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC / "js")))
def test_a_script_stays_small(script: Path) -> None:
    lines = len(script.read_text("utf-8").splitlines())
    assert lines <= 400, f"{script.name} has {lines} lines; split it"


@pytest.mark.parametrize("page", PAGES)
def test_a_page_loads_only_files_of_the_package(page: str) -> None:
    html = (STATIC / page).read_text("utf-8")
    loads = LOADS.findall(html)
    assert loads, "the page loads its script and stylesheet"
    for target in loads:
        if target.startswith("data:"):
            continue
        assert target.startswith("/static/"), f"{page} loads {target!r} from outside the package"
        assert (STATIC / target.removeprefix("/static/")).is_file(), f"{page} loads {target!r}, which is missing"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC / "js")))
def test_a_script_imports_only_shipped_modules_and_names_no_other_site(script: Path) -> None:
    source = script.read_text("utf-8")
    for target in IMPORTS.findall(source):
        assert target.startswith(("./", "../")), f"{script.name} imports {target!r}, not a file of the client"
        module = (script.parent / target).resolve()
        assert module.is_relative_to(STATIC / "js"), f"{script.name} imports {target!r} from outside the client"
        assert module.is_file(), f"{script.name} imports {target!r}, which is missing"
    urls = [u for u in URL.findall(source) if u != SVG_NAMESPACE]
    assert not urls, f"{script.name} names other sites: {urls}"


def test_the_scripts_hold_nothing_particular_to_an_edition() -> None:
    """Colours, their screen colours, transports and their icons come from the edition data (/api/editions/ID):
    no script names one, as a string or as an object's key."""
    editions = [json.loads(path.read_text("utf-8")) for path in EDITIONS.glob("*.json")]
    particular = set()
    for edition in editions:
        particular |= set(edition["colors"]) | set(edition["palette"].values())
        particular |= {t["kind"] for t in edition["transports"]} | {t["icon"] for t in edition["transports"]}
    for script in SCRIPTS:
        code = COMMENT.sub("", script.read_text("utf-8"))  # examples in comments are words, not data
        literals = set(STRING.findall(code)) | set(KEY.findall(code))
        assert not literals & particular, f"{script.name} names {sorted(literals & particular)}"


def test_the_stylesheet_loads_nothing_from_elsewhere() -> None:
    css = (STATIC / "css" / "tendays.css").read_text("utf-8")
    assert "@import" not in css
    assert not re.search(r"url\(\s*['\"]?https?:", css)


# Parses each script named on the command line as an ES module, as the browser does, without running it:
# one Node process for every script instead of a ``node --check`` each.
PARSE = """
import vm from "node:vm";
import { readFileSync } from "node:fs";
const errors = {};
for (const path of process.argv.slice(1)) {
  try {
    new vm.SourceTextModule(readFileSync(path, "utf8"), { identifier: path });
    errors[path] = "";
  } catch (error) {
    errors[path] = `${error.name}: ${error.message}`;
  }
}
console.log(JSON.stringify(errors));
"""


@pytest.fixture(scope="module")
def parse_errors() -> dict[str, str]:
    """Why each script does not parse as an ES module ("" when it does)."""
    result = subprocess.run(
        ["node", "--experimental-vm-modules", "--no-warnings", "--input-type=module", "-e", PARSE, *map(str, SCRIPTS)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    errors: dict[str, str] = json.loads(result.stdout)
    return errors


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (only used to parse the scripts)")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC / "js")))
def test_a_script_parses_as_an_es_module(script: Path, parse_errors: dict[str, str]) -> None:
    assert parse_errors[str(script)] == ""
