"""Rooms: a pure state machine (:mod:`.room`, :mod:`.entries`) driven by an actor
(:mod:`.actor`); :mod:`.rooms` makes and loads them."""
