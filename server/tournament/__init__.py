"""Tournaments: a pure state machine (:mod:`.state`, :mod:`.entries`) driven by an actor
(:mod:`.actor`); :mod:`.tournaments` schedules and loads them."""
