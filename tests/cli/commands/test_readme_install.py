"""The README's install lines work from a clone: the package is not on PyPI;
extras as pyproject names them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[3]


def test_the_quick_start_installs_the_terminal_game_from_the_clone() -> None:
    readme = (ROOT / "README.md").read_text()
    quick_start = readme[
        readme.index("## Quick start") : readme.index("## The game in one paragraph")
    ]
    assert "pip install -e . && .venv/bin/tendays play" in quick_start
    assert "not on PyPI" in quick_start


def test_every_extra_is_installed_from_the_clone_and_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    # that form needs the package on PyPI
    assert not re.search(r"""pip install ["']tendays\[""", readme)
    named = re.findall(r'"\.\[([a-z,]+)\]"', readme)
    assert named
    for group in named:
        assert set(group.split(",")) <= set(extras), group


def test_no_example_or_message_names_an_extra_of_a_package_on_pypi() -> None:
    # tendays is installed from a clone: `pip install "tendays[x]"` cannot work, `-e ".[x]"` does.
    texts = [ROOT / "README.md", *(ROOT / "examples").rglob("*.py"), *(ROOT / "src").rglob("*.py")]
    said = [
        str(p.relative_to(ROOT))
        for p in texts
        if re.search(r"""pip install ["']tendays\[""", p.read_text())
    ]
    assert said == []


def test_the_readme_says_how_to_install_several_extras_at_once() -> None:
    readme = (ROOT / "README.md").read_text()
    # One spec with every extra: `-e ".[server]" ".[postgres]"` is the clone twice (editable and
    # not), which pip refuses with ResolutionImpossible.
    assert 'pip install -e ".[server,postgres]"' in readme
    assert "ResolutionImpossible" in readme
