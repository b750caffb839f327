-- Clubs: their members, organisers, evenings and season (server/club).  A club's log is
-- kept in room_log under its id, like an evening's; this row finds it by the founding
-- organiser's code or the view code, and club_codes by a co-organiser's code (a revoked
-- one's row is deleted: it opens nothing).
CREATE TABLE clubs (
    id              TEXT PRIMARY KEY NOT NULL,
    organiser_code  TEXT NOT NULL UNIQUE,
    view_code       TEXT NOT NULL UNIQUE,
    created_at      DOUBLE PRECISION NOT NULL
);

CREATE TABLE club_codes (
    code            TEXT PRIMARY KEY NOT NULL,
    club_id         TEXT NOT NULL
);
