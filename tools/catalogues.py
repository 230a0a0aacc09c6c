"""The message catalogues: extract the sentences from the source, merge them into each language,
compile.

    python tools/catalogues.py              # after changing sentences: extract, update every .po,
                                            # compile
    python tools/catalogues.py compile      # after translating: compile every .po into its .mo
    python tools/catalogues.py init fr      # start a new language (then translate its .po and
                                            # compile)
    python tools/catalogues.py check        # what the tests check: nothing missing, fuzzy or out of
                                            # date

The template is ``src/tendays/locale/tendays.pot``; each language has
``src/tendays/locale/<lang>/LC_MESSAGES/tendays.po`` and the compiled ``tendays.mo`` beside it. The
``.mo`` files are committed, so the package speaks every language straight from a clone, an editable
install or a wheel, without a build step; the tests fail when a ``.mo`` is not the compilation of
its ``.po`` (docs/i18n.md).
"""

from __future__ import annotations

import gettext
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "tendays"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "tendays.pot"
DOMAIN = "tendays"
COMMENT_TAG = "TRANSLATORS:"
WIDTH = 120
HEADER = "# The sentences of tendays, for translation: docs/i18n.md says how.\n#"


def extract() -> Catalog:
    """Every message of the package's Python source, with the files it is in
    and the translators' comments."""
    catalog = Catalog(
        project=DOMAIN,
        domain=DOMAIN,
        charset="utf-8",
        fuzzy=False,
        header_comment=HEADER,
        copyright_holder="the tendays authors",
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE, keywords=DEFAULT_KEYWORDS, comment_tags=(COMMENT_TAG,), strip_comment_tags=True
    ):
        catalog.add(
            message,
            None,
            [(f"src/tendays/{filename}", lineno)],
            auto_comments=comments,
            context=context,
            flags=("python-brace-format",),
        )
    return catalog


def languages() -> list[str]:
    """The languages with a catalogue (English, the source's language, has none)."""
    return sorted(path.parent.parent.name for path in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=lang, domain=DOMAIN)


def write(path: Path, catalog: Catalog) -> None:
    """Write a catalogue without line numbers, so an edit elsewhere in a
    file does not touch every entry."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, include_lineno=False, sort_by_file=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def keys(messages: Iterable[Message]) -> set[tuple[object, str | None]]:
    """What tells messages apart: the id (with its plural) and the context."""
    return {(m.id, m.context) for m in messages if m.id}


def strings(message: Message) -> list[str]:
    """A message's translations: one, or one per plural form."""
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def translated(message: Message) -> bool:
    return bool(strings(message)) and all(strings(message)) and not message.fuzzy


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def translations(mo: bytes) -> dict[object, str]:
    """What a compiled catalogue translates, as gettext reads it (its header, which names the Babel
    that wrote it, left out)."""
    table = gettext.GNUTranslations(io.BytesIO(mo))._catalog  # type: ignore[attr-defined]
    return {key: value for key, value in table.items() if key != ""}


def summary(
    catalog: Catalog,
) -> dict[tuple[object, str | None], tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each message with its translators' comments and the files it is in: what a template says."""
    return {
        (m.id, m.context): (
            tuple(m.auto_comments),
            tuple(sorted({path for path, _line in m.locations})),
        )
        for m in catalog
        if m.id
    }


def update_template() -> Catalog:
    """Extract, and write the template if its messages or comments changed (the
    header's date alone is not)."""
    template = extract()
    if TEMPLATE.exists():
        old = read(TEMPLATE)
        if summary(old) == summary(template):
            return old
    write(TEMPLATE, template)
    return template


def update(lang: str, template: Catalog) -> None:
    """Merge the template into a language: new messages arrive empty, changed
    ones fuzzy, gone ones obsolete."""
    catalog = read(po_path(lang), lang)
    catalog.update(template, update_creation_date=False)
    write(po_path(lang), catalog)


def compile_all() -> None:
    for lang in languages():
        catalog = read(po_path(lang), lang)
        po_path(lang).with_suffix(".mo").write_bytes(compiled(catalog))
        done = sum(1 for m in catalog if m.id and translated(m))
        print(f"{lang}: {done} of {sum(1 for m in catalog if m.id)} messages translated")


def problems() -> list[str]:
    """Everything the tests refuse: a stale template, and a language that
    lacks or doubts a translation."""
    found = []
    template = read(TEMPLATE)
    source = extract()
    if summary(source) != summary(template):
        found.append(
            f"the template is out of date: run python tools/catalogues.py "
            f"({len(keys(source) - keys(template))} new, {len(keys(template) - keys(source))} gone)"
        )
    for lang in languages():
        catalog = read(po_path(lang), lang)
        for message in template:
            if not message.id:
                continue
            translation = catalog.get(message.id, message.context)
            if translation is None or not all(strings(translation)):
                found.append(f"{lang}: no translation of {message.id!r}")
            elif translation.fuzzy:
                found.append(f"{lang}: the translation of {message.id!r} is fuzzy")
        if catalog.obsolete:
            found.append(f"{lang}: obsolete messages {sorted(map(str, catalog.obsolete))}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or translations(mo.read_bytes()) != translations(compiled(catalog)):
            found.append(
                f"{lang}: {mo.name} is not the compilation of {po_path(lang).name}: run python "
                f"tools/catalogues.py compile"
            )
    return found


def main(args: list[str]) -> None:
    command = args[0] if args else "all"
    if command == "all":
        template = update_template()
        for lang in languages():
            update(lang, template)
        compile_all()
    elif command == "compile":
        compile_all()
    elif command == "init" and len(args) == 2:
        lang = args[1]
        if po_path(lang).exists():
            sys.exit(f"{po_path(lang)} exists already")
        catalog = Catalog(
            locale=lang,
            domain=DOMAIN,
            project=DOMAIN,
            fuzzy=False,
            header_comment=HEADER,
            copyright_holder="the tendays authors",
        )
        catalog.update(read(TEMPLATE), update_creation_date=False)
        write(po_path(lang), catalog)
        print(
            f"wrote {po_path(lang).relative_to(ROOT)}: translate it, then run python "
            f"tools/catalogues.py compile"
        )
    elif command == "check":
        found = problems()
        print("\n".join(found) or "the catalogues are complete and up to date")
        sys.exit(1 if found else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
