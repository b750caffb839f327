// The tournament view: what it is (its format from GET /rules), when it starts (a live
// countdown), rounds and tables with live scores, your table, places and prizes.

import { $, h, patch } from './dom.js';
import { prizeName, roundName, teamSide, tournamentInfo } from './state.js';
import {
  countdown, entrantName, entrantText, placeName, rulesText, startText,
  tableTitle, tournamentStatus, tournamentTitle,
} from './lobby.js';
import { rulesCatalog } from './catalog.js';
import { fill, fillParts, plural } from './fill.js';
import { strings } from './i18n.js';

const WORDS = strings('tournament', {
  loading: 'Loading the tournament…',
  heading: 'Tournament', // the page's heading before the tournament is known
  lobby: '‹ Lobby', // a button: back to the lobby
  about: 'How it works',
  players: '{size} players, in teams of two drawn at random.',
  fill: 'CPUs fill the places nobody takes.',
  noFill: 'Cancelled if not full at the start.',
  roundTables: { one: '{round}: one table', other: '{round}: {n} tables' }, // round: "Round 1", "Final"
  eachTable: 'Every table: {rules}.', // rules: "Amsterdam · dealer names trump · …"
  through: 'The winning team of each table goes through; partners change between rounds when they can.',
  prizeFor_grand: 'the final’s winners', // who wins the grand prize
  prizeFor_second: 'the final’s losers', // who wins the second prize
  prizeLine: '{prize}: {who}', // "Grand Prize: the final’s winners"
  registeredHere: 'You are registered.',
  startsSentence: 'The tournament {start}.', // start: "starts Mon 3 Jun 20:00" / "starts when full"
  startsCountdown: 'The tournament {start}, {left}.', // left: "in 4 min 12 s"
  registerHere: 'Register to play.',
  register: 'Register',
  unregister: 'Unregister',
  myRound: '{round}: your table is being played.',
  openMine: 'Open your table',
  doneWaiting: 'Your table has finished.',
  wellPlayed: 'Well played: you are through to the next round.',
  knockedOut: 'You are out of the tournament.',
  othersPlaying: 'The other tables are still playing: watch them below.',
  seating: 'You are through: the next round is being seated.',
  outWatch: 'You are out of the tournament. You can still watch the other tables.',
  watchAny: '{round} is being played. Watch any table below.',
  leave: 'Leave the tournament',
  cancelled: 'The tournament was cancelled.',
  cancelledWhy: 'The tournament was cancelled: {reason}.',
  over: 'The tournament is over.',
  youFinished: 'You finished {place}.', // place: "1st", "2nd"
  youWon: 'You finished {place}, winning the {prize}.', // prize: "Grand Prize"
  places: 'Final places',
  forPlayer: '(for {name})', // a CPU that played on for a player who left
  outIn: 'out in {round}',
  yourTable: 'your table', // a chip on your table
  finishedTable: 'finished', // a table's state
  playingTable: 'playing', // a table's state
  seatingTable: 'seating…', // a table's state
  watch: 'Watch',
  open: 'Open',
  pair: '{a} & {b}', // a team of two
  registeredList: 'Registered ({count} of {size})',
  nobody: 'Nobody yet: be the first.',
});

export function renderTournament(app) {
  const el = $('#tournament');
  const id = app.currentTournament;
  const t = app.tournaments.get(id) ?? app.lobby.tournaments[id];
  el.dataset.tournamentId = id ?? '';
  if (!t) {
    el.dataset.status = 'loading';
    patch(el, header(null), h('p', { class: 'muted' }, WORDS.loading));
    return;
  }
  el.dataset.status = t.status;
  const info = tournamentInfo(t, app.me);
  const now = app.now();
  patch(el,
    header(t, now),
    banner(app, t, info, now),
    places(t, app.me),
    rounds(app, t, info),
    registered(t, app.me),
    about(t));
}

function header(t, now) {
  return h('div', { class: 'tournament-head', dataset: { key: 'head' } },
    h('button', { type: 'button', class: 'ghost small', dataset: { go: 'lobby' } }, WORDS.lobby),
    h('h1', {}, t ? tournamentTitle(t, now) : WORDS.heading),
    t ? h('span', { class: ['status-chip', t.status] }, tournamentStatus(t.status)) : null);
}

// What the tournament is, from the server's description of its format (GET /rules).
function about(t) {
  const format = rulesCatalog()?.tournaments?.[t.format] ?? null;
  const preset = format ? rulesCatalog().presets[format.preset] : null;
  const lines = [h('li', {}, fill(WORDS.players, { size: t.size }))];
  if (t.status === 'scheduled') lines.push(h('li', {}, t.fill_with_cpu ? WORDS.fill : WORDS.noFill));
  const tables = format?.tables ?? [];
  const shape = { round_count: tables.length || t.round_count, rounds: t.rounds ?? [] };
  return h('section', { class: 'panel tournament-about', id: 'tournament-about', dataset: { key: 'about' } },
    h('h2', {}, WORDS.about),
    h('ul', { class: 'about-list' }, lines),
    tables.length
      ? h('ol', { class: 'about-rounds', dataset: { rounds: tables.length } }, tables.map((count, r) => h('li', {
        dataset: { round: r + 1, tables: count },
      }, plural(WORDS.roundTables, count, { round: roundName(shape, r) }))))
      : null,
    preset ? h('p', { class: 'small' }, fill(WORDS.eachTable, { rules: rulesText(preset, format.move_seconds) })) : null,
    h('p', { class: 'small' }, WORDS.through),
    h('ul', { class: 'about-prizes small' }, ['grand', 'second'].map((prize) => h('li', { dataset: { prize } },
      fill(WORDS.prizeLine, { prize: prizeName(prize), who: WORDS[`prizeFor_${prize}`] })))));
}

function banner(app, t, info, now) {
  const parts = [];
  const buttons = [];
  if (t.status === 'scheduled') {
    const start = startText(t);
    const left = countdown(t, now);
    if (info.registered) {
      parts.push(h('strong', {}, WORDS.registeredHere));
      buttons.push(h('button', { type: 'button', dataset: { tUnregister: t.id } }, WORDS.unregister));
    } else {
      parts.push(WORDS.registerHere);
      buttons.push(h('button', { type: 'button', class: 'primary', dataset: { tRegister: t.id } }, WORDS.register));
    }
    parts.push(' ', left
      ? fillParts(WORDS.startsCountdown, { start, left: h('strong', {}, left) })
      : fill(WORDS.startsSentence, { start }));
  } else if (t.status === 'running') {
    if (info.playing) {
      parts.push(h('strong', {}, fill(WORDS.myRound, { round: roundName(t, info.mine.round) })));
      buttons.push(h('button', {
        type: 'button', id: 'my-table', class: 'primary', dataset: { myRoom: info.mine.table.room_id ?? '' },
        disabled: !info.mine.table.room_id,
      }, WORDS.openMine));
    } else if (info.waiting) {
      parts.push(h('strong', {}, WORDS.doneWaiting), ' ',
        info.through ? WORDS.wellPlayed : WORDS.knockedOut, ' ', WORDS.othersPlaying);
    } else if (info.through) {
      parts.push(h('strong', {}, WORDS.seating));
    } else if (info.out) {
      parts.push(WORDS.outWatch);
    } else {
      parts.push(fill(WORDS.watchAny, { round: roundName(t, t.rounds.length - 1) }));
    }
    if (info.mine && (info.playing || info.through)) {
      buttons.push(h('button', { type: 'button', class: 'ghost small', dataset: { leaveTournament: t.id } }, WORDS.leave));
    }
  } else if (t.status === 'cancelled') {
    parts.push(h('strong', {}, t.reason ? fill(WORDS.cancelledWhy, { reason: t.reason }) : WORDS.cancelled));
  } else if (t.status === 'finished') {
    const me = (t.places ?? []).find((p) => p.entrant === app.me);
    parts.push(h('strong', {}, WORDS.over));
    if (me) {
      const place = placeName(me.place);
      parts.push(' ', me.prize ? fill(WORDS.youWon, { place, prize: prizeName(me.prize) }) : fill(WORDS.youFinished, { place }));
    }
  }
  return h('div', { class: ['banner', `banner-${t.status}`], dataset: { key: 'banner' } },
    h('p', {}, parts), buttons.length ? h('div', { class: 'item-actions' }, buttons) : null);
}

function places(t, me) {
  if (t.status !== 'finished' || !(t.places ?? []).length) return null;
  const sorted = [...t.places].sort((a, b) => a.place - b.place);
  return h('section', { class: 'panel', dataset: { key: 'places' } },
    h('h2', {}, WORDS.places),
    h('ol', { id: 'places', class: 'places' }, sorted.map((p) => h('li', {
      class: ['place', `place-${p.place}`, p.entrant === me && 'you'],
      dataset: { place: p.place, entrant: p.entrant },
    },
    h('span', { class: 'place-rank' }, placeName(p.place)),
    h('span', { class: 'place-name' }, entrantName(t, p.entrant),
      p.left ? h('span', { class: 'small muted' }, ' ', fill(WORDS.forPlayer, { name: entrantName(t, p.left) })) : null),
    p.prize ? h('span', { class: ['prize', p.prize] }, prizeName(p.prize)) : null,
    p.eliminated_in
      ? h('span', { class: 'small muted' }, fill(WORDS.outIn, { round: roundName(t, p.eliminated_in - 1) }))
      : null))));
}

function rounds(app, t, info) {
  if (!(t.rounds ?? []).length) return null;
  return h('div', { class: 'rounds', dataset: { key: 'rounds' } },
    t.rounds.map((tables, r) => h('section', { class: 'round panel', dataset: { round: r + 1, key: `r${r}` } },
      h('h2', {}, roundName(t, r)),
      h('div', { class: 'tables' }, tables.map((table, i) => tableCard(app, t, table, r, i, info))))));
}

function tableCard(app, t, table, round, index, info) {
  const done = table.winner !== null && table.winner !== undefined;
  const mine = info.mine && info.mine.round === round && info.mine.index === index;
  const team = (n) => fill(WORDS.pair, {
    a: entrantText(table.seats[n]), b: entrantText(table.seats[n + 2]),
  });
  const line = (n) => h('div', {
    class: ['tt-team', done && table.winner === n && 'won', done && table.winner !== n && 'lost',
      mine && `side-${teamSide({ seat: info.mine.seat }, n)}`],
    dataset: { team: n },
  },
  h('span', { class: 'tt-names' }, team(n)),
  h('span', { class: 'tt-total' }, String(table.totals?.[n] ?? 0)));
  const current = round === t.rounds.length - 1 && t.status === 'running';
  let action = null;
  if (table.room_id && !done && current && !mine) {
    action = h('button', { type: 'button', class: 'small', dataset: { watchRoom: table.room_id } }, WORDS.watch);
  } else if (table.room_id && mine && !done) {
    action = h('button', { type: 'button', class: 'small primary', dataset: { openMyTable: table.room_id } }, WORDS.open);
  }
  let state = WORDS.seatingTable;
  if (done) state = WORDS.finishedTable;
  else if (table.room_id) state = WORDS.playingTable;
  return h('div', {
    class: ['tt', mine && 'mine', done ? 'done' : 'live'],
    dataset: { roomId: table.room_id ?? '', table: index + 1, key: `t${round}-${index}` },
  },
  h('div', { class: 'tt-head' },
    h('h3', { class: 'tt-name' }, tableTitle(table.format ?? t.format, table.round ?? round + 1, table.table ?? index + 1)),
    mine ? h('span', { class: 'chip you' }, WORDS.yourTable) : null,
    h('span', { class: ['small', done ? 'muted' : 'live-dot'] }, state)),
  line(0), line(1),
  action ? h('div', { class: 'tt-actions' }, action) : null);
}

function registered(t, me) {
  if (t.status !== 'scheduled') return null;
  const list = t.registered ?? [];
  return h('section', { class: 'panel', dataset: { key: 'registered' } },
    h('h2', {}, fill(WORDS.registeredList, { count: list.length, size: t.size })),
    list.length
      ? h('ul', { class: 'chips' }, list.map((r) => h('li', { class: ['chip', r.id === me && 'you'] }, entrantText(r))))
      : h('p', { class: 'muted small' }, WORDS.nobody));
}
