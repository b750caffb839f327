-- Tournaments.  A tournament's durable log lives in room_log under its own id ("t_...").
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY NOT NULL,
    format      TEXT NOT NULL,
    status      TEXT NOT NULL,
    start_at    DOUBLE PRECISION NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE INDEX tournaments_status ON tournaments (status);
