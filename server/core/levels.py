"""CPU players' levels and names: the one list the protocol, the rooms, the catalog and
the web client (through ``GET /rules``) take them from.

A level names an engine policy (:func:`engine.policies.policy`).  ``strong`` is the default
for a CPU added to a room, and plays every seat the server takes over: tournament places,
a player who abandoned, a seat whose time ran out or whose player is away.
"""

from __future__ import annotations

RANDOM, HEURISTIC, STRONG = "random", "heuristic", "strong"
LEVELS = (RANDOM, HEURISTIC, STRONG)  # weakest first
DEFAULT_LEVEL = STRONG  # ``add_cpu`` without a level
TAKEOVER_LEVEL = STRONG  # tournaments, abandoned seats, timeouts, away seats
LEGACY_LEVEL = HEURISTIC  # a CPU seated before levels existed played this

# CPU first names: a room gives its seats four consecutive ones from an offset its seed
# picks, so the names differ per seat, stay the same on every replay, and vary by room.
NAMES = (
    "Anna", "Bram", "Carla", "Daan", "Eva", "Floor", "Gijs", "Hanna", "Ilse", "Joost",
    "Kees", "Lotte", "Maarten", "Noor", "Otto", "Pien", "Ruben", "Sanne", "Thijs", "Vera",
)  # fmt: skip


def cpu_name(seed: int, seat: int, level: str) -> str:
    """The nickname of the CPU in ``seat`` of the room with ``seed``: "Anna (CPU, strong)"."""
    return numbered_cpu(seed + seat, level)


def numbered_cpu(number: int, level: str = TAKEOVER_LEVEL) -> str:
    """The nickname of a CPU known by a number (a tournament's ``number``-th CPU entrant)."""
    return f"{NAMES[number % len(NAMES)]} (CPU, {level})"


def bare_cpu_name(nickname: str) -> str:
    """A CPU's name without its "(CPU, <level>)": "Anna" of "Anna (CPU, strong)" (a client
    says the rest in its own language)."""
    return nickname.split(" (CPU, ", 1)[0]
