-- Initial schema: the PostgreSQL copy of sqlite/0001_init.sql (BLOB -> BYTEA; log versions
-- are BIGINT).  JSON is stored as TEXT so entries come back byte for byte as written.

CREATE TABLE players (
    id          TEXT PRIMARY KEY NOT NULL,
    nickname    TEXT NOT NULL,
    token_hash  BYTEA NOT NULL UNIQUE,
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE rooms (
    id           TEXT PRIMARY KEY NOT NULL,
    owner        TEXT NOT NULL,
    invite_code  TEXT UNIQUE,  -- NULL for public rooms
    status       TEXT NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL
);

CREATE INDEX rooms_status ON rooms (status);

-- Each room's durable log: versions 1, 2, 3, ...; entry is compact JSON text.
CREATE TABLE room_log (
    room_id  TEXT NOT NULL,
    version  BIGINT NOT NULL,
    entry    TEXT NOT NULL,
    PRIMARY KEY (room_id, version)
);

-- Finished match records; record is JSON text.
CREATE TABLE matches (
    id          TEXT PRIMARY KEY NOT NULL,
    room_id     TEXT NOT NULL,
    record      TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE INDEX matches_room ON matches (room_id);
