-- The daily game.  Days are UTC dates written YYYY-MM-DD.  Server-wide secrets (the daily
-- seed's key) live in `secrets`, so every node of a cluster and every restart share them.
CREATE TABLE secrets (
    name   TEXT PRIMARY KEY NOT NULL,
    value  TEXT NOT NULL
);

-- One attempt per player and day: its room, and once finished its team's total.
CREATE TABLE daily_attempts (
    day          TEXT NOT NULL,
    player_id    TEXT NOT NULL,
    room_id      TEXT NOT NULL,
    started_at   DOUBLE PRECISION NOT NULL,
    total        INTEGER,
    finished_at  DOUBLE PRECISION,
    PRIMARY KEY (day, player_id)
);

-- A day's board (finished attempts, best first) and a player's days (streaks).
CREATE INDEX daily_attempts_board ON daily_attempts (day, total DESC, finished_at, player_id)
    WHERE total IS NOT NULL;
CREATE INDEX daily_attempts_player ON daily_attempts (player_id, day)
    WHERE total IS NOT NULL;

-- A finished attempt's points, deal by deal.
CREATE TABLE daily_deals (
    day        TEXT NOT NULL,
    player_id  TEXT NOT NULL,
    number     INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    PRIMARY KEY (day, player_id, number)
);

-- The field: for each deal of a day, how many finished it and their points in all.
CREATE TABLE daily_field (
    day      TEXT NOT NULL,
    number   INTEGER NOT NULL,
    players  INTEGER NOT NULL,
    points   BIGINT NOT NULL,
    PRIMARY KEY (day, number)
);

-- Days with an attempt; `closed` once a past day is added to the all-time board.
CREATE TABLE daily_days (
    day     TEXT PRIMARY KEY NOT NULL,
    closed  INTEGER NOT NULL
);

CREATE INDEX daily_days_open ON daily_days (closed, day);

-- The all-time board: each player's closed days and the sum of their differences.
CREATE TABLE daily_alltime (
    player_id  TEXT PRIMARY KEY NOT NULL,
    days       INTEGER NOT NULL,
    diff_sum   DOUBLE PRECISION NOT NULL,
    average    DOUBLE PRECISION NOT NULL
);

CREATE INDEX daily_alltime_average ON daily_alltime (average DESC, player_id);
CREATE INDEX daily_alltime_days ON daily_alltime (days);
