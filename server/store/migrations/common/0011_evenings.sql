-- Club evenings: a hall of real tables playing rounds (server/club).  An evening's log is
-- kept in room_log under its id, like a room's and a sheet's; this row finds it by either
-- of its two secret codes: the organiser code (check-in, draws, closing rounds) and the
-- view code (the wall screen, the players, anyone watching).
CREATE TABLE evenings (
    id              TEXT PRIMARY KEY NOT NULL,
    organiser_code  TEXT NOT NULL UNIQUE,
    view_code       TEXT NOT NULL UNIQUE,
    created_at      DOUBLE PRECISION NOT NULL
);
