// The server's refusals in the player's words: one sentence per error `code` (see
// client_protocol.md, §7 and the tournament, score sheet, club evening and club codes), in the
// page's language.
//
// The server's own `message` is English for developers; it is shown only for a code this
// table does not know, and, in English, for the codes whose message says more than a
// sentence can (which rule a nickname breaks, which number of a deal is wrong, ...).

import { currentLanguage, strings } from './i18n.js';

const TEXT = strings('errors', {
  unknown: 'Something went wrong.', // a refusal without a code or a message
  // the connection and the session
  binary_frame: 'The server could not read that message.',
  frame_too_large: 'That message is too long.',
  bad_json: 'The server could not read that message.',
  bad_message: 'The server could not read that message.',
  unknown_type: 'The server does not know that request: reload the page.',
  invalid_field: 'The server refused that request: something in it is not right.',
  rate_limited: 'Too many messages at once: slow down.',
  chat_rate_limited: 'You are chatting too fast: wait a moment.',
  hello_first: 'Not signed in yet: wait a moment and try again.',
  too_many_attempts: 'Too many wrong codes: wait a minute and try again.',
  already_identified: 'You are signed in already.',
  bad_token: 'This browser’s saved player is unknown to the server: choose a nickname.',
  bad_nickname: 'A nickname has 2 to 24 characters: letters, digits and _ \' . -, with at least one letter.',
  bad_name: 'That name cannot be used: choose another one.', // a table's, a team's or a player's name
  empty_chat: 'There is nothing to send.', // a chat line with nothing to read in it
  nickname_taken: 'That nickname is another player’s: choose another one.',
  storage_unavailable: 'The server could not save that just now: try again.',
  room_unavailable: 'The table is moving to another server: try again in a moment.',
  bots_busy: 'The CPU players are busy solving other games: try again in a moment.',
  // tables
  no_such_room: 'That table is no longer there.',
  invite_required: 'This table is private: join it with its invite code.',
  solo_game: 'That is another player’s game against CPUs: only they can play or watch it.',
  bad_invite: 'No table has that invite code.',
  not_a_member: 'You are not at that table.',
  room_closed: 'That table has closed.',
  not_seated: 'You have no seat at that table.',
  not_owner: 'Only the table’s owner can do that.',
  room_started: 'The match has started: the seats are fixed.',
  already_seated: 'You sit there already.',
  seat_taken: 'That seat is taken.',
  seat_empty: 'That seat is empty.',
  cannot_remove_self: 'You cannot remove yourself: leave the table instead.',
  match_running: 'The match is being played: your seat stays yours until it ends.',
  not_playing: 'No match is being played at that table.',
  hints_not_allowed: 'No hints in this match.',
  stale_version: 'It changed since you looked: check it and try again.', // a table or a score sheet
  deal_pause: 'The table is pausing between deals: continue first.',
  no_such_match: 'That match is unknown, or not finished yet.',
  daily_not_over: 'That daily game can be seen once its day’s results are out.',
  rematch_not_allowed: 'No rematch for this match.',
  no_such_deal: 'There is no such deal.',
  // a move at the table
  not_your_turn: 'It is not your turn.',
  illegal_card: 'You may not play that card now.',
  illegal_action: 'That is not possible now.',
  wrong_phase: 'That is not possible at this point of the deal.',
  card_not_in_hand: 'That card is not in your hand.',
  game_over: 'The match is over.',
  bad_notation: 'That move could not be read.',
  invalid: 'That is not possible.',
  // the daily game, profiles
  daily_played: 'You have played today’s daily game already.',
  daily_not_finished: 'Finish that day’s daily game first to see its board.',
  no_such_day: 'That day has not come yet.',
  no_such_player: 'That player is unknown.',
  // tournaments
  no_such_tournament: 'That tournament is not open any more.',
  already_registered: 'You are registered already.',
  tournament_full: 'The tournament is full.',
  registration_closed: 'Registration is closed.',
  not_registered: 'You are not registered.',
  abandoned: 'You left this tournament: you cannot register again.',
  tournament_not_playing: 'You are not playing in that tournament.', // code not_playing, said to a tournament command
  // the score sheet
  bad_sheet_code: 'No score sheet has that code.',
  read_only: 'This link only shows the sheet: ask the table for its edit link.',
  dealer_unchanged: 'That player deals next already.',
  deals_after_end: 'With that change the game would end before deals that were played after it.',
  empty_game: 'This game has no deals yet.',
  game_ended: 'This game is over: continue it, or start a new game.',
  invalid_deal: 'That deal cannot be: check the points (0 to 162), the roem and the pit.',
  not_over: 'This game is not over yet.',
  nothing_to_undo: 'There is nothing to undo.',
  nothing_to_redo: 'There is nothing to redo.',
  // the club evening
  bad_evening_code: 'No club evening has that code.',
  organisers_only: 'Only the evening’s organisers can do that: this is the players’ link.',
  evening_over: 'All the evening’s rounds are played.',
  name_taken: 'Someone here has that name already: give another one.',
  pair_needs_two: 'A pairs evening checks in pairs of two players; an individual evening, one player at a time.',
  evening_full: 'The evening is full: at most 400 check in.',
  no_such_entrant: 'Nobody of that name checked in.',
  withdrawn: 'That player has left already.',
  round_open: 'Close the round being played before drawing the next.',
  too_few: 'Too few here to draw a table: a table needs four players (two pairs).',
  no_round_open: 'No round is drawn and open.',
  same_entrant: 'Choose two different players to swap.',
  not_in_round: 'That player is not in this round’s draw: a late arrival plays from the next round.',
  table_started: 'That table has entered a deal: its players cannot be swapped any more.',
  round_started: 'A table has entered a deal: close the round instead of undoing the draw.',
  no_such_round: 'That round has not been drawn.',
  not_at_a_table: 'That player sat that round out: no penalty there.',
  pairs_have_none: 'A pairs evening has no personal penalties.',
  // clubs and seasons
  bad_club_code: 'No club has that code (an organiser’s link that was revoked opens nothing).',
  no_such_member: 'The club has no such member (removed already?).',
  no_such_organiser: 'The club has no such organiser (revoked already?).',
  founder_stays: 'The club’s founder cannot be revoked.',
  bad_season_rule: 'Those choices of the season’s rule do not go together: check them.',
  club_full: 'The club is full: at most 20 organisers, 300 members and 200 evenings.',
  not_a_club_evening: 'This evening belongs to no club: check players in by name.',
  club_organisers_only: 'Only the club’s organisers can do that: this is the public link.', // code organisers_only, said to a club's command
  club_name_taken: 'A member has that name already: give another one.', // code name_taken, said to a club's command
});

// Codes whose English message names the very rule or number at fault.
const SPECIFIC = new Set([
  'invalid_field', 'bad_nickname', 'bad_name', 'too_many_attempts', 'no_such_deal', 'invalid_deal',
  'deals_after_end', 'name_taken', 'withdrawn', 'not_in_round', 'table_started', 'not_at_a_table',
  'bad_season_rule', 'club_name_taken',
]);

// The codes said in a club's own words when they refuse a club's command (or an evening
// made for a club).
const CLUB_WORDS = new Set(['organisers_only', 'name_taken']);

// The table's key for `code`, refusing `sent`.
function keyOf(code, sent) {
  const type = sent?.type ?? '';
  if (code === 'not_playing' && type.startsWith('tournament_')) return 'tournament_not_playing';
  const club = type.startsWith('club_') || (type === 'evening_create' && sent.club);
  return club && CLUB_WORDS.has(code) ? `club_${code}` : code;
}

// The server's English message as a sentence: a capital, a full stop.
function sentence(message) {
  const text = String(message).trim();
  const whole = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(whole) ? whole : `${whole}.`;
}

/** The sentence to show for an `error` frame (`sent`: the message it refuses, if known). */
export function errorText(error, sent = null) {
  const code = error?.code;
  const key = keyOf(code, sent);
  const known = typeof key === 'string' && Object.hasOwn(TEXT, key);
  const message = typeof error?.message === 'string' && error.message.trim() ? error.message : null;
  if (message && (!known || (SPECIFIC.has(key) && currentLanguage() === 'en'))) return sentence(message);
  return known ? TEXT[key] : TEXT.unknown;
}
