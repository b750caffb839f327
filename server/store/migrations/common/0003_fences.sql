-- Fencing epochs, one row per room or tournament id (the key of its log in room_log).
-- LogStore.fence() increments a key's epoch; an append made with an epoch is written only
-- while that epoch is the current one (on PostgreSQL checked under a share lock on the fence
-- row), so a process that lost ownership cannot write any more.
CREATE TABLE fences (
    id     TEXT PRIMARY KEY NOT NULL,
    epoch  BIGINT NOT NULL
);
