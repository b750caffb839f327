// The club evening's screen on the wall (`/wall?evening=<organiser code>`): a projector or a
// TV across the hall shows the evening's name and round, each table's live score, the
// standing, and, until a table has started, who sits where at it with a QR code that opens
// its score sheet; and a QR code of the evening's view link, to follow the standing.
//
// Nothing to click: the screen says hello by itself (an identity of its own, kept under its
// own key), follows the evening, redraws on every `evening` frame, and after a lost
// connection connects, says hello and follows again.  More tables or players than fit take
// turns, a page every ROTATE_SECONDS (`&seconds=N`: 3 to 120).  Sizes follow the screen
// (`fit`): a card's type grows with its card.

import { $, h, patch } from './dom.js';
import { errorText } from './errors.js';
import { fill, plural } from './fill.js';
import { startLanguage, strings } from './i18n.js';
import { Connection, serverUrl } from './protocol.js';

const TEXT = strings('wall', {
  title: 'Club evening',
  nickname: 'Wall {n}', // the screen's own name on the server (2 to 24 characters)
  noCode: 'This screen needs the evening’s code: open /wall?evening=CODE with the organiser code.',
  connecting: 'Connecting…',
  offline: 'Connection lost: connecting again…',
  checkingIn: { one: '{n} player checked in', other: '{n} players checked in' },
  waitingDraw: 'Waiting for the first round to be drawn.',
  roundOf: 'Round {round} of {rounds}',
  findTable: 'Find your table: scan its code to open your score sheet.',
  playing: 'Playing',
  afterRound: 'Standing after round {round} of {rounds}',
  final: 'Final standing',
  table: 'Table {n}',
  seatN: 'N',
  seatE: 'E',
  seatS: 'S',
  seatW: 'W',
  notStarted: 'Not started',
  dealsOf: 'Deal {n} of {total}',
  dealsTo: 'Deal {n} · to {target}',
  finished: 'Finished',
  sittingOut: 'Sitting out: {names}',
  standing: 'Standing',
  noStanding: 'The standing starts with the first deal.',
  prize: 'prize',
  lowest: 'lowest score',
  satOut: { one: 'sat out', other: 'sat out {n}×' },
  legendPrize: '★ a prize',
  legendLowest: '▼ the lowest score',
  follow: 'Follow the standing on your phone',
  tablesPage: 'Tables {from}–{to} of {total}',
  standingPage: 'Places {from}–{to} of {total}',
  loopback: 'Opened as {host}: phones cannot reach that address. Open this screen by the computer’s address on the hall’s network.',
  viewOnly: 'Opened with the view code: the tables’ codes show with the organiser code only.',
});

const TOKEN_KEY = 'klaverjas.wall-token'; // the screen's own identity, apart from a player's
const ROTATE_SECONDS = 12; // a page of tables or of the standing shows this long (`&seconds=`)
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

// -- what the frame says (pure) ------------------------------------------------------------

/** What the screen shows: `checkin` (nothing drawn), `draw` (a round drawn, no deal yet),
 *  `playing`, `between` (a round closed, more to come) or `over`. */
export function phaseOf(frame) {
  const drawn = frame.evening.drawn;
  if (!drawn.length) return 'checkin';
  const latest = drawn[drawn.length - 1];
  if (latest.closed) return latest.number >= frame.evening.rounds ? 'over' : 'between';
  return frame.tables.some((t) => t.deals > 0) ? 'playing' : 'draw';
}

/** The names of seats 0 to 3 of a table: its four players, or in a pairs evening its
 *  north-south pair's two players and its east-west pair's. */
export function seatNames(byId, entrants) {
  if (entrants.length === 2) {
    const [ns, ew] = entrants.map((e) => byId.get(e)?.members ?? ['?', '?']);
    return [ns[0], ew[0], ns[1], ew[1]];
  }
  return entrants.map((e) => byId.get(e)?.name ?? e);
}

/** How `n` table cards fit in `space` ({ width, height, gap }): the columns and rows that
 *  give the names the largest type.  A card (`card`) is `wide[0]` to `wide[1]` times as wide
 *  as it is high and at least `least` high; its names get its width less `fixed` hundredths
 *  of its height (number, code, margins), in type at most `type` hundredths of its height and
 *  wide enough for `chars` characters, and at least `smallest`.  When no layout of one page
 *  does, as many pages as it takes (`perPage` a page). */
export function fit(n, space, card) {
  const { width, height, gap } = space;
  const count = Math.max(1, n);
  for (let pages = 1; pages <= count; pages += 1) {
    const perPage = Math.ceil(count / pages);
    let best = null;
    for (let cols = 1; cols <= perPage; cols += 1) {
      const rows = Math.ceil(perPage / cols);
      const cellW = (width - gap * (cols - 1)) / cols;
      const cellH = (height - gap * (rows - 1)) / rows;
      const boxH = Math.min(cellH, cellW / card.wide[0]);
      const boxW = Math.min(cellW, boxH * card.wide[1]);
      const font = Math.min((card.type * boxH) / 100, (boxW - (card.fixed * boxH) / 100) / (card.chars * 0.6));
      const better = !best || font > best.font + 0.5 || (font > best.font - 0.5 && boxH > best.boxH);
      if (boxH >= card.least && font >= card.smallest && better) {
        best = { cols, rows, perPage, pages, boxH, boxW, font };
      }
    }
    if (best) return best;
  }
  const boxH = Math.min(height, width / card.wide[0]);
  return { cols: 1, rows: 1, perPage: 1, pages: count, boxH, boxW: width, font: card.smallest };
}

/** How `n` rows of the standing fit in `space` ({ width, height, gap, colGap }): the
 *  columns that give them the largest type, a row `ems` of its type wide and at most
 *  `tallest` high; when no layout of one page gives `smallest`, as many pages as it takes. */
export function fitRows(n, space, { ems, tallest, smallest }) {
  const count = Math.max(1, n);
  for (let pages = 1; pages <= count; pages += 1) {
    const perPage = Math.ceil(count / pages);
    let best = null;
    for (let cols = 1; cols <= perPage; cols += 1) {
      const perCol = Math.ceil(perPage / cols);
      const rowH = Math.min(tallest, space.height / perCol);
      const colW = (space.width - space.colGap * (cols - 1)) / cols;
      const font = Math.min(rowH * 0.58, colW / ems);
      if (font >= smallest && (!best || font > best.font + 0.5)) {
        best = { cols, perCol, perPage, pages, rowH, colW, font };
      }
    }
    if (best) return best;
  }
  return { cols: 1, perCol: 1, perPage: 1, pages: count, rowH: tallest, colW: space.width, font: smallest };
}

// -- the screen --------------------------------------------------------------------------

const params = new URLSearchParams(window.location.search);
const wall = {
  code: params.get('evening'),
  seconds: Math.min(120, Math.max(3, Number(params.get('seconds')) || ROTATE_SECONDS)),
  frame: null, // the latest `evening` frame
  online: false,
  problem: null, // a refusal that stops the screen: { code, text }
  turn: 0, // the rotation's count
};
let conn = null;

function storedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function keepToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // private mode: an identity for as long as the page lasts
  }
}

let token = null;

function sayHello() {
  if (token) conn.send({ type: 'hello', token });
  else conn.send({ type: 'hello', nickname: fill(TEXT.nickname, { n: 1000 + Math.floor(Math.random() * 9000) }) });
}

function onFrame(frame, sent) {
  switch (frame.type) {
    case 'welcome':
      if (frame.token) {
        token = frame.token;
        keepToken(token);
      }
      conn.send({ type: 'evening_open', code: wall.code });
      break;
    case 'evening':
      wall.frame = frame;
      wall.problem = null;
      render();
      break;
    case 'error':
      onError(frame, sent);
      break;
    default:
      break; // pong
  }
}

function onError(frame, sent) {
  if (typeof frame.retry_after === 'number' && sent) { // the server's fault: again, later
    const { ref, ...again } = sent;
    setTimeout(() => conn.send(again), frame.retry_after * 1000);
    return;
  }
  if (sent?.type === 'hello') { // a token the server forgot, or a name taken: a new identity
    token = null;
    keepToken(null);
    setTimeout(sayHello, 1000);
    return;
  }
  if (sent?.type === 'evening_open') {
    wall.problem = { code: frame.code, text: errorText(frame, sent) };
    render();
    if (frame.code === 'too_many_attempts') setTimeout(() => conn.send({ type: 'evening_open', code: wall.code }), 60_000);
  }
}

// -- drawing -----------------------------------------------------------------------------

function viewport() {
  return { width: window.innerWidth, height: window.innerHeight };
}

function qrImage(text, cls, label) {
  return h('img', { class: cls, src: `/qr.svg?text=${encodeURIComponent(text)}`, alt: label });
}

function header(frame, phase) {
  const evening = frame.evening;
  const latest = evening.drawn[evening.drawn.length - 1];
  let line = '';
  if (phase === 'checkin') line = TEXT.waitingDraw;
  else if (phase === 'over') line = TEXT.final;
  else if (phase === 'between') line = fill(TEXT.afterRound, { round: latest.number, rounds: evening.rounds });
  else {
    const round = fill(TEXT.roundOf, { round: latest.number, rounds: evening.rounds });
    line = `${round} · ${phase === 'draw' ? TEXT.findTable : TEXT.playing}`;
  }
  const view = frame.codes.view;
  return h('header', { class: 'wall-head' },
    h('div', { class: 'wall-titles' },
      h('h1', { id: 'wall-name' }, evening.name),
      h('p', { id: 'wall-round', dataset: { round: latest?.number ?? 0 } }, line)),
    h('figure', { class: 'wall-follow' },
      qrImage(`${window.location.origin}/?evening=${view}`, 'wall-qr', TEXT.follow),
      h('figcaption', {}, TEXT.follow)));
}

function progress(frame, table) {
  const rules = frame.evening.rules;
  if (table.finished) return TEXT.finished;
  if (!table.deals) return TEXT.notStarted;
  const values = { n: table.deals, total: rules.end_value, target: rules.end_value };
  return fill(rules.end === 'deals' ? TEXT.dealsOf : TEXT.dealsTo, values);
}

// A table: its number, who sits where (a seat's letter in its team's colour), each team's
// total once a deal is in, how far its game is; until its first deal, its QR code.
function tableCard(frame, byId, table, full) {
  const seats = seatNames(byId, table.entrants);
  const letters = [TEXT.seatN, TEXT.seatE, TEXT.seatS, TEXT.seatW];
  const pairs = table.entrants.length === 2;
  const waiting = !table.deals && !table.finished;
  const seat = (s) => h('span', { class: 'wall-seat' },
    h('b', { class: 'wall-letter' }, letters[s]), h('span', { class: 'wall-player' }, seats[s]));
  const team = (t) => h('div', { class: 'wall-team', dataset: { team: t } },
    h('div', { class: 'wall-seats' },
      pairs ? h('span', { class: 'wall-pair' }, byId.get(table.entrants[t])?.name ?? '') : null,
      seat(t), seat(t + 2)),
    table.totals ? h('span', { class: 'wall-total' }, String(table.totals[t])) : null);
  const link = table.code ? `${window.location.origin}/?sheet=${table.code}` : null;
  const name = fill(TEXT.table, { n: table.table });
  return h('article', {
    class: ['wall-table', waiting && 'waiting', table.finished && 'finished', pairs && 'pairs'],
    'data-key': `t${table.table}`,
    'aria-label': name,
    dataset: {
      table: table.table, deals: table.deals, finished: table.finished,
      totals: table.totals ? table.totals.join(',') : null,
    },
  },
  h('div', { class: 'wall-number' }, String(table.table)),
  h('div', { class: 'wall-teams' }, team(0), team(1),
    full ? null : h('div', { class: 'wall-progress' }, progress(frame, table))),
  waiting && link ? qrImage(link, 'wall-qr wall-table-qr', name) : null);
}

function paged(items, layout, turn) {
  const page = layout.pages > 1 ? turn % layout.pages : 0;
  const from = page * layout.perPage;
  return { page, from, shown: items.slice(from, from + layout.perPage) };
}

// The tables' cards: in the draw (`full`) the whole width, each with its code; beside the
// standing smaller.  Type as large as the longest name lets it (`fit`).
function tablesPane(frame, byId, box, full) {
  const tables = frame.tables;
  const { height } = viewport();
  const pairs = frame.evening.format === 'pairs';
  const longest = Math.max(4, ...tables.flatMap((t) => seatNames(byId, t.entrants).map((name) => name.length)));
  const layout = fit(tables.length, box, {
    wide: full ? [2.0, 4] : [1.9, 5],
    least: height * (full ? 0.17 : 0.11),
    fixed: full ? 158 : 144, // margins, the number, the code, the gaps
    type: (full ? 19 : 15.5) * (pairs ? 0.8 : 1), // a pair's name takes a line
    chars: longest + 2, // and the seat's letter
    smallest: height * (full ? 0.02 : 0.017),
  });
  const { page, from, shown } = paged(tables, layout, wall.turn);
  return h('section', {
    id: 'wall-tables', class: ['wall-pane', full && 'full'],
    dataset: { page: page + 1, pages: layout.pages },
    style: `--cols:${layout.cols};--rows:${layout.rows};--u:${(layout.boxH / 100).toFixed(2)}px;`
      + `--card-h:${layout.boxH.toFixed(1)}px;--card-w:${layout.boxW.toFixed(1)}px;--name:${layout.font.toFixed(1)}px`,
  },
  h('div', { class: 'wall-grid' }, shown.map((t) => tableCard(frame, byId, t, full))),
  layout.pages > 1 ? h('p', { class: 'wall-page' },
    fill(TEXT.tablesPage, { from: from + 1, to: from + shown.length, total: tables.length })) : null);
}

function standingRow(byId, row) {
  const marks = [];
  if (row.prize === 'place') marks.push(h('span', { class: 'wall-mark prize', title: TEXT.prize }, '★'));
  if (row.prize === 'lowest') marks.push(h('span', { class: 'wall-mark lowest', title: TEXT.lowest }, '▼'));
  return h('li', {
    class: ['wall-row', row.prize],
    'data-key': row.player,
    dataset: { player: row.player, rank: row.rank, total: row.total, prize: row.prize, satOut: row.sat_out },
  },
  h('span', { class: 'wall-rank' }, String(row.rank)),
  h('span', { class: 'wall-who' }, byId.get(row.player)?.name ?? row.player),
  row.sat_out ? h('span', { class: 'wall-out' }, plural(TEXT.satOut, row.sat_out)) : null,
  marks,
  h('span', { class: 'wall-points' }, String(row.total)));
}

// The standing: columns of rows, the type as large as the longest name lets it (`fitRows`).
function standingPane(frame, byId, box, full) {
  const rows = frame.standing.standing;
  const { height } = viewport();
  const longest = Math.max(4, ...rows.map((row) => (byId.get(row.player)?.name ?? '').length));
  const out = rows.some((row) => row.sat_out) ? 0.62 * (plural(TEXT.satOut, 2).length * 0.6 + 1.5) : 0;
  const layout = fitRows(rows.length, { ...box, colGap: height * 0.03 }, {
    ems: longest * 0.6 + 8.5 + out, // the rank, the marks, the points, the gaps; `sat out`
    tallest: height * 0.07,
    smallest: height * 0.019,
  });
  const { page, from, shown } = paged(rows, layout, wall.turn);
  return h('section', {
    id: 'wall-standing', class: ['wall-pane', full && 'full'],
    dataset: { page: page + 1, pages: layout.pages },
    style: `--cols:${layout.cols};--per-col:${layout.perCol};--row-h:${layout.rowH.toFixed(1)}px;`
      + `--col-w:${Math.min(layout.colW, height * 0.8).toFixed(1)}px;--row-font:${layout.font.toFixed(1)}px`,
  },
  full ? null : h('h2', {}, TEXT.standing), // (the head says it when it is the whole screen)
  rows.length
    ? h('ol', { class: 'wall-list' }, shown.map((row) => standingRow(byId, row)))
    : h('p', { class: 'wall-empty' }, TEXT.noStanding),
  h('p', { class: 'wall-page' },
    layout.pages > 1 ? fill(TEXT.standingPage, { from: from + 1, to: from + shown.length, total: rows.length }) : '',
    h('span', { class: 'wall-legend' }, TEXT.legendPrize, ' · ', TEXT.legendLowest)));
}

// Before the first draw: who has checked in so far, in as many columns as fit.
function checkIn(frame, box) {
  const entrants = frame.evening.entrants.filter((e) => !e.withdrawn);
  const { height } = viewport();
  const longest = Math.max(4, ...entrants.map((e) => e.name.length));
  const layout = fitRows(entrants.length, { ...box, colGap: height * 0.03 }, {
    ems: longest * 0.6 + 1, tallest: height * 0.06, smallest: height * 0.022,
  });
  const { page, shown } = paged(entrants, layout, wall.turn);
  return h('section', {
    id: 'wall-checkin', class: 'wall-pane full',
    dataset: { page: page + 1, pages: layout.pages },
    style: `--cols:${layout.cols};--per-col:${layout.perCol};--row-h:${layout.rowH.toFixed(1)}px;`
      + `--col-w:${Math.min(layout.colW, height * 0.6).toFixed(1)}px;--row-font:${layout.font.toFixed(1)}px`,
  },
  h('h2', {}, plural(TEXT.checkingIn, entrants.length)),
  h('ul', { class: 'wall-list' }, shown.map((e) => h('li', { class: 'wall-row', 'data-key': e.id },
    h('span', { class: 'wall-who' }, e.name)))));
}

function footer(frame, phase, byId) {
  const notes = [];
  const latest = frame.evening.drawn[frame.evening.drawn.length - 1];
  if (latest && !latest.closed && latest.sitting_out.length) {
    const names = latest.sitting_out.map((e) => byId.get(e)?.name ?? e).join(', ');
    notes.push(h('p', { id: 'wall-out' }, fill(TEXT.sittingOut, { names })));
  }
  if (phase === 'draw' && frame.role !== 'organiser') notes.push(h('p', { class: 'wall-warn' }, TEXT.viewOnly));
  if (LOOPBACK.test(window.location.hostname)) {
    notes.push(h('p', { class: 'wall-warn', id: 'wall-loopback' }, fill(TEXT.loopback, { host: window.location.hostname })));
  }
  return h('footer', { class: 'wall-foot' }, notes);
}

function screen(frame) {
  const phase = phaseOf(frame);
  const byId = new Map(frame.evening.entrants.map((e) => [e.id, e]));
  const { width, height } = viewport();
  const gap = Math.round(height * 0.012);
  const mainH = height * 0.76;
  const mainW = width - 2 * gap;
  let main;
  if (phase === 'checkin') main = [checkIn(frame, { width: mainW, height: mainH - height * 0.08, gap })];
  else if (phase === 'draw') main = [tablesPane(frame, byId, { width: mainW, height: mainH, gap }, true)];
  else if (phase === 'playing') {
    const left = Math.round(mainW * 0.63);
    main = [
      tablesPane(frame, byId, { width: left, height: mainH, gap }, false),
      standingPane(frame, byId, { width: mainW - left - gap, height: mainH - height * 0.09, gap }, false),
    ];
  } else main = [standingPane(frame, byId, { width: mainW, height: mainH - height * 0.09, gap }, true)];
  return [header(frame, phase), h('main', { class: ['wall-main', phase] }, main), footer(frame, phase, byId)];
}

// A name wider than its box: its type smaller (down to half) rather than cut.
function fitNames(root) {
  for (const el of root.querySelectorAll('.wall-player, .wall-who, .wall-pair, #wall-name')) {
    const over = el.scrollWidth / Math.max(1, el.clientWidth);
    if (over <= 1.01) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    el.style.fontSize = `${(size * Math.max(0.5, 0.98 / over)).toFixed(1)}px`;
  }
}

function render() {
  const root = $('#wall');
  root.dataset.state = wall.online ? 'open' : 'closed';
  const problem = !wall.code ? { code: 'no_code', text: TEXT.noCode } : wall.problem;
  const said = problem && h('p', { class: ['wall-problem', wall.frame && 'over'], role: 'alert', dataset: { code: problem.code } }, problem.text);
  if (problem && !wall.frame) {
    root.dataset.phase = 'problem';
    patch(root, said);
    return;
  }
  if (!wall.frame) {
    root.dataset.phase = 'loading';
    patch(root, h('p', { class: 'wall-problem' }, TEXT.connecting));
    return;
  }
  const frame = wall.frame;
  root.dataset.phase = phaseOf(frame);
  root.dataset.version = frame.version;
  root.dataset.role = frame.role;
  document.title = `${frame.evening.name} · ${TEXT.title}`;
  patch(root, ...screen(frame),
    wall.online ? null : h('p', { id: 'wall-offline', role: 'status' }, TEXT.offline),
    said);
  fitNames(root);
}

function tick() {
  wall.turn += 1;
  const paged = document.querySelector('#wall [data-pages]:not([data-pages="1"])');
  if (paged) render(); // only a screen with pages to turn changes
}

async function start() {
  await startLanguage();
  document.title = TEXT.title;
  render();
  if (!wall.code) return;
  token = storedToken();
  conn = new Connection(serverUrl(), {
    onOpen: sayHello,
    onFrame,
    onState: (state) => {
      wall.online = state === 'open';
      render();
    },
  });
  conn.connect();
  setInterval(tick, wall.seconds * 1000);
  window.addEventListener('resize', render);
  window.addEventListener('online', () => conn.nudge());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') conn.nudge();
  });
  try {
    await navigator.wakeLock?.request('screen'); // keep the screen on, where allowed
  } catch {
    // not allowed here (not a secure page, or the browser says no): the screen's own settings
  }
}

if (document.getElementById('wall')) start();
