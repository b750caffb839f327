-- A nickname a player has chosen (set_nickname) is theirs alone: its key (the nickname
-- case-folded) is unique.  Guests' nicknames from hello have no key.
ALTER TABLE players ADD COLUMN nickname_key TEXT;

CREATE UNIQUE INDEX players_nickname_key ON players (nickname_key);
