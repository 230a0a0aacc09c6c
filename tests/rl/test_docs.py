"""The examples in docs/rl.md and in the tendays.rl docstring run as written."""

import re
from pathlib import Path

import pytest

import tendays.rl

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _doc_examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_doc_has_examples() -> None:
    assert len(_doc_examples()) == 4


# 2 compiles the pgx env
@pytest.mark.parametrize("index", [0, 1, pytest.param(2, marks=pytest.mark.slow), 3])
def test_doc_example_runs(index: int) -> None:
    exec(compile(_doc_examples()[index], f"docs/rl.md example {index + 1}", "exec"), {})


def test_module_docstring_example_runs() -> None:
    doc = tendays.rl.__doc__ or ""
    example = doc.split("Example::\n", 1)[1]
    code = "\n".join(line[4:] for line in example.splitlines())
    exec(compile(code, "tendays.rl example", "exec"), {})
