"""CITATION.cff: valid YAML with the keys the Citation File Format 1.2.0 requires, and the version
and licence of pyproject.toml, so a citation never names a release that does not exist."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
# Required by the CFF 1.2.0 schema, at the top and in a reference (preferred-citation).
REQUIRED = {"cff-version", "message", "title", "authors"}
REQUIRED_IN_REFERENCE = {"type", "title", "authors"}


def _citation() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
    return project


def _named_authors(authors: Any) -> list[str]:
    assert isinstance(authors, list) and authors, "authors must be a non-empty list"
    names = []
    for author in authors:
        # a person has family-names; an entity (a group of people) has a name
        assert isinstance(author, dict) and ("name" in author or "family-names" in author)
        names.append(author.get("name") or author["family-names"])
    return names


def test_the_citation_has_the_keys_cff_requires() -> None:
    citation = _citation()
    assert citation.keys() >= REQUIRED, f"missing: {REQUIRED - citation.keys()}"
    assert citation["cff-version"] == "1.2.0"
    assert citation["type"] == "software"
    assert _named_authors(citation["authors"]) == ["The tendays contributors"]
    assert citation["abstract"].strip()
    reference = citation["preferred-citation"]
    assert reference.keys() >= REQUIRED_IN_REFERENCE
    assert reference["type"] == "software"
    assert reference["title"] == citation["title"]
    assert _named_authors(reference["authors"]) == ["The tendays contributors"]


def test_the_citation_names_the_version_and_licence_of_pyproject() -> None:
    citation, project = _citation(), _project()
    assert citation["version"] == project["version"]
    assert citation["preferred-citation"]["version"] == project["version"]
    assert citation["license"] == project["license"]
    assert citation["preferred-citation"]["license"] == project["license"]
