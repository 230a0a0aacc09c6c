"""The terminal game and the command line speak through the catalogues: no sentence in
``src/tendays/cli`` escapes them, and the German catalogue translates every one
(``test_catalogues.py`` checks completeness)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from test_catalogues import PACKAGE, SENTENCE, tool, untranslated

from tendays.cli.tui.screens import key_labels

CLI = sorted(path.relative_to(PACKAGE).as_posix() for path in (PACKAGE / "cli").rglob("*.py"))

# argparse's own pages (--help) may stay English: the option names they
# explain are English words anyway.
ARGPARSE_FUNCTIONS = {"add_arguments"}  # every command module builds its parser there
ARGPARSE_CALLS = {
    "add_argument",
    "add_parser",
    "add_subparsers",
    "add_argument_group",
    "ArgumentParser",
}
ARGPARSE_ATTRIBUTES = {"epilog", "description"}
ARGPARSE_TEXT = {
    "cli/main.py": {"COMMANDS"},
    "cli/check_cmd.py": {"STDIN_HELP"},
    # the settings of ``tendays serve``, their help and the headings they are grouped under
    "cli/serve_settings.py": {"SERVE_SETTINGS", "SERVER", "LIMITS", "GAMES"},
}
# The English words a function looks translations up by.
LOOKUPS = {"cli/tui/screens.py": {"key_labels"}}
# The engine protocol's answers are read by programs and, like its commands, are always English.
PROTOCOL = {"cli/engine_cmd.py": {"_json_object", "newgame_problem", "read_view", "serve"}}
# Key labels are English in the source and translated on screen by ``key_labels`` (checked below).
LABELLED_CALLS = {"Binding"}
# Words a screen shows in every language, or that it never shows: the program's name before a
# message ("tendays play: ..."), Rich styles ("bold red"), Textual key lists ("escape,enter"), the
# move notation, SQL.
NOT_WORDS = re.compile(
    r"\btendays(?: [a-z]+)?:?|\b(?:bold|dim|italic|on|red|green|#[0-9a-f]{6})\b"
    r"|^[a-z_0-9]+(?:,[a-z_0-9]+)+$|^[a-z]+(?: [A-Z]+)*(?: · [a-z]+(?: [A-Z]+)*)+$|^SELECT .*"
)


def english_by_design(module: str) -> Callable[[ast.AST, list[ast.AST]], bool]:
    """Whether a string of ``module`` may be English: argparse's help, the engine protocol, key
    labels, the app's title, and strings that say nothing once the words of
    every language are taken out."""

    def allowed(node: ast.AST, ancestors: list[ast.AST]) -> bool:
        if isinstance(node, ast.JoinedStr | ast.Constant) and not _says_something(node):
            return True
        for above in ancestors:
            if isinstance(above, ast.Call):
                name = (
                    above.func.attr
                    if isinstance(above.func, ast.Attribute)
                    else getattr(above.func, "id", "")
                )
                if name in ARGPARSE_CALLS or name in LABELLED_CALLS:
                    return True
            elif isinstance(above, ast.Assign):
                for target in above.targets:
                    if isinstance(target, ast.Attribute) and target.attr in ARGPARSE_ATTRIBUTES:
                        return True
                    if isinstance(target, ast.Name) and (
                        target.id in ARGPARSE_TEXT.get(module, ())
                        or
                        # the terminal window's title
                        target.id == "TITLE"
                    ):
                        return True
            elif isinstance(above, ast.FunctionDef) and (
                above.name in PROTOCOL.get(module, ())
                or above.name in LOOKUPS.get(module, ())
                or above.name in ARGPARSE_FUNCTIONS
            ):
                return True
        return False

    return allowed


def _says_something(node: ast.JoinedStr | ast.Constant) -> bool:
    """Whether a string literal holds words a person reads, once the words of
    every language are taken out."""
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, str):
            return False
        text = node.value
    else:
        text = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    return bool(SENTENCE.search(NOT_WORDS.sub(" ", text)))


def stray_sentences(module: str, root: Path = PACKAGE) -> list[str]:
    return untranslated(root / module, root, english_by_design(module))


@pytest.mark.parametrize("module", CLI)
def test_no_sentence_of_the_terminal_or_the_command_line_escapes_the_catalogues(
    module: str,
) -> None:
    assert stray_sentences(module) == []


def test_the_cli_scan_finds_a_stray_prompt_but_not_the_help(tmp_path: Path) -> None:
    sample = tmp_path / "cli" / "sample_cmd.py"
    sample.parent.mkdir()
    sample.write_text(
        'def add_arguments(parser):\n    parser.add_argument("--days", help="days in a '
        'journey")\n\n\ndef run(args):\n    print(f"tendays sample: {args.days} days are too '
        'many")\n    print("Type a journey per line")\n',
        encoding="utf-8",
    )
    found = stray_sentences("cli/sample_cmd.py", tmp_path)
    assert [line.split(":")[1] for line in found] == ["6", "7"], found


def test_every_key_label_is_translated() -> None:
    from textual.screen import Screen

    from tendays.cli.tui import end_screen, game_screen, replay_app, screens, setup_screen

    labels = key_labels()
    for module in (end_screen, game_screen, replay_app, screens, setup_screen):
        for screen in vars(module).values():
            if (
                isinstance(screen, type)
                and issubclass(screen, Screen)
                and screen.__module__ == module.__name__
            ):
                # its own keys (Textual's are its own)
                for binding in vars(screen).get("BINDINGS", []):
                    description = getattr(binding, "description", "")
                    assert (
                        not description
                        or description in labels
                        or description.isdigit()
                        or description in ("+10", "-10")
                    ), f"{screen.__name__}: {description!r} has no translated label"


def test_every_terminal_and_command_line_message_is_in_the_german_catalogue() -> None:
    german = tool.read(tool.po_path("de"), "de")
    cli_messages = [
        m
        for m in tool.read(tool.TEMPLATE)
        if m.id and any(path.startswith("src/tendays/cli/") for path, _line in m.locations)
    ]
    # the terminal's screens, prompts and rules, and the commands' messages
    assert len(cli_messages) > 200
    missing = [
        m.id
        for m in cli_messages
        if (german.get(m.id, m.context) is None or not tool.translated(german.get(m.id, m.context)))
    ]
    assert missing == []
