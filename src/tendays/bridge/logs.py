"""The bridge's log: one line per event, to standard error and to ``--log-file``, never holding
the token (a filter puts :func:`~tendays.bridge.site.token_label` in its place should any text
carry it)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TextIO

from .site import token_label

__all__ = ["close_log", "open_log"]

LINE_FORMAT = "%(asctime)s %(message)s"


class _Redact(logging.Filter):
    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token
        self._label = token_label(token)

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if self._token and self._token in text:
            record.msg, record.args = text.replace(self._token, self._label), None
        return True


def open_log(token: str, log_file: Path | None, stream: TextIO | None = None) -> logging.Logger:
    """A logger of its own (not the root's, so no library writes through it) to ``stream``
    (standard error by default) and ``log_file`` (appended to)."""
    logger = logging.Logger("tendays.bridge", logging.INFO)
    formatter = logging.Formatter(LINE_FORMAT)
    handlers: list[logging.Handler] = [logging.StreamHandler(stream or sys.stderr)]
    if log_file is not None:
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(formatter)
        handler.addFilter(_Redact(token))
        logger.addHandler(handler)
    return logger


def close_log(logger: logging.Logger) -> None:
    for handler in list(logger.handlers):
        handler.close()
        logger.removeHandler(handler)
