"""tendays: the 10 Days travel games (10 Days in the USA, 10 Tage durch Deutschland) in Python."""

__version__ = "0.1.0"
