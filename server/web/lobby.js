// The lobby: public rooms, tournaments, your tables, and the create-room form.

import { $, h, patch, show } from './dom.js';
import { cpuName, prizeName, rematchState, rematchWords, roundName, tournamentInfo } from './state.js';
import { rematchPlayers } from './widgets.js';
import { todayUtc, untilMidnight } from './daily.js';
import { fill, fillParts, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';
import { rulesCatalog } from './catalog.js';

// The rule options, presets and limits are the server's (GET /rules): the form offers
// what the server accepts, and only the words for each value live here (the server sends
// keys; a key with no words here shows as the server sent it).
const RULE_FIELDS = ['variant', 'trump_mode', 'roem', 'pit_bonus'];
// The create-room and New game forms' choices: `<field>_<key>` (the catalog's keys).
const OPTIONS = strings('lobby.options', {
  preset_amsterdam: 'Amsterdam', // a rule preset: the rules as played in Amsterdam
  preset_rotterdam: 'Rotterdam', // a rule preset: the rules as played in Rotterdam
  preset_tournament: 'Tournament', // a rule preset: tournament rules
  preset_custom: 'Custom', // the preset select when the rules are no preset's
  variant_amsterdam: 'Unless your partner is winning', // must you trump? (Amsterdam)
  variant_rotterdam: 'Always, even over your partner', // must you trump? (Rotterdam)
  trump_mode_bidding: 'Bidding: pass or name a suit', // how trump is chosen
  trump_mode_dealer: 'The dealer names it', // how trump is chosen
  trump_mode_forced: 'The first player names it', // how trump is chosen
  trump_mode_turned: 'A turned-up card', // how trump is chosen
  roem_auto: 'Counted automatically', // how roem (melds) is scored
  roem_claim: 'Claimed by the winner', // how roem (melds) is scored
  pit_bonus_any: 'For either team', // who gets the pit (all tricks) bonus
  pit_bonus_playing: 'Only the playing team', // who gets the pit (all tricks) bonus
  level_random: 'Random', // a CPU level (the choice list, New game's summary)
  level_heuristic: 'Easy', // a CPU level
  level_strong: 'Strong', // a CPU level
  end_deals: 'Deals', // the match length field's label: a number of deals
  end_points: 'Points', // the match length field's label: points to reach
});
// An option's words: `field`'s value `key`, or the key itself when we have none.
export const optionWord = (field, key) => OPTIONS[`${field}_${key}`] ?? key;

// The rules in a line (the lobby's rooms, the table, the invite, a tournament's tables),
// and New game's choice in words beside its button.
const RULES = strings('lobby.rules', {
  amsterdam: 'Amsterdam', // the variant, in a room's rules line
  rotterdam: 'Rotterdam',
  trump_bidding: 'bidding', // how trump is chosen, in a room's rules line
  trump_dealer: 'dealer names trump',
  trump_forced: 'forced trump',
  trump_turned: 'turned card',
  roem_claim: 'roem claimed',
  roem_auto: 'roem counted',
  pit_playing: 'pit bonus for the players',
  pit_any: 'pit bonus for all',
  deals: { one: '{n} deal', other: '{n} deals' },
  target: 'to {n}', // the match ends at this many points
  moveSeconds: '{n} s a move', // the move timer
  summary: '{level} CPUs · {rules} · {length}', // New game's choice: "Strong CPUs · Amsterdam · 16 deals"
  custom: '{variant}, own rules', // New game's choice when the rules are no preset's
  targetPoints: 'to {n} points', // New game's choice: the match ends at this many points
  soloName: '{nickname}\'s game', // the name of a solo game's table
  unnamedTable: '{nickname}\'s table', // the name of a table its owner did not name
  dailyName: 'Daily game {day}', // the name of a daily game's table (day: YYYY-MM-DD)
  tableName: '{format}, round {round}, table {table}', // a tournament table: "Quick tournament, round 1, table 2"
});
// The preset select's own value when the rules are no preset's.
const CUSTOM = 'custom';
// Tournaments, as the lobby and the tournament view say them.
const TOURNAMENT_WORDS = strings('lobby.tournaments', {
  format_quick: 'Quick tournament',
  format_classic: 'Classic tournament',
  formatOther: '{format} tournament', // a format we have no words for (format: its key)
  titleAt: '{format} · {time}', // a tournament's name: "Quick tournament · 14:00" (its start)
  titleWhenFull: '{format} · when full', // the name of one that starts once 8 have registered
  titleFullAt: '{format} · full at {time}', // ... once it has started: "Quick tournament · full at 13:47"
  whenFull: 'starts when full',
  unannounced: 'start time to be announced',
  startsAt: 'starts {when}', // when: a date and time
  startsIn: 'in {left}', // left: a time left, "4 min 12 s"
  startsWhen: '{start}, {left}', // "starts Mon 3 Jun 20:00, in 4 min 12 s"
  starting: 'starting now…',
  hours: '{h} h {m} min', // a time left
  minutes: '{m} min {s} s', // a time left
  seconds: '{s} s', // a time left
  players: '{size} players',
  registered: '{count} of {size} registered',
  fill: 'CPUs fill empty places',
  repeat_hourly: 'every hour', // a repeating tournament
  repeat_daily: 'every day',
  status_scheduled: 'Open for registration', // a tournament's status chip
  status_running: 'Running',
  status_finished: 'Finished',
  status_cancelled: 'Cancelled',
  playing: '{round} being played', // round: "Round 1", "Final"
  pair: '{a} & {b}', // a team of two
  list: '{a}, {b}', // names in a list (more than two)
  podium: '{place}: {names}', // "1st: ann & bob"
  places: 'Final places',
  register: 'Register',
  unregister: 'Unregister',
  registeredChip: 'registered', // a chip: you are registered
  readyNow: 'your table is ready',
  view: 'View', // a button: open the tournament's page
  open: 'Open (you are playing)',
  place_1: '1st', // a final place
  place_2: '2nd',
  place_3: '3rd',
  place_4: '4th',
  place_5: '5th',
  placeOther: '#{n}', // a final place past the 5th
});
export const placeName = (place) => TOURNAMENT_WORDS[`place_${place}`] ?? fill(TOURNAMENT_WORDS.placeOther, { n: place });
// A select's options: the catalog's keys, in words (`field`: whose words, lobby.options).
function fillSelect(select, values, field) {
  select.replaceChildren(...values.map((v) => h('option', { value: v }, optionWord(field, v))));
}

// The create-room form's choices and limits, from the catalog.
export function buildForm(form) {
  const catalog = rulesCatalog();
  const f = form.elements;
  fillSelect(f.preset, [...Object.keys(catalog.presets), CUSTOM], 'preset');
  for (const field of RULE_FIELDS) {
    fillSelect(f[field], catalog.options[field].values, field);
    f[field].value = catalog.options[field].default;
  }
  const seconds = catalog.room.move_seconds;
  f.move_seconds.min = String(seconds.min);
  f.move_seconds.max = String(seconds.max);
  f.move_seconds.value = String(seconds.default);
  f.name.maxLength = catalog.room.name_length;
}

// The New score sheet form's choices and limits, from the catalog.
export function buildSheetForm(form) {
  const catalog = rulesCatalog();
  const f = form.elements;
  fillSelect(f.pit_bonus, catalog.options.pit_bonus.values, 'pit_bonus');
  f.pit_bonus.value = catalog.options.pit_bonus.default;
  for (const name of ['team0', 'team1', 'p0', 'p1', 'p2', 'p3']) f[name].maxLength = catalog.sheet.name_length;
  setEndLimits(form);
}

// The level choice for the CPUs an owner adds to a table, from the catalog.
export function buildCpuLevels(select) {
  const catalog = rulesCatalog();
  fillSelect(select, catalog.cpu.levels, 'level');
  select.value = catalog.cpu.default;
}

const STORE_KEY = 'klaverjas.create-room';

// A room's rules in a line: "Amsterdam · bidding · roem counted · pit bonus for all · 16 deals".
export function rulesText(rules, moveSeconds = null) {
  if (!rules) return '';
  const parts = [
    rules.variant === 'rotterdam' ? RULES.rotterdam : RULES.amsterdam,
    RULES[`trump_${rules.trump_mode}`] ?? rules.trump_mode,
    rules.roem === 'claim' ? RULES.roem_claim : RULES.roem_auto,
    rules.pit_bonus === 'playing' ? RULES.pit_playing : RULES.pit_any,
    rules.end === 'deals' ? plural(RULES.deals, rules.end_value) : fill(RULES.target, { n: rules.end_value }),
  ];
  if (moveSeconds) parts.push(fill(RULES.moveSeconds, { n: moveSeconds }));
  return parts.join(' · ');
}

// A tournament table's name: "Quick tournament, round 1, table 2" (`round`, `table` from 1).
export const tableTitle = (format, round, table) => fill(RULES.tableName, {
  format: formatName({ format }), round, table,
});

// A room's name as this page says it: a tournament table's (its tournament named apart from
// any other: "Quick tournament · 14:00, round 1, table 2"), a solo or daily game's from
// their parts (`tournaments`: the tournament summaries known), else the name it was given.
export function roomTitle(room, tournaments = []) {
  if (!room) return '';
  if (room.tournament) {
    for (const t of tournaments) {
      if (t?.id !== room.tournament) continue;
      for (const [r, tables] of (t.rounds ?? []).entries()) {
        const at = tables.findIndex((table) => table.room_id === room.id);
        if (at >= 0) return fill(RULES.tableName, { format: tournamentTitle(t), round: r + 1, table: at + 1 });
      }
    }
  }
  if (room.mode === 'solo' && room.owner_nickname) return fill(RULES.soloName, { nickname: room.owner_nickname });
  if (room.mode === 'daily' && room.day) return fill(RULES.dailyName, { day: room.day });
  if (room.owner_nickname && room.name === `${room.owner_nickname}'s table`) {
    return fill(RULES.unnamedTable, { nickname: room.owner_nickname }); // the server's default name
  }
  return room.name;
}

// When a tournament starts, in the player's own time zone, the zone said:
// "starts Sat 5 Dec, 14:00 CET".
export function startText(t) {
  const T = TOURNAMENT_WORDS;
  if (t.start_when_full) return T.whenFull;
  if (!t.start_at) return T.unannounced;
  const when = new Date(t.start_at * 1000).toLocaleString(currentLanguage(), {
    weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  });
  return fill(T.startsAt, { when });
}

// A moment (epoch seconds) as a tournament's name says it, in the player's time zone: the
// time on the day it is `now`, else the weekday and time ("Sat 14:00").
function nameTime(at, now) {
  const when = new Date(at * 1000);
  const sameDay = when.toDateString() === new Date(now * 1000).toDateString();
  return when.toLocaleString(currentLanguage(), {
    ...(sameDay ? {} : { weekday: 'short' }), hour: '2-digit', minute: '2-digit',
  });
}

// A tournament's name, which tells it apart from the others listed: its format and its
// start ("Quick tournament · 14:00"), or, for one that starts when full, that, and once it
// has started, when it did.
export function tournamentTitle(t, now = Date.now() / 1000) {
  const T = TOURNAMENT_WORDS;
  const format = formatName(t);
  if (t.start_when_full) {
    return t.started_at ? fill(T.titleFullAt, { format, time: nameTime(t.started_at, now) }) : fill(T.titleWhenFull, { format });
  }
  return t.start_at ? fill(T.titleAt, { format, time: nameTime(t.start_at, now) }) : format;
}

// The time left until `at` (epoch seconds) in words: "4 min 12 s", "2 h 5 min".
export function timeLeft(at, now) {
  const T = TOURNAMENT_WORDS;
  const left = Math.max(0, Math.ceil(at - now));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  if (h) return fill(T.hours, { h, m });
  if (m) return fill(T.minutes, { m, s: left % 60 });
  return fill(T.seconds, { s: left });
}

// The time left before a scheduled tournament starts, live: `.countdown` with the
// seconds left in `data-left` (the page redraws it every second); null when it starts
// when full or has no start time.
export function countdown(t, now) {
  if (t.status !== 'scheduled' || t.start_when_full || !t.start_at) return null;
  const left = Math.max(0, Math.ceil(t.start_at - now));
  return h('span', { class: 'countdown', dataset: { left } },
    left > 0 ? fill(TOURNAMENT_WORDS.startsIn, { left: timeLeft(t.start_at, now) }) : TOURNAMENT_WORDS.starting);
}

// When a tournament starts: the time, and the countdown.
export function startLine(t, now) {
  const left = countdown(t, now);
  if (!left) return h('span', { class: 'start-line' }, startText(t));
  const start = h('time', { datetime: new Date(t.start_at * 1000).toISOString() }, startText(t));
  return h('span', { class: 'start-line' }, fillParts(TOURNAMENT_WORDS.startsWhen, { start, left }));
}

export const formatName = (t) => TOURNAMENT_WORDS[`format_${t.format}`]
  ?? fill(TOURNAMENT_WORDS.formatOther, { format: t.format });
export const tournamentStatus = (status) => TOURNAMENT_WORDS[`status_${status}`] ?? status;

// Names in a list: "ann & bob" for two, "ann, bob, cas" for more.
export function nameList(names) {
  if (names.length === 2) return fill(TOURNAMENT_WORDS.pair, { a: names[0], b: names[1] });
  return names.reduce((list, name) => (list === null ? name : fill(TOURNAMENT_WORDS.list, { a: list, b: name })), null) ?? '';
}

// An entrant of a tournament by name: a player's nickname, a CPU's from its parts
// ("Bram (CPU, strong)"), else `unknown`.
export function entrantText(entrant, unknown = '?') {
  if (entrant?.cpu) return cpuName(entrant);
  return entrant?.nickname ?? unknown;
}

// The entrant `id` of tournament `t` by name.
export function entrantName(t, id) {
  for (const r of t.registered ?? []) if (r.id === id) return entrantText(r, id);
  for (const tables of t.rounds ?? []) {
    for (const table of tables) {
      for (const s of table.seats) if (s.id === id) return entrantText(s, id);
    }
  }
  return id;
}

// The entrants holding each place, a place a line: [{place, prize, names}] (best first).
export function podium(t) {
  const byPlace = new Map();
  for (const p of t.places ?? []) {
    const line = byPlace.get(p.place) ?? { place: p.place, prize: p.prize ?? null, names: [] };
    line.names.push(entrantName(t, p.entrant));
    byPlace.set(p.place, line);
  }
  return [...byPlace.values()].sort((a, b) => a.place - b.place).map((line) => ({
    ...line,
    names: nameList(line.names),
  }));
}

// The lobby's own words.
const TEXT = strings('lobby', {
  status_open: 'Waiting for players', // a room's status chip
  status_playing: 'Playing',
  status_finished: 'Finished',
  status_closed: 'Closed',
  openFree: { one: 'Waiting for players ({n} free)', other: 'Waiting for players ({n} free)' }, // an open room, n free seats
  online: { one: 'player online', other: 'players online' }, // after the number of players online (top bar)
  dailyButton: 'Daily game',
  dailyContinue: 'Continue the daily game',
  dailyPlayed: 'You have played today’s daily game.',
  dailyNext: 'The next one starts at midnight UTC, in {left}.', // left: "3 h 12 min"
  dailyBoard: 'See today’s board',
  cpuTitle: 'A CPU player', // a CPU's seat chip's tooltip
  readyMark: 'ready', // read out beside the ✓ of a player who is ready
  takeSeat: 'Take seat {seat} at {table}',
  sitHere: 'Sit here',
  emptySeat: 'empty', // a seat nobody sits in
  ratedTitle: 'A rated table: a match of four people changes their ratings',
  rated: 'rated', // a chip: a rated table
  seats: 'Seats',
  open: 'Open', // a button: open the table
  goOn: 'Continue', // a button: go back to your own game against CPUs, where you left it
  soloKept: 'Your game goes on where you left it; while you are away, the server plays your card when your time runs out.',
  dailyWaits: 'Your game waits for you until the day’s games close, after midnight (UTC).',
  watch: 'Watch', // a button: watch the table
  watchTable: 'Watch {table}',
  finishedTable: 'A finished table', // a rematch's table whose name we do not know
  rematchOffered: 'Rematch offered',
  rematchWaiting: 'Waiting', // a rematch: waiting for the others
  acceptRematch: 'Accept the rematch',
  matchOver: 'Match over',
  watching: '{status} · watching', // one of your tables that you watch
});
const roomStatus = (status) => TEXT[`status_${status}`] ?? status;

// -- rendering -----------------------------------------------------------------------------

export function renderLobby(app) {
  const { lobby, me } = app;
  $('#online').textContent = lobby.online ?? '–';
  $('#online-label').textContent = plural(TEXT.online, lobby.online ?? 0);

  const rooms = Object.values(lobby.rooms).sort(
    (a, b) => (a.status === 'open' ? 0 : 1) - (b.status === 'open' ? 0 : 1) || a.name.localeCompare(b.name),
  );
  const known = [...Object.values(lobby.tournaments), ...app.tournaments.values()];
  patch($('#rooms'), rooms.map((room) => roomItem(room, me, app, known)));
  show($('#rooms-empty'), lobby.loaded && rooms.length === 0);

  const finished = (t) => (t.status === 'finished' || t.status === 'cancelled' ? 1 : 0);
  const tournaments = Object.values(lobby.tournaments).sort(
    (a, b) => finished(a) - finished(b) || (a.start_at ?? 0) - (b.start_at ?? 0) || a.id.localeCompare(b.id),
  );
  const now = app.now();
  patch($('#tournaments'), tournaments.map((t) => tournamentItem(app.tournaments.get(t.id) ?? t, me, now)));
  show($('#tournaments-empty'), lobby.loaded && tournaments.length === 0);

  // Rematches of tables the page has left: offered to you, or waiting for the others.
  const offers = [...app.rematches.values()].filter((r) => !app.rooms.has(r.roomId)
    && ['offered', 'waiting'].includes(rematchState(r, me)));
  patch($('#rematch-offers'), offers.map((r) => rematchItem(app, r)));
  show($('#rematch-panel'), offers.length > 0);

  const mine = [...app.rooms.values()].filter((m) => m.room && !m.closed);
  patch($('#my-rooms'), mine.map((m) => myRoomItem(m, known)));
  show($('#my-rooms-panel'), mine.length > 0);

  // The daily game: today's attempt under way, or played already (daily_start refused).
  const daily = dailyUnderWay(app);
  const button = $('#daily-button');
  const label = daily ? TEXT.dailyContinue : TEXT.dailyButton;
  if (button.textContent !== label) button.textContent = label;
  const note = $('#daily-note');
  show(note, app.dailyPlayed);
  patch(note, app.dailyPlayed
    ? [h('p', {}, h('strong', {}, TEXT.dailyPlayed), ' ', fill(TEXT.dailyNext, { left: untilMidnight() })),
    h('button', { type: 'button', class: 'small primary', dataset: { openBoards: '' } }, TEXT.dailyBoard)]
    : []);
}

// Whether today's daily game is under way on this page (yesterday's, still open after
// midnight, is among your tables but is not today's).
export function dailyUnderWay(app, today = todayUtc()) {
  return [...app.rooms.values()].some((m) => m.room && !m.closed && m.room.mode === 'daily'
    && !m.result && (m.room.day ?? today) === today);
}

function seatChip(room, seat, index, me, seated, title) {
  if (seat.cpu) {
    return h('span', { class: 'chip cpu', title: TEXT.cpuTitle },
      cpuName(seat));
  }
  if (seat.player_id) {
    return h('span', { class: ['chip', seat.player_id === me && 'you', seat.ready && 'ready'] },
      seat.nickname ?? '?', seat.ready ? h('span', { class: 'tick', 'aria-label': TEXT.readyMark }, ' ✓') : null);
  }
  if (room.status === 'open' && !seated) {
    return h('button', {
      type: 'button', class: 'chip free', dataset: { takeSeat: index },
      'aria-label': fill(TEXT.takeSeat, { seat: index + 1, table: title }),
    }, TEXT.sitHere);
  }
  return h('span', { class: 'chip empty' }, TEXT.emptySeat);
}

function roomItem(room, me, app, known) {
  const title = roomTitle(room, known);
  const seated = room.seats.some((s) => s.player_id && s.player_id === me);
  const free = room.seats.filter((s) => !s.player_id && !s.cpu).length;
  return h('li', { class: 'room-item', dataset: { roomId: room.id, key: room.id, status: room.status } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, title),
      h('span', { class: ['status-chip', room.status] },
        room.status === 'open' ? plural(TEXT.openFree, free) : roomStatus(room.status)),
      room.rated ? h('span', { class: 'chip rated', title: TEXT.ratedTitle }, TEXT.rated) : null),
    h('p', { class: 'muted small' }, rulesText(room.rules, room.move_seconds)),
    h('div', { class: 'seats-line', role: 'group', 'aria-label': TEXT.seats },
      room.seats.map((s, i) => seatChip(room, s, i, me, seated, title))),
    h('div', { class: 'item-actions' },
      seated || app.rooms.has(room.id)
        ? h('button', { type: 'button', class: 'primary small', dataset: { openRoom: room.id } }, TEXT.open)
        : null,
      h('button', {
        type: 'button', class: 'small', dataset: { watch: room.id }, 'aria-label': fill(TEXT.watchTable, { table: title }),
      }, TEXT.watch)));
}

function tournamentItem(t, me, now) {
  const T = TOURNAMENT_WORDS;
  const info = tournamentInfo(t, me);
  const count = (t.registered ?? []).length;
  const meta = [fill(T.players, { size: t.size })];
  if (t.status === 'scheduled') {
    meta.push(startLine(t, now), fill(T.registered, { count, size: t.size }));
    if (t.fill_with_cpu) meta.push(T.fill);
  } else if (t.status === 'running') {
    meta.push(fill(T.playing, { round: roundName(t, t.rounds.length - 1) }));
  }
  if (t.repeat) meta.push(T[`repeat_${t.repeat}`] ?? t.repeat);
  const places = t.status === 'finished' ? podium(t).filter((line) => line.prize) : [];
  return h('li', { class: 'tournament-item', dataset: { tournamentId: t.id, key: t.id, status: t.status } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, tournamentTitle(t, now)),
      h('span', { class: ['status-chip', t.status] }, tournamentStatus(t.status))),
    h('p', { class: 'muted small item-meta' },
      meta.map((part, i) => [i ? h('span', { 'aria-hidden': 'true' }, ' · ') : null, part])),
    places.length
      ? h('ol', { class: 'podium small', 'aria-label': T.places }, places.map((line) => h('li', {
        dataset: { place: line.place },
      }, fill(T.podium, { place: placeName(line.place), names: line.names }), ' ',
      h('span', { class: ['prize', line.prize] }, prizeName(line.prize)))))
      : null,
    h('div', { class: 'item-actions' },
      t.status === 'scheduled' && !info.registered
        ? h('button', { type: 'button', class: 'primary small', dataset: { register: t.id } }, T.register)
        : null,
      t.status === 'scheduled' && info.registered
        ? h('button', { type: 'button', class: 'small', dataset: { unregister: t.id } }, T.unregister)
        : null,
      info.registered && !info.playing && t.status === 'scheduled' ? h('span', { class: 'chip you' }, T.registeredChip) : null,
      info.playing ? h('span', { class: 'chip ready-now' }, T.readyNow) : null,
      h('button', { type: 'button', class: 'small', dataset: { openTournament: t.id } },
        info.playing ? T.open : T.view)));
}

function rematchItem(app, r) {
  const room = app.pastRooms.get(r.roomId) ?? null;
  const offered = rematchState(r, app.me) === 'offered';
  return h('li', { class: 'room-item', dataset: { rematchRoom: r.roomId, key: r.roomId, state: rematchState(r, app.me) } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, room ? roomTitle(room) : TEXT.finishedTable),
      h('span', { class: 'status-chip' }, offered ? TEXT.rematchOffered : TEXT.rematchWaiting)),
    h('p', { class: 'small' }, rematchWords(r, room, app.me)),
    rematchPlayers(r, room, app.me),
    offered
      ? h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary small', dataset: { rematch: r.roomId } }, TEXT.acceptRematch))
      : null);
}

function myRoomItem(m, known) {
  const room = m.room;
  let state = roomStatus(room.status);
  if (m.result) state = TEXT.matchOver;
  else if (m.seat === null) state = fill(TEXT.watching, { status: state });
  // Your own game against CPUs, left for the lobby: it is kept here to go on with.
  const yours = m.seat !== null && !m.result && room.status === 'playing' && (room.mode === 'solo' || room.mode === 'daily');
  return h('li', { class: 'room-item mine', dataset: { key: m.roomId, myRoomId: m.roomId } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, roomTitle(room, known)),
      h('span', { class: ['status-chip', room.status] }, state)),
    yours ? h('p', { class: 'muted small' }, room.mode === 'daily' ? TEXT.dailyWaits : TEXT.soloKept) : null,
    h('div', { class: 'item-actions' },
      h('button', { type: 'button', class: 'primary small', dataset: { openRoom: m.roomId } }, yours ? TEXT.goOn : TEXT.open)));
}

// -- the create-room form ------------------------------------------------------------------

// A preset's rules into the form; `length: false` keeps the form's match length. Custom
// keeps the rules as they are.
export function applyPreset(form, name, { length = true } = {}) {
  const catalog = rulesCatalog();
  if (name === CUSTOM) return;
  const preset = catalog.presets[name] ?? Object.values(catalog.presets)[0];
  for (const field of RULE_FIELDS) form.elements[field].value = preset[field];
  if (!length) return;
  form.elements.end.value = preset.end;
  setEndLimits(form, preset.end_value);
}

// The preset the form's rules are (`length`: the match length counts too), else Custom.
export function presetOf(form, { length = true } = {}) {
  const catalog = rulesCatalog();
  const f = form.elements;
  const fields = length ? [...RULE_FIELDS, 'end'] : RULE_FIELDS;
  const same = (preset) => fields.every((field) => f[field].value === String(preset[field]))
    && (!length || Number(f.end_value.value) === preset.end_value);
  return Object.keys(catalog.presets).find((name) => same(catalog.presets[name])) ?? CUSTOM;
}

// A rule changed by hand: the preset follows (Custom, or the preset the rules now are).
export function wirePreset(form, { length = true } = {}) {
  const f = form.elements;
  const follow = () => {
    if (rulesCatalog()) f.preset.value = presetOf(form, { length });
  };
  const watched = length ? [...RULE_FIELDS, 'end', 'end_value'] : RULE_FIELDS;
  for (const name of watched) {
    f[name].addEventListener(name === 'end_value' ? 'input' : 'change', follow);
  }
  f.preset.addEventListener('change', () => applyPreset(form, f.preset.value, { length }));
}

export function setEndLimits(form, value = null) {
  const end = form.elements.end.value;
  const { min, max, default: fallback } = rulesCatalog().options[end === 'deals' ? 'deals' : 'target'];
  const input = form.elements.end_value;
  input.min = String(min);
  input.max = String(max);
  const current = Number(value ?? input.value);
  input.value = String(value ?? (current >= min && current <= max ? current : fallback));
  const label = form.querySelector(`label[for="${input.id}"]`);
  if (label) label.textContent = end === 'deals' ? OPTIONS.end_deals : OPTIONS.end_points;
}

// The create_room message from the form's values.
export function createMessage(form) {
  const f = form.elements;
  const rules = f.preset.value === CUSTOM ? {} : { preset: f.preset.value };
  for (const field of RULE_FIELDS) rules[field] = f[field].value;
  const value = Math.round(Number(f.end_value.value));
  if (f.end.value === 'deals') rules.deals = value;
  else rules.target = value;
  const message = {
    type: 'create_room',
    rules,
    move_seconds: Math.round(Number(f.move_seconds.value)),
    private: f.private.checked,
    rated: f.rated.checked,
    seat: f.seat.value === 'watch' ? null : Number(f.seat.value),
  };
  const name = f.name.value.trim();
  if (name) message.name = name;
  return message;
}

export function saveForm(form) {
  const f = form.elements;
  const values = { preset: f.preset.value, end: f.end.value, end_value: f.end_value.value,
    move_seconds: f.move_seconds.value, private: f.private.checked, seat: f.seat.value,
    name: f.name.value, rated: f.rated.checked, rated_touched: form.dataset.ratedTouched === 'true' };
  for (const field of RULE_FIELDS) values[field] = f[field].value;
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(values));
  } catch {
    // storage full or blocked: the form just forgets
  }
}

export function loadForm(form) {
  let values = null;
  try {
    values = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
  } catch {
    values = null;
  }
  const f = form.elements;
  if (!values) {
    applyPreset(form, f.preset.value);
    return;
  }
  const set = (name, value) => setValue(f[name], value);
  set('preset', values.preset);
  for (const field of RULE_FIELDS) set(field, values[field]);
  set('end', values.end);
  setEndLimits(form, values.end_value ?? null);
  f.preset.value = presetOf(form);
  set('move_seconds', values.move_seconds);
  set('seat', values.seat);
  set('name', values.name);
  f.private.checked = Boolean(values.private);
  const touched = values.rated_touched === true && typeof values.rated === 'boolean';
  form.dataset.ratedTouched = String(touched);
  f.rated.checked = touched ? values.rated : !f.private.checked;
}

// "Rated" follows "Private" (public rooms rated, private ones not, as the server's default)
// until the player sets it: from then on it keeps the player's choice.
export function wireRated(form) {
  const f = form.elements;
  f.private.addEventListener('change', () => {
    if (form.dataset.ratedTouched !== 'true') f.rated.checked = !f.private.checked;
  });
  f.rated.addEventListener('change', () => {
    form.dataset.ratedTouched = 'true';
  });
}

// A stored value into a field, if the field still offers it.
function setValue(el, value) {
  if (!el || value === undefined || value === null) return;
  if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === String(value))) return;
  el.value = String(value);
}

function stored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return null;
  }
}

// -- the New game form: you and a CPU partner against two CPUs -------------------------------

const NEW_GAME_KEY = 'klaverjas.new-game';
const NEW_GAME_FIELDS = ['level', 'preset', ...RULE_FIELDS, 'end', 'end_value', 'move_seconds'];

export const levelName = (level) => optionWord('level', level);

// The choices, from the catalog: the CPU level, the rules, and a match of 16 deals (the
// server's default length for a new game), or the choices last played on this device.
export function buildNewGameForm(form) {
  const catalog = rulesCatalog();
  const f = form.elements;
  buildCpuLevels(f.level);
  fillSelect(f.preset, [...Object.keys(catalog.presets), CUSTOM], 'preset');
  for (const field of RULE_FIELDS) fillSelect(f[field], catalog.options[field].values, field);
  applyPreset(form, f.preset.value, { length: false });
  f.end.value = 'deals';
  setEndLimits(form, catalog.options.deals.default);
  const seconds = catalog.room.move_seconds;
  f.move_seconds.min = String(seconds.min);
  f.move_seconds.max = String(seconds.max);
  f.move_seconds.value = String(seconds.default);
  const values = stored(NEW_GAME_KEY);
  if (!values) return;
  for (const name of ['level', 'preset', ...RULE_FIELDS, 'end']) setValue(f[name], values[name]);
  f.preset.value = presetOf(form, { length: false });
  setEndLimits(form, values.end_value ?? null);
  setValue(f.move_seconds, values.move_seconds);
}

export function saveNewGame(form) {
  const values = Object.fromEntries(NEW_GAME_FIELDS.map((name) => [name, form.elements[name].value]));
  try {
    localStorage.setItem(NEW_GAME_KEY, JSON.stringify(values));
  } catch {
    // storage full or blocked: the next game starts from the defaults
  }
}

// The New game choices in a few words: "Strong CPUs · Amsterdam · 16 deals".
export function newGameSummary(form) {
  const f = form.elements;
  const n = Math.round(Number(f.end_value.value));
  const preset = presetOf(form, { length: false });
  const variant = RULES[f.variant.value] ?? f.variant.value;
  return fill(RULES.summary, {
    level: levelName(f.level.value),
    rules: preset === CUSTOM ? fill(RULES.custom, { variant }) : optionWord('preset', preset),
    length: f.end.value === 'deals' ? plural(RULES.deals, n) : fill(RULES.targetPoints, { n }),
  });
}

// The new_game message from the form's values.
export function newGameMessage(form) {
  const f = form.elements;
  const rules = f.preset.value === CUSTOM ? {} : { preset: f.preset.value };
  for (const field of RULE_FIELDS) rules[field] = f[field].value;
  const value = Math.round(Number(f.end_value.value));
  if (f.end.value === 'deals') rules.deals = value;
  else rules.target = value;
  return {
    type: 'new_game', level: f.level.value, rules, move_seconds: Math.round(Number(f.move_seconds.value)),
  };
}
