"""What players type that others read (names, chat), normalised and checked in one place.

Text is normalised to NFC and its runs of white space to single spaces.  Characters that do
not show, or that change how the others show, are never passed on: control characters
(NUL and the like), format characters (the bidirectional controls such as U+202E, the
zero-width ones), private-use and unassigned code points.  A name holding one is refused
(one name could pose as another); chat has them removed.
"""

from __future__ import annotations

import unicodedata

from .errors import Refused

HIDDEN = frozenset({"Cc", "Cf", "Co", "Cn"})  # control, format, private use, unassigned


def normalized(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def hidden(text: str) -> bool:
    """Whether ``text`` holds a character that does not show (see the module docstring)."""
    return any(unicodedata.category(c) in HIDDEN for c in text)


def check_name(text: str, what: str, most: int, code: str = "bad_name") -> str:
    """``text`` as a name (``what`` says whose, in a refusal), or refused with ``code``."""
    name = normalized(text)
    if not 1 <= len(name) <= most:
        raise Refused(code, f"{what} has 1 to {most} characters")
    if hidden(name):
        raise Refused(code, f"{what} may not hold control or invisible characters")
    return name


def clean_chat(text: str) -> str:
    """A chat line as the others read it: normalised, its hidden characters removed;
    refused (``empty_chat``) if nothing is left to read."""
    line = normalized("".join(c for c in text if unicodedata.category(c) not in HIDDEN))
    if not line:
        raise Refused("empty_chat", "a chat line needs something to read")
    return line
