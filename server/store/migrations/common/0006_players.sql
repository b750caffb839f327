-- Profiles and ratings.  Every finished match with a human starter is recorded once
-- (`recorded_matches`, written in the same transaction as everything below).
CREATE TABLE recorded_matches (
    match_id  TEXT PRIMARY KEY NOT NULL,
    at        DOUBLE PRECISION NOT NULL
);

-- Each rated player's belief (mu, sigma), rated matches, and mu - 3 sigma.
CREATE TABLE ratings (
    player_id     TEXT PRIMARY KEY NOT NULL,
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    matches       INTEGER NOT NULL,
    conservative  DOUBLE PRECISION NOT NULL
);

-- The rating board lists players with at least 10 rated matches (server.store.players
-- BOARD_MIN_MATCHES; its queries repeat this WHERE so that they read this index).
CREATE INDEX ratings_board ON ratings (conservative DESC, player_id) WHERE matches >= 10;

-- How many players the board lists: one row, counted up as a player reaches 10.
CREATE TABLE rating_board (
    id       INTEGER PRIMARY KEY NOT NULL,
    players  INTEGER NOT NULL
);

INSERT INTO rating_board (id, players) VALUES (1, 0);

-- A player's rating after each rated match.
CREATE TABLE rating_history (
    player_id     TEXT NOT NULL,
    at            DOUBLE PRECISION NOT NULL,
    match_id      TEXT NOT NULL,
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    conservative  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, at, match_id)
);

-- A player's counters over every finished match.
CREATE TABLE player_stats (
    player_id  TEXT PRIMARY KEY NOT NULL,
    matches    INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    deals      INTEGER NOT NULL,
    points     BIGINT NOT NULL,
    chooser    INTEGER NOT NULL,
    nat        INTEGER NOT NULL,
    pits       INTEGER NOT NULL,
    roem       BIGINT NOT NULL
);

-- A player's matches, the latest first.
CREATE TABLE player_matches (
    player_id      TEXT NOT NULL,
    match_id       TEXT NOT NULL,
    at             DOUBLE PRECISION NOT NULL,
    mode           TEXT NOT NULL,
    tournament     TEXT,
    day            TEXT,
    rated          INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    won            INTEGER NOT NULL,
    abandoned      INTEGER NOT NULL,
    score_us       INTEGER NOT NULL,
    score_them     INTEGER NOT NULL,
    rating_change  DOUBLE PRECISION,
    PRIMARY KEY (player_id, match_id)
);

CREATE INDEX player_matches_recent ON player_matches (player_id, at DESC, match_id DESC);

-- A player's places in finished tournaments.
CREATE TABLE player_places (
    player_id      TEXT NOT NULL,
    tournament_id  TEXT NOT NULL,
    place          INTEGER NOT NULL,
    prize          TEXT,
    at             DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, tournament_id)
);

CREATE INDEX player_places_recent ON player_places (player_id, at DESC, tournament_id DESC);
