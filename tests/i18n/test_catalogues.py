"""The catalogues hold every sentence: extraction, completeness, placeholders,
compiled files, no stray English."""

from __future__ import annotations

import ast
import importlib.util
import re
import string
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tendays.engine import available_editions, load_edition
from tendays.engine.i18n import FORMS, Term, available_languages

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "tendays"

# Modules whose sentences players read. Their messages must all go through the catalogues; the rest
# of the engine raises only for programmers (broken edition files, misuse of the API).
USER_FACING = [
    "engine/state.py",
    "engine/seeds.py",
    "engine/options.py",
    "engine/moves.py",
    "engine/record.py",
    "engine/view.py",
    "engine/wire.py",
    "engine/journey.py",
    "engine/describe.py",
    "bots/hint.py",
]
GETTEXT = {"_", "gettext", "ngettext", "pgettext"}
SENTENCE = re.compile(r"[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}")
# the move notation ('replace DAY PILE') is the same in every language
NOTATION = re.compile(r"^'[a-z]+( [A-Z]+)*'$")


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "tools" / "catalogues.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = load_tool()


@pytest.mark.slow  # extracts every sentence of the source
def test_the_template_holds_every_sentence_of_the_source() -> None:
    source, template = tool.summary(tool.extract()), tool.summary(tool.read(tool.TEMPLATE))
    new = sorted(map(str, set(source) - set(template)))
    gone = sorted(map(str, set(template) - set(source)))
    assert not new and not gone, f"run python tools/catalogues.py: new {new}, gone {gone}"
    assert source == template, (
        "run python tools/catalogues.py: comments or files of messages changed"
    )


def test_german_is_a_catalogue_language() -> None:
    assert available_languages() == ("en", "de")
    assert tool.languages() == ["de"]


@pytest.mark.parametrize("lang", tool.languages())
def test_every_message_is_translated(lang: str) -> None:
    catalog = tool.read(tool.po_path(lang), lang)
    template = tool.read(tool.TEMPLATE)
    missing = [
        m.id
        for m in template
        if m.id
        and (
            catalog.get(m.id, m.context) is None
            or not all(tool.strings(catalog.get(m.id, m.context)))
        )
    ]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not missing, f"{lang} lacks translations of {missing}"
    assert not fuzzy, (
        f"{lang} has fuzzy translations of {fuzzy}: check them and remove the fuzzy flag"
    )
    assert not catalog.obsolete, f"{lang} has obsolete messages: {list(catalog.obsolete)}"
    assert catalog.plural_forms == "nplurals=2; plural=(n != 1);" or lang != "de"


def test_german_calls_a_turn_a_zug_the_train_a_bahn_and_only_a_tournament_round_a_runde() -> None:
    # As German rules say it: one player's turn is a "Zug" ("am Zug"), so the train tile is a
    # "Bahn"; a "Runde" is everybody's round, which only tournaments have.
    round_ = re.compile(r"\b(Runde|Runden|Rundengrenze|Rundenlimit|dran|an der Reihe)\b")
    said = [
        text
        for message in tool.read(tool.po_path("de"), "de")
        if message.id
        and not any(
            word in " ".join(message.id if isinstance(message.id, tuple) else (message.id,)).lower()
            for word in ("round", "tournament")
        )
        for text in tool.strings(message)
        if round_.search(text)
    ]
    assert said == []
    trains = [
        text
        for message in tool.read(tool.po_path("de"), "de")
        if message.id in ("train", "trains", "a train")
        for text in tool.strings(message)
    ]
    assert trains == ["Bahn", "Bahnen", "eine Bahn"]


def fields(text: str) -> set[tuple[str, str]]:
    return {
        (name, spec or "")
        for _literal, name, spec, _conv in string.Formatter().parse(text)
        if name is not None
    }


@pytest.mark.parametrize("lang", tool.languages())
def test_translations_use_only_the_placeholders_of_their_message(lang: str) -> None:
    for message in tool.read(tool.po_path(lang), lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        known = {name for text in ids for name, _spec in fields(text)}
        for translation in tool.strings(message):
            used = fields(translation)
            assert {name for name, _spec in used} <= known, (
                f"{translation!r} names a placeholder {ids[0]!r} lacks"
            )
            assert {spec for _name, spec in used} <= set(FORMS), (
                f"{translation!r} asks for an unknown form"
            )
            translation.format(**{name: Term("x", "the x") for name in known})  # it formats


@pytest.mark.parametrize("lang", tool.languages())
def test_the_compiled_catalogue_is_the_compilation_of_its_source(lang: str) -> None:
    mo = tool.po_path(lang).with_suffix(".mo")
    assert mo.exists(), "run python tools/catalogues.py compile"
    catalog = tool.read(tool.po_path(lang), lang)
    assert tool.translations(mo.read_bytes()) == tool.translations(tool.compiled(catalog)), (
        f"{mo} is out of date: run python tools/catalogues.py compile"
    )


@pytest.mark.slow  # extracts every sentence of the source
def test_the_checking_command_finds_nothing() -> None:
    assert tool.problems() == []


def untranslated(
    path: Path,
    root: Path = PACKAGE,
    allowed: Callable[[ast.AST, list[ast.AST]], bool] = lambda node, ancestors: False,
) -> list[str]:
    """Sentences in a module that do not go through the catalogues, but for the nodes that
    ``allowed`` (given the node and its ancestors, nearest first) lets pass."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docstrings = {
        node.body[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }

    def in_gettext(node: ast.AST) -> bool:
        while node in parents:
            node = parents[node]
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in GETTEXT
            ):
                return True
        return False

    found = []
    for node in ast.walk(tree):
        ancestors: list[ast.AST] = []
        while (ancestors[-1] if ancestors else node) in parents:
            ancestors.append(parents[ancestors[-1] if ancestors else node])
        if allowed(node, ancestors):
            continue
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value
                for v in node.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            )
            if SENTENCE.search(text):
                found.append(
                    f"{where}: a sentence in an f-string (use a catalogue message and .format)"
                )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node not in docstrings
        ):
            if (
                isinstance(parents.get(node), ast.JoinedStr)
                or NOTATION.match(node.value)
                or in_gettext(node)
            ):
                continue
            if SENTENCE.search(node.value):
                found.append(f"{where}: {node.value!r} is not in a catalogue message")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in GETTEXT
        ):
            texts = (
                node.args[1:]
                if node.func.id == "pgettext"
                else node.args[: 2 if node.func.id == "ngettext" else 1]
            )
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in texts):
                found.append(
                    f"{where}: {node.func.id}() needs string literals, or extraction cannot see "
                    f"them"
                )
    return found


@pytest.mark.parametrize("module", USER_FACING)
def test_no_sentence_escapes_the_catalogues(module: str) -> None:
    assert untranslated(PACKAGE / module) == []


def test_the_scan_finds_a_stray_sentence(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'def f(day):\n    raise ValueError(f"there is no day {day}")\n\n\ndef g():\n'
        '    return "the game is over"\n\n\ndef h(text):\n    return _(text)\n',
        encoding="utf-8",
    )
    found = sorted(untranslated(sample, tmp_path), key=lambda line: int(line.split(":")[1]))
    assert (
        len(found) == 3
        and "f-string" in found[0]
        and "not in a catalogue" in found[1]
        and "literals" in found[2]
    )


@pytest.mark.parametrize("edition_id", available_editions())
def test_every_edition_names_its_things_in_every_catalogue_language(edition_id: str) -> None:
    edition = load_edition(edition_id)
    assert set(available_languages()) <= set(edition.languages)
    assert edition.language in available_languages()
