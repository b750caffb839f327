// The lobby: public rooms, tournaments, your tables, and the create-room form.

import { $, h, patch, show } from './dom.js';
import { rematchState, rematchWords, tournamentInfo } from './state.js';
import { rematchPlayers } from './widgets.js';
import { todayUtc, untilMidnight } from './daily.js';

// The rule options, presets and limits are the server's (GET /rules): the form offers
// what the server accepts, and only the words for each value live here.
const RULE_FIELDS = ['variant', 'trump_mode', 'roem', 'pit_bonus'];
const OPTION_WORDS = {
  preset: { amsterdam: 'Amsterdam', rotterdam: 'Rotterdam', tournament: 'Tournament' },
  variant: { amsterdam: 'Amsterdam', rotterdam: 'Rotterdam' },
  trump_mode: {
    bidding: 'Bidding: pass or name a suit', dealer: 'Dealer names trump',
    forced: 'Forced: first seat names trump', turned: 'Turned-up card',
  },
  roem: { auto: 'Counted automatically', claim: 'Claimed by the winner' },
  pit_bonus: { any: 'For either team', playing: 'Only the playing team' },
};
// The CPU levels' words; the levels themselves, and the default, are the catalog's.
const LEVEL_WORDS = { random: 'Random', heuristic: 'Easy', strong: 'Strong' };
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

function fillSelect(select, values, words = {}) {
  select.replaceChildren(...values.map((v) => h('option', { value: v }, words[v] ?? v)));
}

// The create-room form's choices and limits, from the catalog.
export function buildForm(form) {
  const f = form.elements;
  fillSelect(f.preset, Object.keys(catalog.presets), OPTION_WORDS.preset);
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
  if (t.start_when_full) return 'starts when full';
  if (!t.start_at) return 'start time to be announced';
  const when = new Date(t.start_at * 1000);
  return `starts ${when.toLocaleString([], {
    weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit',
  })}`;
}

const FORMAT_WORDS = { quick: 'Quick tournament', classic: 'Classic tournament' };
export const formatName = (t) => FORMAT_WORDS[t.format] ?? `${t.format} tournament`;

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

  const tournaments = Object.values(lobby.tournaments).sort(
    (a, b) => (a.start_at ?? 0) - (b.start_at ?? 0) || a.id.localeCompare(b.id),
  );
  patch($('#tournaments'), tournaments.map((t) => tournamentItem(t, me)));
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
    return h('span', { class: 'chip cpu', title: 'A CPU player' }, 'CPU');
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

function tournamentItem(t, me) {
  const info = tournamentInfo(t, me);
  const count = (t.registered ?? []).length;
  let state;
  if (t.status === 'running') state = `Round ${t.rounds.length} being played`;
  else if (t.status === 'scheduled') state = startText(t);
  else state = t.status;
  return h('li', { class: 'tournament-item', dataset: { tournamentId: t.id, key: t.id, status: t.status } },
    h('div', { class: 'item-head' },
      h('strong', { class: 'item-title' }, formatName(t)),
      h('span', { class: ['status-chip', t.status] }, t.status === 'scheduled' ? 'Open for registration' : t.status)),
    h('p', { class: 'muted small' },
      `${t.size} players · `,
      t.start_at && !t.start_when_full
        ? h('time', { datetime: new Date(t.start_at * 1000).toISOString() }, state)
        : state,
      ` · ${count} of ${t.size} registered`,
      t.fill_with_cpu ? ' · CPUs fill empty places' : '',
      t.repeat ? ` · ${t.repeat}` : ''),
    h('div', { class: 'item-actions' },
      t.status === 'scheduled' && !info.registered
        ? h('button', { type: 'button', class: 'primary small', dataset: { register: t.id } }, 'Register')
        : null,
      t.status === 'scheduled' && info.registered
        ? h('button', { type: 'button', class: 'small', dataset: { unregister: t.id } }, 'Unregister')
        : null,
      info.registered && !info.playing ? h('span', { class: 'chip you' }, 'registered') : null,
      info.playing ? h('span', { class: 'chip ready-now' }, 'your table is ready') : null,
      h('button', { type: 'button', class: 'small', dataset: { openTournament: t.id } },
        info.playing ? 'Open (you are playing)' : 'View')));
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

// A preset's rules into the form; `length: false` keeps the form's match length.
export function applyPreset(form, name, { length = true } = {}) {
  const preset = catalog.presets[name] ?? Object.values(catalog.presets)[0];
  for (const field of RULE_FIELDS) form.elements[field].value = preset[field];
  if (!length) return;
  form.elements.end.value = preset.end;
  setEndLimits(form, preset.end_value);
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
  const rules = { preset: f.preset.value };
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
  fillSelect(f.preset, Object.keys(catalog.presets), OPTION_WORDS.preset);
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
  const length = f.end.value === 'deals' ? `${n} ${n === 1 ? 'deal' : 'deals'}` : `to ${n} points`;
  const variant = OPTION_WORDS.variant[f.variant.value] ?? f.variant.value;
  return `${levelName(f.level.value)} CPUs · ${variant} · ${length}`;
}

// The new_game message from the form's values.
export function newGameMessage(form) {
  const f = form.elements;
  const rules = { preset: f.preset.value };
  for (const field of RULE_FIELDS) rules[field] = f[field].value;
  const value = Math.round(Number(f.end_value.value));
  if (f.end.value === 'deals') rules.deals = value;
  else rules.target = value;
  return {
    type: 'new_game', level: f.level.value, rules, move_seconds: Math.round(Number(f.move_seconds.value)),
  };
}
