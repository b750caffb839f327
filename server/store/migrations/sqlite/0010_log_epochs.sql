-- The fencing epoch an entry was appended with (NULL: appended without one, or before this
-- column).  Epochs never decrease along a key's versions: the durable proof that no writer
-- that had lost the key wrote after its successor (tests and audits read it).
ALTER TABLE room_log ADD COLUMN epoch INTEGER;
