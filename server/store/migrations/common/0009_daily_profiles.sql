-- A daily game's part of its player's profile counters, beside its history line: until
-- its day's results are revealed, others see the profile without it (server/players).
-- One daily game per player and day; a profile reads the days not yet revealed along the
-- key.
CREATE TABLE player_daily (
    player_id  TEXT NOT NULL,
    day        TEXT NOT NULL,
    match_id   TEXT NOT NULL,
    won        INTEGER NOT NULL,
    deals      INTEGER NOT NULL,
    points     BIGINT NOT NULL,
    chooser    INTEGER NOT NULL,
    nat        INTEGER NOT NULL,
    pits       INTEGER NOT NULL,
    roem       BIGINT NOT NULL,
    PRIMARY KEY (player_id, day)
);
