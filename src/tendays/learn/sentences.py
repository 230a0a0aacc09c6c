"""Every sentence of the guided game, in the reader's language (the gettext catalogues,
docs/i18n.md).

Tile names are :class:`~tendays.engine.Term` values: ``{tile}`` as printed, ``{tile:the}`` with its
article.
"""

from __future__ import annotations

from tendays.engine import Edition, Move, MoveKind, Role, State
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .script import Topic

__all__ = ["bot_name", "instruction", "topic_text"]


def bot_name(seat: int) -> str:
    """A gentle bot's name at the lesson's table."""
    return _("Bot {number}").format(number=seat + 1)


def topic_text(topic: Topic, state: State, move: Move | None, link: str) -> str:
    """The explanation of a rule, given the state before ``move`` and the
    sentence of the link it is about."""
    edition = state.edition
    words = edition.words()
    nouns = words.region_nouns(2)
    days = state.options.days
    bots = state.options.players - 1
    pile = move.a if move is not None else 0
    # TRANSLATORS: the guided first game explains each rule the first time it matters. {nouns} is
    # the edition's word for regions in the plural ("states", "Regionen"); {link} is a sentence
    # about one step of the journey ("Ohio borders Indiana", "the pink
    # airplane joins Texas and Utah").
    texts = {
        Topic.DRAFT: ngettext(
            "Welcome! You play against {count} gentle bot. Your goal is a journey of {days} days "
            "on your rack: day 1 to day {days}, each day leading to the next. First the racks are "
            "filled: in turn, each player gets a tile and puts it on an empty day. A placed tile "
            "stays on its day; later it can only be replaced.",
            "Welcome! You play against {count} gentle bots. Your goal is a journey of {days} days "
            "on your rack: day 1 to day {days}, each day leading to the next. First the racks are "
            "filled: in turn, each player gets a tile and puts it on an empty day. A placed tile "
            "stays on its day; later it can only be replaced.",
            bots,
        ).format(count=bots, days=days),
        Topic.NEIGHBOURS: _(
            "Two {nouns} side by side on your rack must share a border: you walk from one to the "
            "next. Here: {link}."
        ).format(nouns=nouns, link=link),
        Topic.LINK: _link_rule(_kind(edition, Role.LINK)).format(
            nouns=nouns, noun=words.region_noun, link=link
        ),
        Topic.SKIP: _skip_rule(_kind(edition, Role.SKIP)).format(noun=words.region_noun, link=link),
        Topic.TURN: _(
            "The racks are full and the game begins. Each turn you take one tile, then put it on a "
            "day of your rack or discard it."
        ),
        Topic.DRAW: _(
            "The draw pile is face down: you take its top tile without knowing it, and only you "
            "see it."
        ),
        Topic.TAKE: _(
            "The top tiles of the discard piles lie open. Take one when it fits your journey; "
            "everybody sees what you took."
        ),
        Topic.REPLACE: _(
            "To use the tile you hold, put it on a day: the tile there goes face up onto a discard "
            "pile of your choice."
        ),
        Topic.DISCARD: _(
            "A tile that does not help you goes straight onto a discard pile; your rack stays as "
            "it is."
        ),
        Topic.EMPTIED_PILE: _(
            "This is the last tile of discard pile {pile}. Whoever empties a discard pile must "
            "discard onto that same pile, so there are always three discard piles."
        ).format(pile=pile),
        Topic.RESHUFFLE: _(
            "When the last tile of the draw pile is drawn, all tiles of the discard piles except "
            "the top tile of each are shuffled into a new draw pile."
        ),
        Topic.WIN: _(
            "A complete journey wins at once: at the end of each turn the game checks the rack, "
            "and after this move every day of yours leads to the next."
        ),
    }
    return texts[topic]


def _kind(edition: Edition, role: Role) -> str:
    """The kind of the edition's tiles of ``role``: ``plane`` or ``train`` (links), ``car`` or
    ``bus`` (skips)."""
    return next(tile.kind for tile in edition.tiles if tile.role is role)


def _link_rule(kind: str) -> str:
    """The rule of a link, naming the edition's own link tile (a whole sentence per kind, so each
    language can inflect it)."""
    if kind == "plane":
        return _(
            "An airplane joins two {nouns} of its colour, however far apart they are; a {noun} of "
            "any colour fits every colour. Here: {link}."
        )
    if kind == "train":
        return _(
            "A train joins two {nouns} of its colour, however far apart they are; a {noun} of any "
            "colour fits every colour. Here: {link}."
        )
    return _(
        "A link tile joins two {nouns} of its colour, however far apart they are; a {noun} of any "
        "colour fits every colour. Here: {link}."
    )


def _skip_rule(kind: str) -> str:
    """The rule of a skip, naming the edition's own skip tile."""
    if kind == "car":
        return _(
            "A car stands for one {noun} that borders both ends, the {noun} you drive through. "
            "Here: {link}."
        )
    if kind == "bus":
        return _(
            "A bus stands for one {noun} that borders both ends, the {noun} you ride through. "
            "Here: {link}."
        )
    return _(
        "A skip tile stands for one {noun} that borders both ends, the {noun} you pass through. "
        "Here: {link}."
    )


def instruction(edition: Edition, state: State, move: Move) -> str:
    """What to do, in words: the move ``move`` in ``state``."""
    words = edition.words()
    held = words.tile(state.in_hand) if state.in_hand is not None else ""
    kind = move.kind
    # TRANSLATORS: the guided first game's instructions. Keep "day {day}" and "discard pile {pile}"
    # together with their numbers: a reader (and the tests) follows them word by word.
    if kind is MoveKind.DRAFT:
        return _("Put {tile:the} on day {day}.").format(tile=held, day=move.a)
    if kind is MoveKind.DRAW:
        return _("Draw a tile from the draw pile.")
    if kind is MoveKind.TAKE:
        top = words.tile(state.piles[move.a - 1][-1])
        return _("Take {tile:the} from discard pile {pile}.").format(tile=top, pile=move.a)
    if kind is MoveKind.REPLACE:
        old = state.racks[state.current][move.a - 1]
        assert old is not None  # a full rack: replacing comes after the draft
        return _("Put {tile:the} on day {day}, and {old:the} onto discard pile {pile}.").format(
            tile=held, day=move.a, old=words.tile(old), pile=move.b
        )
    return _("Discard {tile:the} onto discard pile {pile}.").format(tile=held, pile=move.a)
