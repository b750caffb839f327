// A club and its season (client_protocol.md §16): the organisers' screen and the public view.
//
// `app.club` is the state, changed only by the pure reducers below (no DOM); `renderClub`
// draws the #club screen from it: an organiser's code shows the members, the organisers, the
// season's rule and the links with their controls; every code shows the club's evenings and
// the season's standing (each player's evenings, the CSV). The server counts, ranks and
// awards: nothing here works out a score. The organisers' commands go one at a time, each on
// the version the one before made (commands.js): the version also moves when the club's
// evenings check people in. The clubs this device opened are remembered (`klaverjas.clubs`),
// so that the lobby lists them and an evening's console finds its club's members again.

import { $, h, patch, show } from './dom.js';
import { fill, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';
import { idleQueue, settled } from './commands.js';
import { absolute, field, linkItem, number, prizeFields, qrSource, select } from './evening.js';

const TEXT = strings('club', {
  // the lobby and the New club form
  button: 'Club',
  buttonDesc: 'Run a club: its members, its evenings and the season’s standing.',
  newTitle: 'New club',
  newDesc: 'You found it and run it: add members and co-organisers, hold its evenings, and the season’s standing adds up by your rule.',
  name: 'Name of the club',
  namePlaceholder: 'The Trump Card',
  found: 'Found the club',
  cancel: 'Cancel',
  yourClubs: 'Clubs opened on this device',
  // the screen's head
  organiser: 'Organiser',
  membersCount: { one: '{n} member', other: '{n} members' },
  eveningsCount: { one: '{n} evening', other: '{n} evenings' },
  tabs: 'Club',
  tab_standing: 'Standing',
  tab_evenings: 'Evenings',
  tab_members: 'Members',
  tab_season: 'Season',
  tab_share: 'Links', // the links and the organisers
  // the evenings
  newEvening: 'New evening for this club',
  noEvenings: 'No evening yet.',
  noEveningsOrganiser: 'No evening yet: start the club’s first one.',
  state_open: 'check-in, no round drawn yet',
  state_playing: 'round {drawn} of {rounds}',
  state_over: 'over',
  counted: 'in the season',
  entrants: { one: '{n} player', other: '{n} players' },
  open: 'Open', // an evening's button: its console for organisers, the players' view for the others
  openLabel: 'Open {name}', // the same, read out
  // the standing
  rank: '#',
  player: 'Player',
  score: 'Score',
  attended: 'Evenings',
  attendedShort: 'Ev.', // the attended column's head on a phone
  total: 'Total',
  noStanding: 'The standing shows once an evening of the club is over.',
  unranked: { one: 'Not ranked yet: fewer than {n} evening', other: 'Not ranked yet: fewer than {n} evenings' },
  prize: 'prize', // a chip: a place that wins a prize
  booby: 'booby prize', // a chip: the lowest score's prize
  champion: 'points champion', // read out after the ★ mark
  sharedRank: 'shared place',
  showHistory: '{name}: their evenings', // a player's name in the standing, a button, read out
  historyCounted: '{evening} ({date}): {total}', // an evening of a player's season, and their total
  historyDropped: '{evening} ({date}): {total}, dropped',
  historyAbsent: '{evening} ({date}): absent',
  legendChampion: '★ The points champion: the highest total of all their evenings, however many.',
  legendHistory: 'Tap a name to see each of their evenings.',
  csv: 'Download the standing (CSV)',
  ruleTitle: 'How the season counts',
  // the season's rule in words
  countAll: 'Every evening a player attends counts.',
  countBest: { one: 'Each player’s best evening counts.', other: 'Each player’s best {n} evenings count.' },
  countDrop: {
    one: 'Each player’s lowest evening is dropped, a missed one first; the others count.',
    other: 'Each player’s lowest {n} evenings are dropped, missed ones first; the others count.',
  },
  countBestPeriod: {
    one: 'In each period, each player’s best evening counts.',
    other: 'In each period, each player’s best {n} evenings count.',
  },
  countDropPeriod: {
    one: 'In each period, each player’s lowest evening is dropped, a missed one first.',
    other: 'In each period, each player’s lowest {n} evenings are dropped, missed ones first.',
  },
  periodsLength: {
    one: 'Each evening is a period of its own.',
    other: 'The evenings make periods of {n}, in date order.',
  },
  periodsStarts: 'Periods start on {dates}; evenings before {first} are not in this season.',
  bestPeriods: {
    one: 'Only each player’s best period counts (by its sum).',
    other: 'Only each player’s best {n} periods count (by their sums).',
  },
  scoreSum: 'A player’s score is the sum of the evenings counted.',
  scoreAverage: 'A player’s score is the average of the evenings counted.',
  averageNoMinimum: 'With an average, one good evening can top the standing: set a minimum attendance too.',
  minimumNone: 'Everyone who played an evening is ranked.',
  minimum: {
    one: 'A player needs {n} evening to be ranked.',
    other: 'A player needs {n} evenings to be ranked; the others are listed after them, unranked.',
  },
  prizesNone: 'No prizes.',
  prizesTop: { one: 'The best player wins a prize.', other: 'The top {n} places win a prize.' },
  prizesEvery: 'Then every {n}-th place wins one too.',
  prizesPer: 'At least one prize for every {n} ranked players.',
  prizesLowest: 'The lowest score among the ranked players wins the booby prize.',
  // the season's form
  seasonTitle: 'The season’s rule',
  seasonDesc: 'The standing is worked out again by the rule you save, over every evening of the club.',
  count: 'Which evenings count',
  count_all: 'every evening attended',
  count_best: 'each player’s best evenings',
  count_drop: 'all but the lowest evenings',
  best: 'Best evenings counted',
  drop: 'Lowest evenings dropped',
  average: 'Score: the average of the evenings counted, not their sum',
  periods: 'Periods',
  periods_none: 'none: the whole season at once',
  periods_length: 'a number of evenings each',
  periods_starts: 'from dates',
  periodLength: 'Evenings a period',
  periodStarts: 'Periods start on',
  periodStart: 'Period {n} starts on',
  addStart: 'Add a date',
  removeStart: 'Remove',
  removeStartLabel: 'Remove the start of period {n}',
  bestPeriodsLabel: 'Best periods counted (empty: every period)',
  minimumLabel: 'Evenings attended to be ranked (0: no minimum)',
  saveRule: 'Save the rule',
  resetRule: 'Undo my changes',
  ruleNow: 'What this rule means',
  // members
  membersTitle: 'Members',
  memberName: 'Name',
  addMember: 'Add',
  noMembers: 'No members yet. Add them here, or check them in at an evening: a new name becomes a member.',
  rename: 'Rename',
  renameLabel: 'Rename {name}',
  newName: 'New name for {name}',
  save: 'Save',
  keep: 'Cancel',
  remove: 'Remove',
  removeLabel: 'Remove {name}',
  removeTitle: 'Remove {name} from the club?',
  removeBody: '{name} leaves the members and the season’s standing; the evenings played stand as they were.',
  // organisers and links
  yourLinks: 'Links',
  forYou: 'Your organiser link: it runs the club (keep it to yourself)',
  forEveryone: 'The public link: the evenings and the standing, for members and anyone watching',
  qrView: 'QR code of the public link',
  organisersTitle: 'Organisers',
  organisersDesc: 'A co-organiser gets a link of their own that runs the club; revoke it and it opens nothing.',
  organiserName: 'Co-organiser’s name',
  addOrganiser: 'Add',
  founder: 'founder',
  you: 'you',
  theirLink: 'Link for {name}: hand it over',
  qrOrganiser: 'QR code of {name}’s link',
  qr: 'QR code',
  revoke: 'Revoke',
  revokeLabel: 'Revoke {name}',
  revokeTitle: 'Revoke {name}?',
  revokeBody: '{name}’s link opens nothing from now on. The evenings they run keep their own codes.',
});

const ORGANISER_VIEWS = ['standing', 'evenings', 'members', 'season', 'share'];
const PUBLIC_VIEWS = ['standing', 'evenings'];
const KEPT = 'klaverjas.clubs';
const KEEP = 12; // clubs remembered on this device

export function newClub() {
  return {
    code: null, // the code this page follows the club with
    asked: false, // this page asked for a club (create, open): its frames are taken
    shown: false, // ... to show its screen (else only to know its members: an evening's console)
    id: null,
    version: 0,
    role: null, // 'organiser' | 'view'
    organiser: null, // the follower's organiser id
    codes: {},
    name: '',
    organisers: [],
    members: [],
    evenings: [],
    season: null,
    standing: null,
    view: null, // the tab chosen (null: the one that fits)
    open: [], // members whose evenings are shown in the standing
    renaming: null, // the member being renamed
    draft: null, // the season's form as edited ({field: text}); null: the rule saved
    ...idleQueue(), // the organisers' commands (commands.js)
  };
}

// -- reducers --------------------------------------------------------------------------------

export const clubOpen = (code) => ({ type: 'club_open', code });
export const clubLeave = (code) => ({ type: 'club_leave', code });

// This page asks for a club by `code` (null: the one it founds); `shown`: to show its screen.
export function clubAsked(code = null, shown = true) {
  return { ...newClub(), code, asked: true, shown };
}

// The club as it stands (an older frame, or another club's, changes nothing). A season's
// rule that changed, or became the draft's, ends the form's draft; a member gone ends their
// rename.
export function clubFrame(s, f) {
  if (!s.asked || (s.id !== null && (s.id !== f.club_id || f.version < s.version))) return s;
  const ruleMoved = s.season !== null && !sameRule(s.season, f.season);
  const saved = s.draft !== null && sameRule(ruleOf(s.draft), f.season);
  const ids = new Set(f.members.map((m) => m.id));
  return {
    ...s, id: f.club_id, version: f.version, role: f.role, organiser: f.organiser, codes: f.codes,
    code: f.codes[f.role], name: f.name, organisers: f.organisers, members: f.members, evenings: f.evenings,
    season: f.season, standing: f.standing,
    draft: ruleMoved || saved ? null : s.draft,
    renaming: ids.has(s.renaming) ? s.renaming : null,
    open: s.open.filter((id) => ids.has(id)),
    sent: settled(s, f.version),
  };
}

// A name in the standing: its evenings shown, or hidden again.
export function toggleHistory(s, member) {
  return { ...s, open: s.open.includes(member) ? s.open.filter((m) => m !== member) : [...s.open, member] };
}

// The season's form as edited: each field's text (`period_start` a list of dates).
export function seasonDraft(s, form) {
  const f = form.elements;
  const starts = [...form.querySelectorAll('[name=period_start]')].map((input) => input.value);
  const draft = Object.fromEntries(['count', 'best', 'drop', 'periods', 'period_length', 'best_periods', 'minimum', 'top', 'every', 'per']
    .map((name) => [name, f[name].value]));
  return { ...s, draft: { ...draft, average: f.average.checked, lowest: f.lowest.checked, period_starts: starts } };
}

// A date more (or one fewer) for the periods' starts.
export function addStart(s) {
  const draft = s.draft ?? draftOf(s.season);
  return { ...s, draft: { ...draft, periods: 'starts', period_starts: [...draft.period_starts, ''] } };
}

export function removeStart(s, index) {
  const draft = s.draft ?? draftOf(s.season);
  return { ...s, draft: { ...draft, period_starts: draft.period_starts.filter((_, i) => i !== index) } };
}

// The form's text of a saved rule.
function draftOf(rule) {
  let count = 'all';
  if (rule.best !== null) count = 'best';
  else if (rule.drop) count = 'drop';
  let periods = 'none';
  if (rule.period_length) periods = 'length';
  else if (rule.period_starts.length) periods = 'starts';
  const text = (n) => (n === null || n === undefined ? '' : String(n));
  return {
    count, best: text(rule.best ?? 3), drop: text(rule.drop || 1), average: rule.average,
    periods, period_length: text(rule.period_length || 4), period_starts: [...rule.period_starts],
    best_periods: text(rule.best_periods), minimum: text(rule.minimum),
    top: text(rule.prizes.top), every: text(rule.prizes.every), per: text(rule.prizes.per), lowest: rule.prizes.lowest,
  };
}

// The rule a draft says (`club_season`'s fields): only what its choices use.
export function ruleOf(draft) {
  const whole = (text, fallback = 0) => (text.trim() === '' ? fallback : Math.max(0, Math.round(Number(text) || 0)));
  const starts = [...new Set(draft.period_starts.filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)))].sort();
  const periodic = (draft.periods === 'length' && whole(draft.period_length) > 0) || (draft.periods === 'starts' && starts.length > 0);
  return {
    best: draft.count === 'best' ? Math.max(1, whole(draft.best, 1)) : null,
    drop: draft.count === 'drop' ? whole(draft.drop) : 0,
    average: draft.average,
    period_length: draft.periods === 'length' ? whole(draft.period_length) : 0,
    period_starts: draft.periods === 'starts' ? starts : [],
    best_periods: periodic && whole(draft.best_periods, 0) > 0 ? whole(draft.best_periods) : null,
    minimum: whole(draft.minimum),
    prizes: {
      top: whole(draft.top), every: whole(draft.every), per: whole(draft.per), lowest: draft.lowest,
    },
  };
}

// Two season rules say the same.
function sameRule(a, b) {
  const fields = ['best', 'drop', 'average', 'period_length', 'best_periods', 'minimum'];
  return fields.every((k) => a[k] === b[k]) && a.period_starts.join() === b.period_starts.join()
    && ['top', 'every', 'per', 'lowest'].every((k) => a.prizes[k] === b.prizes[k]);
}

// The season's form's command fields: the rule it says as it stands.
export const seasonFields = (s, form) => ruleOf(seasonDraft(s, form).draft);

// -- remembered on this device ---------------------------------------------------------------

// The clubs this device opened, latest first: {id, name, code, role}.
export function keptClubs() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT) ?? '[]');
    return Array.isArray(kept) ? kept.filter((c) => c && c.id && c.code) : [];
  } catch {
    return [];
  }
}

function keepClubs(list) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(list.slice(0, KEEP)));
  } catch {
    // private mode: nothing is remembered
  }
}

// The club followed now, remembered first, by the best code this device has of it: an
// organiser's before the view's, unless `replace` (the follower's own code was revoked).
export function keepClub(s, replace = false) {
  if (!s.id) return;
  const kept = keptClubs();
  const before = kept.find((c) => c.id === s.id);
  const better = !replace && before?.role === 'organiser' && s.role !== 'organiser' ? before : s;
  keepClubs([{ id: s.id, name: s.name, code: better.code, role: better.role }, ...kept.filter((c) => c.id !== s.id)]);
}

// A code that opens no club any more (revoked): forgotten.
export function forgetCode(code) {
  keepClubs(keptClubs().filter((c) => c.code !== code));
}

// The code this device has of club `id`, if any.
export const keptCode = (id) => keptClubs().find((c) => c.id === id)?.code ?? null;

// -- confirmations (dialogs.js confirmStep) --------------------------------------------------

export function removeQuestion(s, member) {
  const name = s.members.find((m) => m.id === member)?.name ?? member;
  return {
    kind: 'remove_member', title: fill(TEXT.removeTitle, { name }), body: [fill(TEXT.removeBody, { name })],
    yes: TEXT.remove, no: TEXT.keep, danger: true,
  };
}

export function revokeQuestion(s, organiser) {
  const name = s.organisers.find((o) => o.id === organiser)?.name ?? organiser;
  return {
    kind: 'revoke', title: fill(TEXT.revokeTitle, { name }), body: [fill(TEXT.revokeBody, { name })],
    yes: TEXT.revoke, no: TEXT.keep, danger: true,
  };
}

// -- the lobby's button and the New club form ------------------------------------------------

export function fillClubButton() {
  $('#club-button').textContent = TEXT.button;
  $('#club-desc').textContent = TEXT.buttonDesc;
}

// The New club form, with the clubs this device opened before (a link each).
export function buildClubForm(form) {
  const kept = keptClubs();
  patch(form,
    h('h2', { id: 'cn-title' }, TEXT.newTitle),
    h('p', { class: 'muted small' }, TEXT.newDesc),
    field('cn-name', TEXT.name, h('input', { id: 'cn-name', name: 'name', required: true, maxlength: 40, placeholder: TEXT.namePlaceholder })),
    h('div', { class: 'form-actions' },
      h('button', { type: 'button', 'data-close-dialog': true }, TEXT.cancel),
      h('button', { type: 'submit', class: 'primary' }, TEXT.found)),
    kept.length ? h('section', { class: 'club-kept', dataset: { key: 'kept' } },
      h('h3', {}, TEXT.yourClubs),
      h('ul', { id: 'club-kept', class: 'list' }, kept.map((c) => h('li', { dataset: { club: c.id } },
        h('a', { href: clubPath(c.code), dataset: { openClub: c.code } }, c.name),
        c.role === 'organiser' ? h('span', { class: 'chip organiser' }, TEXT.organiser) : null)))) : null);
}

export const createClubMessage = (form) => ({ type: 'club_create', name: form.elements.name.value.trim() });

// -- what the club is now --------------------------------------------------------------------

const clubPath = (code) => `/?club=${encodeURIComponent(code)}`;
export const clubLink = (code) => absolute(clubPath(code));

// The tab shown: the one chosen, else the standing once there is one, else the evenings once
// there is one, else (organisers) the members.
export function shownView(s) {
  const views = s.role === 'organiser' ? ORGANISER_VIEWS : PUBLIC_VIEWS;
  if (views.includes(s.view)) return s.view;
  if (s.standing?.standing.length) return 'standing';
  return s.role === 'organiser' && !s.evenings.length ? 'members' : 'evenings';
}

function shortDay(day) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(currentLanguage(), {
    day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC',
  });
}

// The rule in words: one sentence each of what counts, the periods, the score, who is ranked
// and the prizes.
export function ruleWords(rule) {
  const periodic = Boolean(rule.period_length || rule.period_starts.length);
  const lines = [];
  if (rule.period_length) lines.push(plural(TEXT.periodsLength, rule.period_length));
  if (rule.period_starts.length) {
    const dates = new Intl.ListFormat(currentLanguage(), { type: 'conjunction' }).format(rule.period_starts.map(shortDay));
    lines.push(fill(TEXT.periodsStarts, { dates, first: shortDay(rule.period_starts[0]) }));
  }
  if (rule.best !== null) lines.push(plural(periodic ? TEXT.countBestPeriod : TEXT.countBest, rule.best));
  else if (rule.drop) lines.push(plural(periodic ? TEXT.countDropPeriod : TEXT.countDrop, rule.drop));
  else lines.push(TEXT.countAll);
  if (periodic && rule.best_periods !== null) lines.push(plural(TEXT.bestPeriods, rule.best_periods));
  lines.push(rule.average ? TEXT.scoreAverage : TEXT.scoreSum);
  lines.push(rule.minimum ? plural(TEXT.minimum, rule.minimum) : TEXT.minimumNone);
  if (rule.average && !rule.minimum) lines.push(TEXT.averageNoMinimum);
  const p = rule.prizes;
  if (!p.top && !p.every && !p.per && !p.lowest) lines.push(TEXT.prizesNone);
  if (p.top) lines.push(plural(TEXT.prizesTop, p.top));
  if (p.every) lines.push(fill(TEXT.prizesEvery, { n: p.every }));
  if (p.per) lines.push(fill(TEXT.prizesPer, { n: p.per }));
  if (p.lowest) lines.push(TEXT.prizesLowest);
  return lines;
}

// -- the screen ------------------------------------------------------------------------------

export function renderClub(app) {
  const s = app.club;
  const screen = $('#club');
  screen.dataset.role = s.role ?? '';
  screen.dataset.version = String(s.version);
  screen.dataset.clubId = s.id ?? '';
  if (!s.id) return;
  const organiser = s.role === 'organiser';
  const view = shownView(s);
  screen.dataset.view = view;
  $('#club-title').textContent = s.name;
  patch($('#club-head'), head(s, organiser));
  const views = organiser ? ORGANISER_VIEWS : PUBLIC_VIEWS;
  const tabs = $('#club-tabs');
  tabs.setAttribute('aria-label', TEXT.tabs);
  patch(tabs, views.map((v) => h('button', {
    type: 'button', role: 'tab', id: `club-tab-${v}`, 'aria-controls': `club-${v}`,
    'aria-selected': String(v === view), tabindex: v === view ? 0 : -1, dataset: { clubView: v, key: v },
  }, TEXT[`tab_${v}`])));
  for (const v of ORGANISER_VIEWS) show($(`#club-${v}`), v === view);
  if (view === 'standing') patch($('#club-standing'), standing(s));
  else if (view === 'evenings') patch($('#club-evenings'), evenings(s, organiser));
  else if (view === 'members') patch($('#club-members'), members(s));
  else if (view === 'season') patch($('#club-season'), season(s));
  else patch($('#club-share'), share(s));
}

function head(s, organiser) {
  return h('p', { class: 'evening-meta', dataset: { key: 'meta' } },
    organiser ? h('span', { class: 'chip organiser' }, TEXT.organiser) : null,
    h('span', {}, plural(TEXT.membersCount, s.members.length)),
    h('span', { 'aria-hidden': 'true' }, '·'),
    h('span', {}, plural(TEXT.eveningsCount, s.evenings.length)));
}

// -- the standing ----------------------------------------------------------------------------

function standing(s) {
  const st = s.standing;
  const rule = h('section', { id: 'club-rule', class: 'club-rule', dataset: { key: 'rule' } },
    h('h3', {}, TEXT.ruleTitle),
    h('ul', {}, ruleWords(s.season).map((line) => h('li', {}, line))));
  if (!st?.standing.length) return [h('p', { class: 'muted', dataset: { key: 'none' } }, TEXT.noStanding), rule];
  const ranks = st.standing.map((row) => row.rank).filter((r) => r !== null);
  const shared = (rank) => ranks.indexOf(rank) !== ranks.lastIndexOf(rank);
  const first = st.standing.findIndex((row) => !row.qualified);
  const rows = st.standing.flatMap((row, i) => [
    i === first && s.season.minimum ? h('tr', { class: 'club-unranked', dataset: { key: 'unranked' } },
      h('td', { colspan: 5 }, plural(TEXT.unranked, s.season.minimum))) : null,
    standingRow(s, row, shared),
    s.open.includes(row.member) ? historyRow(s, row) : null,
  ]);
  return [
    h('div', { class: 'board-table-wrap', dataset: { key: 'wrap' } },
      h('table', { id: 'club-standing-table', class: 'sheet-table club-standing-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, TEXT.rank),
          h('th', { scope: 'col' }, TEXT.player),
          h('th', { scope: 'col', class: 'num' }, TEXT.score),
          h('th', { scope: 'col', class: 'num', title: TEXT.attended },
            h('span', { class: 'wide' }, TEXT.attended), h('span', { class: 'narrow', 'aria-hidden': 'true' }, TEXT.attendedShort)),
          h('th', { scope: 'col', class: 'num' }, TEXT.total))),
        h('tbody', {}, rows))),
    h('div', { class: 'muted small evening-legend', dataset: { key: 'legend' } },
      h('p', {}, TEXT.legendHistory),
      st.standing.some((row) => row.points_champion) ? h('p', {}, TEXT.legendChampion) : null),
    h('p', { class: 'item-actions', dataset: { key: 'csv' } },
      h('a', {
        id: 'club-csv', class: 'button small', href: `/clubs/${encodeURIComponent(s.codes.view)}/season.csv`, download: 'season.csv',
      }, TEXT.csv)),
    rule,
  ];
}

function standingRow(s, row, shared) {
  const open = s.open.includes(row.member);
  return h('tr', {
    class: [row.prize && `prize-${row.prize}`, !row.qualified && 'unranked-row'],
    dataset: {
      member: row.member, rank: row.rank ?? '', qualified: String(row.qualified), prize: row.prize ?? '',
      champion: String(row.points_champion), score: row.score, attended: row.attended, total: row.total, key: row.member,
    },
  },
  h('td', { class: 'num rank' }, row.rank === null ? '–' : String(row.rank),
    row.rank !== null && shared(row.rank) ? h('span', { title: TEXT.sharedRank }, '=') : null),
  h('th', { scope: 'row', class: 'who' },
    h('button', {
      type: 'button', class: 'link who-button', dataset: { history: row.member }, 'aria-expanded': String(open),
      'aria-controls': `club-history-${row.member}`, 'aria-label': fill(TEXT.showHistory, { name: row.player }),
    }, row.player),
    row.points_champion ? h('span', { class: 'champion', title: TEXT.champion },
      h('span', { 'aria-hidden': 'true' }, '★'), h('span', { class: 'sr-only' }, ` (${TEXT.champion})`)) : null,
    row.prize === 'place' ? h('span', { class: 'chip prize' }, TEXT.prize) : null,
    row.prize === 'lowest' ? h('span', { class: 'chip booby' }, TEXT.booby) : null),
  h('td', { class: 'num score' }, h('strong', {}, row.score)),
  h('td', { class: 'num attended' }, String(row.attended)),
  h('td', { class: 'num total' }, String(row.total)));
}

function historyRow(s, row) {
  const names = new Map(s.evenings.map((e) => [e.id, e.name]));
  return h('tr', { class: 'club-history', id: `club-history-${row.member}`, dataset: { historyOf: row.member, key: `history-${row.member}` } },
    h('td', { colspan: 5 },
      h('ul', { class: 'chips' }, row.history.map((e, i) => {
        const what = { date: shortDay(e.date), evening: names.get(s.standing.evenings[i]) ?? '', total: e.total };
        let words = fill(TEXT.historyAbsent, what);
        if (e.status === 'counted') words = fill(TEXT.historyCounted, what);
        else if (e.status === 'dropped') words = fill(TEXT.historyDropped, what);
        return h('li', {
          class: ['chip', `history-${e.status}`], dataset: { date: e.date, status: e.status, total: e.total ?? '', key: i },
        }, words);
      }))));
}

// -- the evenings ----------------------------------------------------------------------------

function evenings(s, organiser) {
  const list = s.evenings.length
    ? h('ul', { id: 'club-evening-list', class: 'list club-evenings', dataset: { key: 'list' } },
      [...s.evenings].reverse().map((e) => {
        const code = organiser ? e.code ?? e.view_code : e.view_code;
        return h('li', { dataset: { evening: e.id, state: e.state, counted: String(e.counted), key: e.id } },
          h('div', { class: 'club-evening-what' },
            h('strong', {}, e.name),
            h('span', { class: 'muted small' },
              h('time', { datetime: e.date }, shortDay(e.date)), ' · ',
              fill(TEXT[`state_${e.state}`], { drawn: e.drawn, rounds: e.rounds }), ' · ',
              plural(TEXT.entrants, e.entrants)),
            e.counted ? h('span', { class: 'chip gold' }, TEXT.counted) : null),
          h('a', {
            class: 'button small', href: `/?evening=${encodeURIComponent(code)}`, dataset: { openEvening: code },
            'aria-label': fill(TEXT.openLabel, { name: e.name }),
          }, TEXT.open));
      }))
    : h('p', { class: 'muted', dataset: { key: 'none' } }, organiser ? TEXT.noEveningsOrganiser : TEXT.noEvenings);
  return [
    organiser ? h('p', { class: 'item-actions club-new-evening', dataset: { key: 'new' } },
      h('button', { type: 'button', id: 'club-new-evening', class: 'primary', 'aria-haspopup': 'dialog' }, TEXT.newEvening)) : null,
    list,
  ];
}

// -- members ---------------------------------------------------------------------------------

function members(s) {
  const form = h('form', { id: 'club-member-add', class: 'evening-check-in', autocomplete: 'off', dataset: { key: 'add' } },
    h('h2', {}, TEXT.membersTitle),
    h('label', { for: 'cm-name' }, TEXT.memberName),
    h('div', { class: 'row' },
      h('input', { id: 'cm-name', name: 'name', maxlength: 24, required: true }),
      h('button', { type: 'submit', class: 'primary' }, TEXT.addMember)));
  const list = s.members.length
    ? h('ul', { id: 'club-member-list', class: 'list evening-entrants club-member-list', dataset: { key: 'list' } },
      s.members.map((m) => (s.renaming === m.id ? renameForm(m) : h('li', { dataset: { member: m.id, key: m.id } },
        h('span', { class: 'entrant-name' }, m.name),
        h('button', { type: 'button', class: 'small ghost', dataset: { renameMember: m.id }, 'aria-label': fill(TEXT.renameLabel, { name: m.name }) }, TEXT.rename),
        h('button', {
          type: 'button', class: 'small danger-ghost', dataset: { removeMember: m.id }, 'aria-label': fill(TEXT.removeLabel, { name: m.name }),
        }, TEXT.remove)))))
    : h('p', { class: 'muted', dataset: { key: 'none' } }, TEXT.noMembers);
  return [form, list];
}

function renameForm(m) {
  const id = `cm-rename-${m.id}`;
  return h('li', { dataset: { member: m.id, key: `rename-${m.id}` } },
    h('form', { class: 'club-rename row', autocomplete: 'off', dataset: { member: m.id } },
      h('label', { for: id, class: 'sr-only' }, fill(TEXT.newName, { name: m.name })),
      h('input', { id, name: 'name', maxlength: 24, required: true, value: m.name }),
      h('button', { type: 'submit', class: 'primary small' }, TEXT.save),
      h('button', { type: 'button', class: 'small ghost', dataset: { renameCancel: m.id } }, TEXT.keep)));
}

// -- the season's rule -----------------------------------------------------------------------

function season(s) {
  const d = s.draft ?? draftOf(s.season);
  const rule = ruleOf(d);
  const counts = ['all', 'best', 'drop'].map((k) => [k, TEXT[`count_${k}`]]);
  const periods = ['none', 'length', 'starts'].map((k) => [k, TEXT[`periods_${k}`]]);
  const form = h('form', { id: 'club-season-form', class: 'club-season-form', autocomplete: 'off', novalidate: true, dataset: { key: 'form' } },
    h('h2', {}, TEXT.seasonTitle),
    h('p', { class: 'muted small' }, TEXT.seasonDesc),
    h('div', { class: 'grid2' },
      field('cs-count', TEXT.count, select('cs-count', 'count', counts, d.count)),
      h('div', { hidden: d.count !== 'best' }, field('cs-best', TEXT.best, number('cs-best', 'best', d.best, 1, 100, false))),
      h('div', { hidden: d.count !== 'drop' }, field('cs-drop', TEXT.drop, number('cs-drop', 'drop', d.drop, 0, 100, false)))),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'average', checked: d.average }), ' ', h('span', {}, TEXT.average)),
    h('div', { class: 'grid2' },
      field('cs-periods', TEXT.periods, select('cs-periods', 'periods', periods, d.periods)),
      h('div', { hidden: d.periods !== 'length' },
        field('cs-period-length', TEXT.periodLength, number('cs-period-length', 'period_length', d.period_length, 1, 100, false)))),
    h('fieldset', { class: 'club-starts', hidden: d.periods !== 'starts' },
      h('legend', {}, TEXT.periodStarts),
      h('ol', { class: 'list' }, d.period_starts.map((day, i) => h('li', { dataset: { key: `start-${i}` } },
        h('label', { for: `cs-start-${i}`, class: 'sr-only' }, fill(TEXT.periodStart, { n: i + 1 })),
        h('input', { id: `cs-start-${i}`, type: 'date', name: 'period_start', value: day }),
        h('button', {
          type: 'button', class: 'small ghost', dataset: { removeStart: i }, 'aria-label': fill(TEXT.removeStartLabel, { n: i + 1 }),
        }, TEXT.removeStart)))),
      h('button', { type: 'button', class: 'small', dataset: { addStart: '' } }, TEXT.addStart)),
    h('div', { hidden: d.periods === 'none' },
      field('cs-best-periods', TEXT.bestPeriodsLabel, number('cs-best-periods', 'best_periods', d.best_periods, 1, 100, false))),
    field('cs-minimum', TEXT.minimumLabel, number('cs-minimum', 'minimum', d.minimum, 0, 100, false)),
    prizeFields('cs', { top: d.top, every: d.every, per: d.per, lowest: d.lowest }, false),
    h('section', { id: 'club-season-explain', class: 'club-explain', 'aria-live': 'polite' },
      h('h3', {}, TEXT.ruleNow),
      h('ul', {}, ruleWords(rule).map((line) => h('li', {}, line)))),
    h('div', { class: 'form-actions' },
      s.draft ? h('button', { type: 'button', id: 'club-season-reset', class: 'ghost' }, TEXT.resetRule) : null,
      h('button', { type: 'submit', class: 'primary' }, TEXT.saveRule)));
  return [form];
}

// -- organisers and links --------------------------------------------------------------------

function share(s) {
  const mine = s.codes.organiser;
  return [
    h('h2', { dataset: { key: 'links-title' } }, TEXT.yourLinks),
    h('ul', { id: 'club-links', class: 'list sheet-links', dataset: { key: 'links' } },
      mine ? linkItem('organiser', TEXT.forYou, clubLink(mine)) : null,
      linkItem('view', TEXT.forEveryone, clubLink(s.codes.view))),
    h('figure', { class: 'evening-qr', dataset: { key: 'qr' } },
      h('img', { id: 'club-qr', src: qrSource(clubLink(s.codes.view)), alt: TEXT.qrView, width: 200, height: 200 }),
      h('figcaption', { class: 'small muted' }, TEXT.qrView)),
    h('h2', { class: 'club-organisers-title', dataset: { key: 'organisers-title' } }, TEXT.organisersTitle),
    h('p', { class: 'muted small', dataset: { key: 'organisers-desc' } }, TEXT.organisersDesc),
    h('form', { id: 'club-organiser-add', class: 'evening-check-in', autocomplete: 'off', dataset: { key: 'add' } },
      h('label', { for: 'co-name' }, TEXT.organiserName),
      h('div', { class: 'row' },
        h('input', { id: 'co-name', name: 'name', maxlength: 24, required: true }),
        h('button', { type: 'submit', class: 'primary' }, TEXT.addOrganiser))),
    h('ul', { id: 'club-organiser-list', class: 'list club-organisers', dataset: { key: 'list' } },
      s.organisers.map((o) => organiserItem(s, o))),
  ];
}

// An organiser: their name, founder or you, and (when this page may see it) their link to
// hand over, with its QR code; a co-organiser who is not you can be revoked.
function organiserItem(s, o) {
  const you = o.id === s.organiser;
  const link = o.code && !you ? clubLink(o.code) : null;
  return h('li', { dataset: { organiser: o.id, founder: String(o.founder), key: o.id } },
    h('div', { class: 'club-organiser-who' },
      h('strong', { class: 'entrant-name' }, o.name),
      o.founder ? h('span', { class: 'chip gold' }, TEXT.founder) : null,
      you ? h('span', { class: 'chip you' }, TEXT.you) : null,
      !o.founder && !you ? h('button', {
        type: 'button', class: 'small danger-ghost', dataset: { revoke: o.id }, 'aria-label': fill(TEXT.revokeLabel, { name: o.name }),
      }, TEXT.revoke) : null),
    link ? h('ul', { class: 'list sheet-links' }, linkItem('organiser', fill(TEXT.theirLink, { name: o.name }), link,
      h('details', { class: 'table-qr' },
        h('summary', {}, TEXT.qr),
        h('img', {
          class: 'qr', src: qrSource(link), alt: fill(TEXT.qrOrganiser, { name: o.name }), width: 160, height: 160, loading: 'lazy',
        })))) : null);
}
