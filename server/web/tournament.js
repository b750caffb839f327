// The tournament view: rounds and tables with live scores, your table, places and prizes.

import { $, h, patch } from './dom.js';
import { entrantLabel, entrantName, prizeName, roundName, tournamentInfo } from './state.js';
import { formatName, startText } from './lobby.js';

const STATUS_WORDS = {
  scheduled: 'Open for registration', running: 'Running', finished: 'Finished', cancelled: 'Cancelled',
};
const ORDINAL = ['', '1st', '2nd', '3rd', '4th', '5th'];

export function renderTournament(app) {
  const el = $('#tournament');
  const id = app.currentTournament;
  const t = app.tournaments.get(id) ?? app.lobby.tournaments[id];
  el.dataset.tournamentId = id ?? '';
  if (!t) {
    el.dataset.status = 'loading';
    patch(el, header(null), h('p', { class: 'muted' }, 'Loading the tournament…'));
    return;
  }
  el.dataset.status = t.status;
  const info = tournamentInfo(t, app.me);
  patch(el,
    header(t),
    h('p', { class: 'muted tournament-meta' },
      `${t.size} players · `,
      t.start_at && !t.start_when_full
        ? h('time', { datetime: new Date(t.start_at * 1000).toISOString() }, startText(t))
        : startText(t),
      ` · ${(t.registered ?? []).length} of ${t.size} registered`,
      t.fill_with_cpu ? ' · CPUs fill empty places' : '',
      ' · each table plays to 1001, the dealer names trump'),
    banner(app, t, info),
    places(t, app.me),
    rounds(app, t, info),
    registered(t, app.me));
}

function header(t) {
  return h('div', { class: 'tournament-head', dataset: { key: 'head' } },
    h('button', { type: 'button', class: 'ghost small', dataset: { go: 'lobby' } }, '‹ Lobby'),
    h('h1', {}, t ? formatName(t) : 'Tournament'),
    t ? h('span', { class: ['status-chip', t.status] }, STATUS_WORDS[t.status] ?? t.status) : null);
}

function banner(app, t, info) {
  const parts = [];
  const buttons = [];
  if (t.status === 'scheduled') {
    if (info.registered) {
      parts.push(h('strong', {}, 'You are registered.'), ` The tournament ${startText(t)}.`);
      buttons.push(h('button', { type: 'button', dataset: { tUnregister: t.id } }, 'Unregister'));
    } else {
      parts.push(`Register to play. The tournament ${startText(t)}.`);
      buttons.push(h('button', { type: 'button', class: 'primary', dataset: { tRegister: t.id } }, 'Register'));
    }
  } else if (t.status === 'running') {
    if (info.playing) {
      parts.push(h('strong', {}, `${roundName(t, info.mine.round)}: your table is being played.`));
      buttons.push(h('button', {
        type: 'button', id: 'my-table', class: 'primary', dataset: { myRoom: info.mine.table.room_id ?? '' },
        disabled: !info.mine.table.room_id,
      }, 'Open your table'));
    } else if (info.waiting) {
      parts.push(h('strong', {}, 'Your table has finished. '),
        info.through ? 'Well played: you are through to the next round. ' : 'You are out of the tournament. ',
        'The other tables are still playing: watch them below.');
    } else if (info.through) {
      parts.push(h('strong', {}, 'You are through: the next round is being seated.'));
    } else if (info.out) {
      parts.push('You are out of the tournament. You can still watch the other tables.');
    } else {
      parts.push(`${roundName(t, t.rounds.length - 1)} is being played. Watch any table below.`);
    }
    if (info.mine && (info.playing || info.through)) {
      buttons.push(h('button', { type: 'button', class: 'ghost small', dataset: { leaveTournament: t.id } }, 'Leave the tournament'));
    }
  } else if (t.status === 'cancelled') {
    parts.push(h('strong', {}, 'The tournament was cancelled'), t.reason ? `: ${t.reason}.` : '.');
  } else if (t.status === 'finished') {
    const me = (t.places ?? []).find((p) => p.entrant === app.me);
    parts.push(h('strong', {}, 'The tournament is over.'));
    if (me) {
      parts.push(` You finished ${ORDINAL[me.place] ?? `#${me.place}`}${me.prize ? `, winning the ${prizeName(me.prize)}` : ''}.`);
    }
  }
  return h('div', { class: ['banner', `banner-${t.status}`], dataset: { key: 'banner' } },
    h('p', {}, parts), buttons.length ? h('div', { class: 'item-actions' }, buttons) : null);
}

function places(t, me) {
  if (t.status !== 'finished' || !(t.places ?? []).length) return null;
  const sorted = [...t.places].sort((a, b) => a.place - b.place);
  return h('section', { class: 'panel', dataset: { key: 'places' } },
    h('h2', {}, 'Final places'),
    h('ol', { id: 'places', class: 'places' }, sorted.map((p) => h('li', {
      class: ['place', `place-${p.place}`, p.entrant === me && 'you'],
      dataset: { place: p.place, entrant: p.entrant },
    },
    h('span', { class: 'place-rank' }, ORDINAL[p.place] ?? `#${p.place}`),
    h('span', { class: 'place-name' }, entrantName(t, p.entrant),
      p.left ? h('span', { class: 'small muted' }, ` (for ${entrantName(t, p.left)})`) : null),
    p.prize ? h('span', { class: ['prize', p.prize] }, prizeName(p.prize)) : null,
    p.eliminated_in ? h('span', { class: 'small muted' }, ` out in ${roundName(t, p.eliminated_in - 1).toLowerCase()}`) : null))));
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
  const team = (n) => [table.seats[n], table.seats[n + 2]].map((s) => entrantLabel(s)).join(' & ');
  const line = (n) => h('div', {
    class: ['tt-team', done && table.winner === n && 'won', done && table.winner !== n && 'lost'],
    dataset: { team: n },
  },
  h('span', { class: 'tt-names' }, team(n)),
  h('span', { class: 'tt-total' }, String(table.totals?.[n] ?? 0)));
  const current = round === t.rounds.length - 1 && t.status === 'running';
  let action = null;
  if (table.room_id && !done && current && !mine) {
    action = h('button', { type: 'button', class: 'small', dataset: { watchRoom: table.room_id } }, 'Watch');
  } else if (table.room_id && mine && !done) {
    action = h('button', { type: 'button', class: 'small primary', dataset: { openMyTable: table.room_id } }, 'Open');
  }
  return h('div', {
    class: ['tt', mine && 'mine', done ? 'done' : 'live'],
    dataset: { roomId: table.room_id ?? '', table: index + 1, key: `t${round}-${index}` },
  },
  h('div', { class: 'tt-head' },
    h('span', { class: 'small muted' }, `Table ${index + 1}`),
    mine ? h('span', { class: 'chip you' }, 'your table') : null,
    h('span', { class: ['small', done ? 'muted' : 'live-dot'] }, done ? 'finished' : table.room_id ? 'playing' : 'seating…')),
  line(0), line(1),
  action ? h('div', { class: 'tt-actions' }, action) : null);
}

function registered(t, me) {
  if (t.status !== 'scheduled') return null;
  const list = t.registered ?? [];
  return h('section', { class: 'panel', dataset: { key: 'registered' } },
    h('h2', {}, `Registered (${list.length} of ${t.size})`),
    list.length
      ? h('ul', { class: 'chips' }, list.map((r) => h('li', { class: ['chip', r.id === me && 'you'] }, entrantLabel(r))))
      : h('p', { class: 'muted small' }, 'Nobody yet: be the first.'));
}
