"""The daily game: one game a UTC day, the same deals and CPUs for everyone, and its boards."""

from .requests import handlers, routes
from .service import ALLTIME_MIN_DAYS, Daily

__all__ = ["ALLTIME_MIN_DAYS", "Daily", "handlers", "routes"]
