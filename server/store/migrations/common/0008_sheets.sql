-- Score sheets for games played with real cards.  A sheet's log is kept in room_log under
-- its id, like a room's; this row finds it by either of its two secret codes: the edit
-- code (the people at the table) and the view code (onlookers).
CREATE TABLE sheets (
    id          TEXT PRIMARY KEY NOT NULL,
    edit_code   TEXT NOT NULL UNIQUE,
    view_code   TEXT NOT NULL UNIQUE,
    created_at  DOUBLE PRECISION NOT NULL
);
