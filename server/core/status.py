"""The statuses of a room and of a tournament: values their features share with the parts
that list, route and adopt them (the lobby, the cluster), which sit below or beside them."""

OPEN, PLAYING, FINISHED, CLOSED = "open", "playing", "finished", "closed"  # a room
LIVE_ROOM = frozenset({OPEN, PLAYING})  # a room that still has something to do

SCHEDULED, RUNNING, CANCELLED = "scheduled", "running", "cancelled"  # a tournament (or finished)
LIVE_TOURNAMENT = frozenset({SCHEDULED, RUNNING})  # a tournament with something to do
