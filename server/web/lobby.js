// The lobby: public rooms, tournaments, your tables, and the create-room form.

import { $, h, patch, show } from './dom.js';
import { entrantName, prizeName, rematchState, rematchWords, roundName, tournamentInfo } from './state.js';
import { rematchPlayers } from './widgets.js';
import { todayUtc, untilMidnight } from './daily.js';
import { fill, fillParts, plural } from './fill.js';

// The rule options, presets and limits are the server's (GET /rules): the form offers
// what the server accepts, and only the words for each value live here.
const RULE_FIELDS = ['variant', 'trump_mode', 'roem', 'pit_bonus'];
const OPTION_WORDS = {
  preset: { amsterdam: 'Amsterdam', rotterdam: 'Rotterdam', tournament: 'Tournament', custom: 'Custom' },
  variant: { amsterdam: 'Unless your partner is winning', rotterdam: 'Always, even over your partner' },
  trump_mode: {
    bidding: 'Bidding: pass or name a suit', dealer: 'The dealer names it',
    forced: 'The first player names it', turned: 'A turned-up card',
  },
  roem: { auto: 'Counted automatically', claim: 'Claimed by the winner' },
  pit_bonus: { any: 'For either team', playing: 'Only the playing team' },
};
// New game's choice in words, beside its button.
const SUMMARY_WORDS = {
  line: '{level} CPUs · {rules} · {length}',
  custom: '{variant}, own rules',
  variant: { amsterdam: 'Amsterdam', rotterdam: 'Rotterdam' },
  deals: { one: '{n} deal', other: '{n} deals' },
  target: 'to {n} points',
};
// The preset select's own value when the rules are no preset's.
const CUSTOM = 'custom';
// The CPU levels' words; the levels themselves, and the default, are the catalog's.
const LEVEL_WORDS = { random: 'Random', heuristic: 'Easy', strong: 'Strong' };
// Tournaments, as the lobby and the tournament view say them.
const TOURNAMENT_WORDS = {
  format: { quick: 'Quick tournament', classic: 'Classic tournament' },
  formatOther: '{format} tournament',
  whenFull: 'starts when full',
  unannounced: 'start time to be announced',
  startsAt: 'starts {when}',
  startsIn: 'in {left}',
  startsWhen: '{start}, {left}',
  starting: 'starting now…',
  hours: '{h} h {m} min',
  minutes: '{m} min {s} s',
  seconds: '{s} s',
  players: '{size} players',
  registered: '{count} of {size} registered',
  fill: 'CPUs fill empty places',
  repeat: { hourly: 'every hour', daily: 'every day' },
  status: {
    scheduled: 'Open for registration', running: 'Running', finished: 'Finished', cancelled: 'Cancelled',
  },
  playing: '{round} being played',
  pair: '{a} & {b}',
  podium: '{place}: {names}',
  places: 'Final places',
  register: 'Register',
  unregister: 'Unregister',
  registeredChip: 'registered',
  readyNow: 'your table is ready',
  view: 'View',
  open: 'Open (you are playing)',
};
const ORDINAL = ['', '1st', '2nd', '3rd', '4th', '5th'];
export const placeName = (place) => ORDINAL[place] ?? `#${place}`;
let catalog = null; // what GET /rules answered

// The server's catalog of rules, presets, limits and tournament formats (retried until
// the server answers).
export async function loadCatalog() {
  for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
    try {
      const response = await fetch('/rules', { cache: 'no-cache' });
      if (response.ok) {
        catalog = await response.json();
        return catalog;
      }
    } catch {
      // the server is not reachable yet
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

// The catalog as it came (null until GET /rules answers).
export const rulesCatalog = () => catalog;

function fillSelect(select, values, words = {}) {
  select.replaceChildren(...values.map((v) => h('option', { value: v }, words[v] ?? v)));
}

// The create-room form's choices and limits, from the catalog.
export function buildForm(form) {
  const f = form.elements;
  fillSelect(f.preset, [...Object.keys(catalog.presets), CUSTOM], OPTION_WORDS.preset);
  for (const field of RULE_FIELDS) {
    fillSelect(f[field], catalog.options[field].values, OPTION_WORDS[field]);
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
  const f = form.elements;
  fillSelect(f.pit_bonus, catalog.options.pit_bonus.values, OPTION_WORDS.pit_bonus);
  f.pit_bonus.value = catalog.options.pit_bonus.default;
  for (const name of ['team0', 'team1', 'p0', 'p1', 'p2', 'p3']) f[name].maxLength = catalog.sheet.name_length;
  setEndLimits(form);
}

// The level choice for the CPUs an owner adds to a table, from the catalog.
export function buildCpuLevels(select) {
  fillSelect(select, catalog.cpu.levels, LEVEL_WORDS);
  select.value = catalog.cpu.default;
}

const STORE_KEY = 'klaverjas.create-room';

const TRUMP_WORDS = { bidding: 'bidding', dealer: 'dealer names trump', forced: 'forced trump', turned: 'turned card' };

export function rulesText(rules, moveSeconds = null) {
  if (!rules) return '';
  const parts = [
    rules.variant === 'rotterdam' ? 'Rotterdam' : 'Amsterdam',
    TRUMP_WORDS[rules.trump_mode] ?? rules.trump_mode,
    rules.roem === 'claim' ? 'roem claimed' : 'roem counted',
    rules.pit_bonus === 'playing' ? 'pit bonus for the players' : 'pit bonus for all',
    rules.end === 'deals'
      ? `${rules.end_value} ${rules.end_value === 1 ? 'deal' : 'deals'}`
      : `to ${rules.end_value}`,
  ];
  if (moveSeconds) parts.push(`${moveSeconds} s a move`);
  return parts.join(' · ');
}

export function startText(t) {
  const T = TOURNAMENT_WORDS;
  if (t.start_when_full) return T.whenFull;
  if (!t.start_at) return T.unannounced;
  const when = new Date(t.start_at * 1000);
  return fill(T.startsAt, {
    when: when.toLocaleString([], { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }),
  });
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

export const formatName = (t) => TOURNAMENT_WORDS.format[t.format]
  ?? fill(TOURNAMENT_WORDS.formatOther, { format: t.format });
export const tournamentStatus = (status) => TOURNAMENT_WORDS.status[status] ?? status;

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
    names: line.names.length === 2
      ? fill(TOURNAMENT_WORDS.pair, { a: line.names[0], b: line.names[1] }) : line.names.join(', '),
  }));
}

const STATUS_WORDS = { open: 'Waiting for players', playing: 'Playing', finished: 'Finished', closed: 'Closed' };

// -- rendering -----------------------------------------------------------------------------

export function renderLobby(app) {
  const { lobby, me } = app;
  $('#online').textContent = lobby.online ?? '–';
  $('#online-label').textContent = lobby.online === 1 ? 'player online' : 'players online';

  const rooms = Object.values(lobby.rooms).sort(
    (a, b) => (a.status === 'open' ? 0 : 1) - (b.status === 'open' ? 0 : 1) || a.name.localeCompare(b.name),
  );
  patch($('#rooms'), rooms.map((room) => roomItem(room, me, app)));
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
  patch($('#my-rooms'), mine.map((m) => myRoomItem(m)));
  show($('#my-rooms-panel'), mine.length > 0);

  // The daily game: today's attempt under way (yesterday's, still open after midnight, is
  // among your tables), or played already (daily_start refused).
  const today = todayUtc();
  const daily = mine.some((m) => m.room.mode === 'daily' && !m.result && (m.room.day ?? today) === today);
  const button = $('#daily-button');
  const label = daily ? 'Continue the daily game' : 'Daily game';
  if (button.textContent !== label) button.textContent = label;
  const note = $('#daily-note');
  show(note, app.dailyPlayed);
  patch(note, app.dailyPlayed
    ? [h('p', {}, h('strong', {}, 'You have played today’s daily game.'),
      ` The next one starts at midnight UTC, in ${untilMidnight()}.`),
    h('button', { type: 'button', class: 'small primary', dataset: { openBoards: '' } }, 'See today’s board')]
    : []);
}

function seatChip(room, seat, index, me, seated) {
  if (seat.cpu) {
    return h('span', { class: 'chip cpu', title: 'A CPU player' }, seat.nickname ?? 'CPU');
  }
  if (seat.player_id) {
    return h('span', { class: ['chip', seat.player_id === me && 'you', seat.ready && 'ready'] },
      seat.nickname ?? '?', seat.ready ? h('span', { class: 'tick', 'aria-label': 'ready' }, ' ✓') : null);
  }
  if (room.status === 'open' && !seated) {
    return h('button', {
      type: 'button', class: 'chip free', dataset: { takeSeat: index },
      'aria-label': `Take seat ${index + 1} at ${room.name}`,
    }, `Sit here`);
  }
  return h('span', { class: 'chip empty' }, 'empty');
}

function roomItem(room, me, app) {
  const seated = room.seats.some((s) => s.player_id && s.player_id === me);
  const free = room.seats.filter((s) => !s.player_id && !s.cpu).length;
  return h('li', { class: 'room-item', dataset: { roomId: room.id, key: room.id, status: room.status } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, room.name),
      h('span', { class: ['status-chip', room.status] },
        room.status === 'open' ? `${STATUS_WORDS.open} (${free} free)` : STATUS_WORDS[room.status] ?? room.status),
      room.rated ? h('span', { class: 'chip rated', title: 'A rated table: a match of four people changes their ratings' }, 'rated') : null),
    h('p', { class: 'muted small' }, rulesText(room.rules, room.move_seconds)),
    h('div', { class: 'seats-line', role: 'group', 'aria-label': 'Seats' },
      room.seats.map((s, i) => seatChip(room, s, i, me, seated))),
    h('div', { class: 'item-actions' },
      seated || app.rooms.has(room.id)
        ? h('button', { type: 'button', class: 'primary small', dataset: { openRoom: room.id } }, 'Open')
        : null,
      h('button', {
        type: 'button', class: 'small', dataset: { watch: room.id }, 'aria-label': `Watch ${room.name}`,
      }, 'Watch')));
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
  if (t.repeat) meta.push(T.repeat[t.repeat] ?? t.repeat);
  const places = t.status === 'finished' ? podium(t).filter((line) => line.prize) : [];
  return h('li', { class: 'tournament-item', dataset: { tournamentId: t.id, key: t.id, status: t.status } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, formatName(t)),
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
      h('strong', { class: 'item-title' }, room?.name ?? 'A finished table'),
      h('span', { class: 'status-chip' }, offered ? 'Rematch offered' : 'Waiting')),
    h('p', { class: 'small' }, rematchWords(r, room, app.me)),
    rematchPlayers(r, room, app.me),
    offered
      ? h('div', { class: 'item-actions' },
        h('button', { type: 'button', class: 'primary small', dataset: { rematch: r.roomId } }, 'Accept the rematch'))
      : null);
}

function myRoomItem(m) {
  const room = m.room;
  let state = STATUS_WORDS[room.status] ?? room.status;
  if (m.result) state = 'Match over';
  else if (m.seat === null) state += ' · watching';
  return h('li', { class: 'room-item mine', dataset: { key: m.roomId, myRoomId: m.roomId } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, room.name),
      h('span', { class: ['status-chip', room.status] }, state)),
    h('div', { class: 'item-actions' },
      h('button', { type: 'button', class: 'primary small', dataset: { openRoom: m.roomId } }, 'Open')));
}

// -- the create-room form ------------------------------------------------------------------

// A preset's rules into the form; `length: false` keeps the form's match length. Custom
// keeps the rules as they are.
export function applyPreset(form, name, { length = true } = {}) {
  if (name === CUSTOM) return;
  const preset = catalog.presets[name] ?? Object.values(catalog.presets)[0];
  for (const field of RULE_FIELDS) form.elements[field].value = preset[field];
  if (!length) return;
  form.elements.end.value = preset.end;
  setEndLimits(form, preset.end_value);
}

// The preset the form's rules are (`length`: the match length counts too), else Custom.
export function presetOf(form, { length = true } = {}) {
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
    if (catalog) f.preset.value = presetOf(form, { length });
  };
  const watched = length ? [...RULE_FIELDS, 'end', 'end_value'] : RULE_FIELDS;
  for (const name of watched) {
    f[name].addEventListener(name === 'end_value' ? 'input' : 'change', follow);
  }
  f.preset.addEventListener('change', () => applyPreset(form, f.preset.value, { length }));
}

export function setEndLimits(form, value = null) {
  const end = form.elements.end.value;
  const { min, max, default: fallback } = catalog.options[end === 'deals' ? 'deals' : 'target'];
  const input = form.elements.end_value;
  input.min = String(min);
  input.max = String(max);
  const current = Number(value ?? input.value);
  input.value = String(value ?? (current >= min && current <= max ? current : fallback));
  const label = form.querySelector(`label[for="${input.id}"]`);
  if (label) label.textContent = end === 'deals' ? 'Deals' : 'Points';
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

export const levelName = (level) => LEVEL_WORDS[level] ?? level;

// The choices, from the catalog: the CPU level, the rules, and a match of 16 deals (the
// server's default length for a new game), or the choices last played on this device.
export function buildNewGameForm(form) {
  const f = form.elements;
  buildCpuLevels(f.level);
  fillSelect(f.preset, [...Object.keys(catalog.presets), CUSTOM], OPTION_WORDS.preset);
  for (const field of RULE_FIELDS) fillSelect(f[field], catalog.options[field].values, OPTION_WORDS[field]);
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
  const variant = SUMMARY_WORDS.variant[f.variant.value] ?? f.variant.value;
  return fill(SUMMARY_WORDS.line, {
    level: levelName(f.level.value),
    rules: preset === CUSTOM ? fill(SUMMARY_WORDS.custom, { variant }) : OPTION_WORDS.preset[preset] ?? preset,
    length: f.end.value === 'deals' ? plural(SUMMARY_WORDS.deals, n) : fill(SUMMARY_WORDS.target, { n }),
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
