"""The guided first game: a short game on a fixed deal where each rule is explained the first time
it matters.

A lesson is data (``lessons/<edition>.json``, written by ``tools/make_lessons.py``): the options and
seed of a game the engine deals, every move of it (the newcomer's and the gentle bots'), and the
moments at which a rule first matters (:mod:`tendays.learn.script`). :class:`Tutor` walks a newcomer
through it: what to do now, where on the screen, why, and what is wrong with any other move
(:mod:`tendays.learn.tutor`). The terminal (``tendays learn``) and the browser (``/learn``, served
by ``tendays.server.face.routers.learn``) both read it.
"""

from .script import Lesson, LessonError, Topic, available_lessons, find_moments, load_lesson
from .tutor import Check, Pointer, Step, Tutor

__all__ = [
    "Check",
    "Lesson",
    "LessonError",
    "Pointer",
    "Step",
    "Topic",
    "Tutor",
    "available_lessons",
    "find_moments",
    "load_lesson",
]
