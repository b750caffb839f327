-- Rematches: who accepted one after a finished match, and the room it made (once).
CREATE TABLE rematch_accepts (
    room_id    TEXT NOT NULL,
    player_id  TEXT NOT NULL,
    PRIMARY KEY (room_id, player_id)
);

CREATE TABLE rematches (
    room_id      TEXT PRIMARY KEY NOT NULL,
    new_room_id  TEXT NOT NULL
);
