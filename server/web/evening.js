// A club evening (client_protocol.md §15): the organiser's console and the players' view.
//
// `app.evening` is the state, changed only by the pure reducers below (no DOM); `renderEvening`
// draws the #evening screen from it: the organiser's code shows everything with its controls
// (check-in, draws, swaps, closing rounds, penalties, the links), the view code the standing,
// the round's tables with their live totals and the fairness of the draws. The server draws,
// scores and ranks: nothing here works out a table, a score or a rank. The organiser's
// commands go one at a time, each on the version the last one made (commands.js), so that
// names checked in quickly one after another are all taken. At a club's evening (§16) whose
// club this page follows (`app.club`, club.js), the check-in shows the club's members not here
// yet, one tap each. A table's sheet says where it sits (`renderSheetEvening`: the sheet's
// `evening`, client_protocol.md §14).

import { $, h, patch, show } from './dom.js';
import { fill, fillParts, plural } from './fill.js';
import { strings } from './i18n.js';
import { rulesCatalog } from './catalog.js';
import { optionWord, rulesText, setEndLimits } from './lobby.js';
import { idleQueue, pending, settled } from './commands.js';

const TEXT = strings('evening', {
  // the lobby and the New club evening form
  button: 'Club evening',
  buttonDesc: 'Organise an evening of real tables: check-in, draws, each table’s score sheet, the standing live.',
  newTitle: 'New club evening',
  newDesc: 'You run it: players check in, you draw each round’s tables, each table keeps score on its own sheet, and everyone follows the standing.',
  name: 'Name of the evening',
  namePlaceholder: 'Friday club evening',
  format: 'Format',
  formatDesc: 'Individual: partners are drawn anew each round. Pairs: fixed pairs that move from table to table.',
  rounds: 'Rounds',
  variant: 'Trump when you cannot follow suit',
  playTo: 'Each round plays to',
  aNumberOfDeals: 'a number of deals',
  aNumberOfPoints: 'a number of points',
  pitBonus: 'Pit bonus (100)',
  sitOut: 'Sitting a round out scores',
  sitOut_round_average: 'the round’s average score',
  sitOut_round_lowest: 'the round’s lowest score',
  sitOut_evening_lowest: 'the evening’s lowest score',
  sitOut_fixed: 'a fixed number of points',
  sitOutPoints: 'Points for sitting out',
  prizes: 'Prizes',
  prizeTop: 'Top places',
  prizeEvery: 'Then every n-th place (0: none)',
  prizePer: 'At least one prize per n players (0: no rule)',
  prizeLowest: 'A prize for the lowest score (the booby prize)',
  start: 'Start the evening',
  cancel: 'Cancel',
  // the screen's head and the round's controls
  organiser: 'Organiser',
  individual: 'Individual',
  pairs: 'Pairs',
  roundsLine: { one: '{format} · {n} round', other: '{format} · {n} rounds' },
  noRound: 'No round drawn yet.',
  roundOpen: 'Round {round} of {rounds} is being played: {done} of {tables} tables finished.',
  roundClosed: 'Round {round} of {rounds} is closed.',
  allPlayed: 'All {rounds} rounds are played.',
  here: { one: '{n} player here', other: '{n} players here' },
  pairsHere: { one: '{n} pair here', other: '{n} pairs here' },
  draw: 'Draw round {round}',
  close: 'Close round {round}',
  undo: 'Undo the draw',
  undoStarted: 'A table has entered a deal: close the round instead',
  // tabs
  tabs: 'Club evening',
  tab_players: 'Check-in',
  tab_tables: 'Tables',
  tab_standing: 'Standing',
  tab_fairness: 'Fairness',
  tab_share: 'Links',
  // check-in
  checkInTitle: 'Check in',
  playerName: 'Name',
  pairName: 'Name of the pair',
  member1: 'Player 1',
  member2: 'Player 2',
  checkIn: 'Check in',
  lateNote: 'Who checks in now plays from the next round.',
  nobodyYet: 'Nobody has checked in yet.',
  withdraw: 'Withdraw',
  withdrawLabel: 'Withdraw {name}',
  left: 'left', // a chip: an entrant who withdrew
  fromRound: 'from round {round}', // a chip: a late arrival plays from this round
  members: '{a} & {b}', // a pair's two players
  // confirmations
  withdrawTitle: 'Withdraw {name}?',
  withdrawBody: '{name} is left out of the next draws; the rounds played stand.',
  closeTitle: 'Close round {round}?',
  closeAllDone: 'Every table has finished its game.',
  closeMissing: 'Table {table}: nothing entered: its players score 0 this round.',
  closeUnfinished: { one: 'Table {table}: not finished ({n} deal entered): what is entered counts.', other: 'Table {table}: not finished ({n} deals entered): what is entered counts.' },
  closeFinal: 'A closed round cannot be opened again.',
  undoTitle: 'Undo the draw of round {round}?',
  undoBody: 'This round’s tables and their codes are thrown away; the next draw draws the round again.',
  keep: 'Cancel',
  // the tables
  roundHeading: 'Round {round}',
  roundHeadingClosed: 'Round {round} (closed)',
  table: 'Table {table}',
  seatN: 'N', // a seat at the table: north (deals first), east, south, west
  seatE: 'E',
  seatS: 'S',
  seatW: 'W',
  seatNorth: 'North',
  seatEast: 'East',
  seatSouth: 'South',
  seatWest: 'West',
  partners: 'Partners', // read out before a team's two seats
  state_waiting: 'no deals yet',
  state_playing: { one: '{n} deal entered', other: '{n} deals entered' },
  state_finished: 'finished',
  state_unfinished: 'not finished',
  state_missing: 'nothing entered',
  code: 'Code {code}', // a table's code (its players open its sheet with it)
  openSheet: 'Open the sheet',
  watchSheet: 'Watch the sheet',
  qr: 'QR code',
  qrTable: 'QR code of table {table}’s sheet',
  sittingOut: 'Sitting out',
  sittingOutNone: 'Nobody sits out.',
  sitOutNow: 'Sitting out scores {points} points this round, as it stands.',
  pickHelp: 'To swap two players, tap both names, then Swap (only at tables that have not entered a deal).',
  pickHelpPairs: 'To swap two pairs, tap both names, then Swap (only at tables that have not entered a deal).',
  pickLabel: 'Choose {name} to swap',
  swap: 'Swap {a} and {b}',
  swapNone: 'Swap',
  clearPicks: 'Clear',
  // the standing
  rank: '#',
  player: 'Player',
  pair: 'Pair',
  total: 'Total',
  roundShort: 'R{round}', // a round's column in the standing
  roundLong: 'Round {round}',
  noStanding: 'The standing shows once a round is drawn.',
  prize: 'prize', // a chip: a place that wins a prize
  booby: 'booby prize', // a chip: the lowest score's prize
  sharedRank: 'shared place',
  mark_playing: 'still being played',
  mark_unfinished: 'table closed unfinished',
  mark_missing: 'nothing entered',
  mark_sat_out: 'sat out',
  markShort_sat_out: 'S', // after a sit-out's points
  markShort_unfinished: '*',
  markShort_missing: '–',
  markShort_playing: '…',
  legendSatOut: 'S: sat out (round {round}: {points} points).',
  legendMarks: '…: still being played · *: table closed unfinished · –: nothing entered.',
  prizePlaces: 'Prizes: places {places}.',
  prizePlacesBooby: 'Prizes: places {places}, and the booby prize.',
  penaltyTitle: 'Penalty for a revoke',
  penaltyDesc: 'The points come off that player’s own score for the round; the deal itself goes to the other team on the table’s sheet.',
  penaltyPlayer: 'Player',
  penaltyPoints: 'Points',
  penaltyRound: 'Round',
  charge: 'Charge the penalty',
  // fairness
  partnerRepeats: 'Repeated partners: {n}',
  opponentRepeats: 'Repeated opponents: {n}',
  sitOutSpread: 'Sit-out spread: {n} (the most sit-outs of anyone minus the fewest)',
  together: { one: '{a} and {b}: {n} round together', other: '{a} and {b}: {n} rounds together' },
  against: { one: '{a} against {b}: {n} round', other: '{a} against {b}: {n} rounds' },
  sitOuts: 'Sit-outs per player',
  sitOutCount: '{name}: {n}',
  noDraws: 'Nothing drawn yet.',
  // links
  forOrganisers: 'For organisers (check-in, draws, closing rounds)',
  forPlayers: 'For the players (the standing and the tables, live)',
  copyLink: 'Copy link',
  qrView: 'QR code of the players’ link',
  wall: 'The screen on the wall',
  printDraw: 'Printable draw',
  printResults: 'Printable results',
  // a table's sheet
  sheetWhere: '{evening} · round {round}, table {table}',
  toStanding: 'The evening’s standing ›',
});

// The console at a club's evening (client_protocol.md §16): its members checked in with a tap.
const CLUB = strings('club.evening', {
  newTitle: 'New evening of {club}', // the New club evening form, opened from a club's screen
  members: 'Members of {club}', // the club's members not here yet, a button each
  membersHelp: 'Tap a member to check them in. A name that is no member’s makes a new member.',
  allHere: 'Every member is here.',
  noneMatch: 'No member’s name has “{text}”: Check in makes them a new member.',
  checkInMember: 'Check in {name}', // a member's button, read out
  nameHelp: 'A member’s name checks that member in; any other name becomes a new member of the club.',
  back: '‹ {club}', // back to the club's screen
  backLabel: 'Back to {club}', // the same, read out
});

const ORGANISER_VIEWS = ['players', 'tables', 'standing', 'fairness', 'share'];
const PLAYER_VIEWS = ['tables', 'standing', 'fairness'];
const SEATS = ['N', 'E', 'S', 'W'];
const SEAT_NAMES = ['North', 'East', 'South', 'West'];

export function newEvening() {
  return {
    code: null, // the code this page follows the evening with (its link)
    asked: false, // this page asked for an evening (create, open): its frames are shown
    role: null, // 'organiser' | 'view'
    id: null,
    version: 0,
    codes: {}, // the codes this page may show: view, and organiser for organisers
    evening: null, // settings, entrants, rounds drawn (client_protocol.md §15)
    tables: [], // the latest round's tables, with their live totals
    standing: null,
    fairness: null,
    view: null, // the tab chosen (null: the one that fits the evening's moment)
    picked: [], // entrants chosen for a swap (organisers), at most two
    filter: '', // the check-in's name as typed: the club's members it matches show
    ...idleQueue(), // the organisers' commands (commands.js)
  };
}

// -- reducers --------------------------------------------------------------------------------

export const openMessage = (code) => ({ type: 'evening_open', code });

// This page asks for an evening by `code` (null: the one it creates).
export function eveningAsked(code = null) {
  return { ...newEvening(), code, asked: true };
}

// The evening as it stands (an older one trailing in, or another evening's, changes
// nothing; a table's new deal keeps the version). The command on its way went in once the
// version moved past it (commands.js).
export function eveningFrame(s, f) {
  if (!s.asked || (s.id !== null && (s.id !== f.evening_id || f.version < s.version))) return s;
  const open = openRound(f.evening);
  const inRound = new Set(open ? [...open.tables.flatMap((t) => t.entrants), ...open.sitting_out] : []);
  return {
    ...s, id: f.evening_id, version: f.version, role: f.role, codes: f.codes, code: f.codes[f.role],
    evening: f.evening, tables: f.tables, standing: f.standing, fairness: f.fairness,
    picked: s.picked.filter((id) => inRound.has(id)),
    sent: settled(s, f.version),
  };
}

// Tap a name to swap it (again: not any more); a third name replaces the first.
export function pickEntrant(s, id) {
  if (s.picked.includes(id)) return { ...s, picked: s.picked.filter((p) => p !== id) };
  return { ...s, picked: [...s.picked, id].slice(-2) };
}

// -- what the evening is now ----------------------------------------------------------------

const openRound = (evening) => {
  const last = evening?.drawn.at(-1);
  return last && !last.closed ? last : null;
};

const isOver = (evening) => evening.drawn.length >= evening.rounds && !openRound(evening);

function entrantsById(evening) {
  return new Map(evening.entrants.map((e) => [e.id, e]));
}

function nameOf(byId, id) {
  return byId.get(id)?.name ?? id;
}

// The tab shown: the one chosen, else check-in before a round is drawn, the tables after.
export function shownView(s) {
  const views = s.role === 'organiser' ? ORGANISER_VIEWS : PLAYER_VIEWS;
  if (views.includes(s.view)) return s.view;
  if (s.role === 'organiser' && !openRound(s.evening) && !isOver(s.evening)) return 'players';
  return s.role === 'organiser' || s.evening?.drawn.length ? 'tables' : 'standing';
}

// A table's state: from the standing once its round is closed, else from its sheet.
function tableState(s, table) {
  const round = s.standing?.rounds.find((r) => r.number === table.round);
  if (round?.closed) return round.tables.find((t) => t.table === table.table)?.state ?? 'missing';
  if (table.finished) return 'finished';
  return table.deals ? 'playing' : 'waiting';
}

function stateWords(state, deals) {
  const words = TEXT[`state_${state}`];
  return typeof words === 'object' ? plural(words, deals) : words;
}

// -- confirmations (dialogs.js confirmStep) --------------------------------------------------

export function withdrawQuestion(s, id) {
  const name = nameOf(entrantsById(s.evening), id);
  return {
    kind: 'withdraw', title: fill(TEXT.withdrawTitle, { name }), body: [fill(TEXT.withdrawBody, { name })],
    yes: TEXT.withdraw, no: TEXT.keep, danger: true,
  };
}

// Closing a round says which tables have not finished, and what they count.
export function closeQuestion(s) {
  const round = openRound(s.evening)?.number;
  const lines = s.tables.filter((t) => !t.finished).map((t) => (t.deals
    ? plural(TEXT.closeUnfinished, t.deals, { table: t.table })
    : fill(TEXT.closeMissing, { table: t.table })));
  return {
    kind: 'close', title: fill(TEXT.closeTitle, { round }),
    body: [...(lines.length ? lines : [TEXT.closeAllDone]), TEXT.closeFinal],
    yes: fill(TEXT.close, { round }), no: TEXT.keep, danger: lines.length > 0,
  };
}

export function undoQuestion(s) {
  const round = openRound(s.evening)?.number;
  return {
    kind: 'undo_draw', title: fill(TEXT.undoTitle, { round }), body: [TEXT.undoBody],
    yes: TEXT.undo, no: TEXT.keep, danger: true,
  };
}

// -- forms -----------------------------------------------------------------------------------

// The check-in form's fields (null: nothing typed).
export function checkInFields(form) {
  const f = form.elements;
  const name = f.name.value.trim();
  if (!name) return null;
  if (!f.member1) return { name };
  return { name, members: [f.member1.value.trim(), f.member2.value.trim()] };
}

export function penaltyFields(form) {
  const f = form.elements;
  return { entrant: f.entrant.value, points: Math.round(Number(f.points.value)), round: Number(f.round.value) };
}

// The evening_create message from the New club evening form.
export function createEveningMessage(form) {
  const f = form.elements;
  const whole = (field) => Math.round(Number(field.value) || 0);
  const fixed = f.sit_out.value === 'fixed';
  return {
    type: 'evening_create',
    name: f.name.value.trim(),
    format: f.format.value,
    rounds: whole(f.rounds),
    variant: f.variant.value,
    [f.end.value === 'deals' ? 'deals' : 'target']: whole(f.end_value),
    pit_bonus: f.pit_bonus.value,
    sit_out: { kind: f.sit_out.value, points: fixed ? whole(f.sit_out_points) : 0 },
    prizes: prizesOf(form),
    ...(form.dataset.club ? { club: form.dataset.club } : {}),
  };
}

// The New club evening form makes an evening of the club `club` ({code, name}: an organiser's
// code of it; null: of no club), and its title says which.
export function setEveningClub(form, club) {
  if (club) form.dataset.club = club.code;
  else delete form.dataset.club;
  const title = form.querySelector('#en-title');
  if (title) title.textContent = club ? fill(CLUB.newTitle, { club: club.name }) : TEXT.newTitle;
}

// The lobby's button and its words (the form is built once the catalog came).
export function fillEveningButton() {
  $('#evening-button').textContent = TEXT.button;
  $('#evening-desc').textContent = TEXT.buttonDesc;
}

// Form pieces the organisers' forms share (club.js too): a labelled field, a whole number, a
// choice of [value, words].
export function field(id, label, control, extra = null) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, extra);
}

export function number(id, name, value, min, max, required = true) {
  return h('input', { id, name, type: 'number', inputmode: 'numeric', value, min, max, required });
}

export function select(id, name, options, chosen = null) {
  return h('select', { id, name }, options.map(([value, words]) => h('option', { value, selected: value === chosen }, words)));
}

// Which places win (an evening's prizes, folded away; a season's, shown): `prefix` keeps the
// fields' ids apart.
export function prizeFields(prefix, prizes = { top: 3, every: 0, per: 0, lowest: true }, folded = true) {
  return h(folded ? 'details' : 'fieldset', { class: 'evening-prizes', dataset: { key: 'prizes' } },
    h(folded ? 'summary' : 'legend', {}, TEXT.prizes),
    h('div', { class: 'grid3' },
      field(`${prefix}-top`, TEXT.prizeTop, number(`${prefix}-top`, 'top', prizes.top, 0, 100)),
      field(`${prefix}-every`, TEXT.prizeEvery, number(`${prefix}-every`, 'every', prizes.every, 0, 100)),
      field(`${prefix}-per`, TEXT.prizePer, number(`${prefix}-per`, 'per', prizes.per, 0, 100))),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'lowest', checked: prizes.lowest }), ' ',
      h('span', {}, TEXT.prizeLowest)));
}

// The prize fields' values.
export function prizesOf(form) {
  const f = form.elements;
  const whole = (name) => Math.round(Number(f[name].value) || 0);
  return { top: whole('top'), every: whole('every'), per: whole('per'), lowest: f.lowest.checked };
}

// The New club evening form, its choices from the catalog (GET /rules).
export function buildEveningForm(form) {
  const catalog = rulesCatalog();
  const variants = catalog.options.variant.values.map((v) => [v, optionWord('variant', v)]);
  const pits = catalog.options.pit_bonus.values.map((v) => [v, optionWord('pit_bonus', v)]);
  const sitOuts = ['round_average', 'round_lowest', 'evening_lowest', 'fixed'].map((k) => [k, TEXT[`sitOut_${k}`]]);
  form.replaceChildren(
    h('h2', { id: 'en-title' }, TEXT.newTitle),
    h('p', { class: 'muted small' }, TEXT.newDesc),
    field('en-name', TEXT.name, h('input', {
      id: 'en-name', name: 'name', required: true, maxlength: 40, placeholder: TEXT.namePlaceholder,
    })),
    field('en-format', TEXT.format, select('en-format', 'format', [['individual', TEXT.individual], ['pairs', TEXT.pairs]]),
      h('p', { class: 'muted small field-desc' }, TEXT.formatDesc)),
    field('en-end', TEXT.playTo, select('en-end', 'end', [['deals', TEXT.aNumberOfDeals], ['target', TEXT.aNumberOfPoints]])),
    h('div', { class: 'grid2' },
      field('en-end-value', '', number('en-end-value', 'end_value', 16, 1, 100)),
      field('en-rounds', TEXT.rounds, number('en-rounds', 'rounds', 3, 1, 12))),
    field('en-variant', TEXT.variant, select('en-variant', 'variant', variants)),
    field('en-pit', TEXT.pitBonus, select('en-pit', 'pit_bonus', pits)),
    field('en-sit-out', TEXT.sitOut, select('en-sit-out', 'sit_out', sitOuts)),
    field('en-sit-out-points', TEXT.sitOutPoints, number('en-sit-out-points', 'sit_out_points', 0, 0, 10000)),
    prizeFields('en'),
    h('div', { class: 'form-actions' },
      h('button', { type: 'button', 'data-close-dialog': true }, TEXT.cancel),
      h('button', { type: 'submit', class: 'primary' }, TEXT.start)),
  );
  form.elements.pit_bonus.value = catalog.options.pit_bonus.default;
  setEndLimits(form, 16);
  syncEveningForm(form);
}

// The fixed sit-out points are asked only for that rule.
export function syncEveningForm(form) {
  const points = form.elements.sit_out_points;
  show(points.closest('.field'), form.elements.sit_out.value === 'fixed');
}

// -- the screen ------------------------------------------------------------------------------

export function renderEvening(app) {
  const s = app.evening;
  const club = s.evening?.club && app.club.id === s.evening.club ? app.club : null; // followed by this page
  const screen = $('#evening');
  screen.dataset.role = s.role ?? '';
  screen.dataset.version = String(s.version);
  screen.dataset.eveningId = s.id ?? '';
  const evening = s.evening;
  if (!evening) return;
  const organiser = s.role === 'organiser';
  const byId = entrantsById(evening);
  const view = shownView(s);
  screen.dataset.view = view;
  $('#evening-title').textContent = evening.name;
  patch($('#evening-head'), head(evening, organiser, club));
  patch($('#evening-actions'), actions(s, organiser));
  const views = organiser ? ORGANISER_VIEWS : PLAYER_VIEWS;
  const tabs = $('#evening-tabs');
  tabs.setAttribute('aria-label', TEXT.tabs);
  patch(tabs, views.map((v) => h('button', {
    type: 'button', role: 'tab', id: `evening-tab-${v}`, 'aria-controls': `evening-${v}`,
    'aria-selected': String(v === view), tabindex: v === view ? 0 : -1, dataset: { eveningView: v, key: v },
  }, TEXT[`tab_${v}`])));
  for (const v of ORGANISER_VIEWS) show($(`#evening-${v}`), v === view);
  if (view === 'players') patch($('#evening-players'), players(s, byId, club));
  else if (view === 'tables') patch($('#evening-tables'), tables(s, byId, organiser));
  else if (view === 'standing') patch($('#evening-standing'), standing(s, byId, organiser));
  else if (view === 'fairness') patch($('#evening-fairness'), fairness(s, byId));
  else patch($('#evening-share'), share(s));
}

function head(evening, organiser, club) {
  const format = evening.format === 'pairs' ? TEXT.pairs : TEXT.individual;
  return [
    h('p', { class: 'evening-meta', dataset: { key: 'meta' } },
      club ? h('button', {
        type: 'button', id: 'evening-club', class: 'small ghost', dataset: { openClub: club.code },
        'aria-label': fill(CLUB.backLabel, { club: club.name }),
      }, fill(CLUB.back, { club: club.name })) : null,
      organiser ? h('span', { class: 'chip organiser' }, TEXT.organiser) : null,
      h('span', {}, plural(TEXT.roundsLine, evening.rounds, { format }))),
    h('p', { class: 'muted small', dataset: { key: 'rules' } }, rulesText(evening.rules)),
  ];
}

// Where the evening stands, and (organisers) the round's buttons.
function actions(s, organiser) {
  const evening = s.evening;
  const open = openRound(evening);
  const last = evening.drawn.at(-1);
  const present = evening.entrants.filter((e) => !e.withdrawn).length;
  let state = 'none';
  let words = TEXT.noRound;
  if (open) {
    state = 'open';
    words = fill(TEXT.roundOpen, {
      round: open.number, rounds: evening.rounds, tables: s.tables.length, done: s.tables.filter((t) => t.finished).length,
    });
  } else if (isOver(evening)) {
    state = 'over';
    words = fill(TEXT.allPlayed, { rounds: evening.rounds });
  } else if (last) {
    state = 'closed';
    words = fill(TEXT.roundClosed, { round: last.number, rounds: evening.rounds });
  }
  const next = evening.drawn.length + 1;
  const started = s.tables.some((t) => t.deals > 0);
  return [
    h('p', { id: 'evening-round', role: 'status', dataset: { key: 'round', round: last?.number ?? 0, state } },
      h('strong', {}, words), ' ',
      h('span', { class: 'muted' }, plural(evening.format === 'pairs' ? TEXT.pairsHere : TEXT.here, present))),
    organiser ? h('div', { class: 'evening-buttons', dataset: { key: 'buttons' } },
      !open && state !== 'over'
        ? h('button', { type: 'button', id: 'evening-draw', class: 'primary' }, fill(TEXT.draw, { round: next })) : null,
      open ? h('button', { type: 'button', id: 'evening-close', class: 'primary' }, fill(TEXT.close, { round: open.number })) : null,
      open ? h('button', {
        type: 'button', id: 'evening-undo', class: 'danger-ghost', disabled: started, title: started ? TEXT.undoStarted : null,
      }, TEXT.undo) : null) : null,
  ];
}

// -- check-in --------------------------------------------------------------------------------

function players(s, byId, club) {
  const evening = s.evening;
  const open = openRound(evening);
  const pairs = evening.format === 'pairs';
  const inRound = new Set(open ? [...open.tables.flatMap((t) => t.entrants), ...open.sitting_out] : []);
  const form = h('form', { id: 'evening-check-in', class: 'evening-check-in', autocomplete: 'off', dataset: { key: `form-${evening.format}` } },
    h('h2', {}, TEXT.checkInTitle),
    pairs
      ? h('div', { class: 'grid3' },
        field('ec-name', TEXT.pairName, h('input', { id: 'ec-name', name: 'name', maxlength: 24, required: true })),
        field('ec-member1', TEXT.member1, h('input', { id: 'ec-member1', name: 'member1', maxlength: 24, required: true })),
        field('ec-member2', TEXT.member2, h('input', { id: 'ec-member2', name: 'member2', maxlength: 24, required: true })))
      : h('label', { for: 'ec-name' }, TEXT.playerName),
    h('div', { class: 'row' },
      pairs ? null : h('input', { id: 'ec-name', name: 'name', maxlength: 24, required: true }),
      h('button', { type: 'submit', class: 'primary' }, TEXT.checkIn)),
    evening.club && !(club && !pairs) ? h('p', { class: 'muted small' }, CLUB.nameHelp) : null,
    evening.drawn.length ? h('p', { class: 'muted small' }, TEXT.lateNote) : null);
  const list = evening.entrants.length
    ? h('ul', { id: 'evening-entrants', class: 'list evening-entrants', dataset: { key: 'entrants' } },
      evening.entrants.map((e) => h('li', { dataset: { entrant: e.id, withdrawn: e.withdrawn, key: e.id } },
        h('span', { class: 'entrant-name' }, e.name,
          e.members.length ? h('span', { class: 'muted small' }, ` (${fill(TEXT.members, { a: e.members[0], b: e.members[1] })})`) : null),
        e.withdrawn ? h('span', { class: 'chip left' }, TEXT.left) : null,
        !e.withdrawn && open && !inRound.has(e.id)
          ? h('span', { class: 'chip late' }, fill(TEXT.fromRound, { round: open.number + 1 })) : null,
        e.withdrawn ? null : h('button', {
          type: 'button', class: 'small danger-ghost', dataset: { withdraw: e.id }, 'aria-label': fill(TEXT.withdrawLabel, { name: e.name }),
        }, TEXT.withdraw))))
    : h('p', { class: 'muted', dataset: { key: 'empty' } }, TEXT.nobodyYet);
  return [form, club && !pairs ? memberButtons(s, club) : null, list];
}

// The club's members not here yet (nor on their way in), one button each; those whose name
// has what is typed in the check-in's name, once something is.
function memberButtons(s, club) {
  const here = s.evening.entrants.filter((e) => !e.withdrawn);
  const coming = pending(s, 'check_in');
  const ids = new Set([...here.map((e) => e.member), ...coming.map((c) => c.member)]);
  const names = new Set([...here.map((e) => e.name), ...coming.map((c) => c.name)].filter(Boolean).map(folded));
  const away = club.members.filter((m) => !ids.has(m.id) && !names.has(folded(m.name)));
  const typed = s.filter.trim();
  const shown = typed ? away.filter((m) => folded(m.name).includes(folded(typed))) : away;
  let note = null;
  if (!away.length) note = CLUB.allHere;
  else if (!shown.length) note = fill(CLUB.noneMatch, { text: typed });
  return h('section', { id: 'evening-members', class: 'evening-members', dataset: { key: 'members' } },
    h('h3', {}, fill(CLUB.members, { club: club.name })),
    h('p', { class: 'muted small' }, note ?? CLUB.membersHelp),
    shown.length ? h('ul', { class: 'chips' }, shown.map((m) => h('li', { dataset: { key: m.id } },
      h('button', {
        type: 'button', class: 'member-button', dataset: { checkInMember: m.id },
        'aria-label': fill(CLUB.checkInMember, { name: m.name }),
      }, m.name)))) : null);
}

const folded = (name) => name.toLocaleLowerCase();

// -- the round's tables ----------------------------------------------------------------------

function tables(s, byId, organiser) {
  const evening = s.evening;
  const last = evening.drawn.at(-1);
  if (!last) return [h('p', { class: 'muted', dataset: { key: 'none' } }, TEXT.noRound)];
  const open = openRound(evening);
  const swapping = organiser && Boolean(open);
  const picked = s.picked.map((id) => nameOf(byId, id));
  const sitting = last.sitting_out;
  const points = s.standing?.rounds.find((r) => r.number === last.number)?.sit_out_points;
  return [
    h('h2', { dataset: { key: 'heading' } }, fill(last.closed ? TEXT.roundHeadingClosed : TEXT.roundHeading, { round: last.number })),
    swapping ? h('div', { class: 'evening-swap', dataset: { key: 'swap' } },
      h('p', { class: 'muted small' }, evening.format === 'pairs' ? TEXT.pickHelpPairs : TEXT.pickHelp),
      h('div', { class: 'item-actions' },
        h('button', { type: 'button', id: 'evening-swap', class: 'primary', disabled: picked.length !== 2 },
          picked.length === 2 ? fill(TEXT.swap, { a: picked[0], b: picked[1] }) : TEXT.swapNone),
        picked.length ? h('button', { type: 'button', id: 'evening-unpick', class: 'ghost' }, TEXT.clearPicks) : null)) : null,
    h('div', { id: 'evening-table-list', class: 'evening-tables', dataset: { key: 'tables' } },
      s.tables.map((t) => tableCard(s, t, byId, organiser, swapping))),
    h('section', { id: 'evening-sitting-out', class: 'evening-sitting-out', dataset: { key: 'out' } },
      h('h3', {}, TEXT.sittingOut),
      sitting.length
        ? h('ul', { class: 'chips' }, sitting.map((id) => h('li', { dataset: { entrant: id } },
          pickable(s, id, nameOf(byId, id), swapping, false))))
        : h('p', { class: 'muted small' }, TEXT.sittingOutNone),
      sitting.length && points !== undefined ? h('p', { class: 'muted small' }, fill(TEXT.sitOutNow, { points })) : null),
  ];
}

// A name at a table or sitting out: for organisers while the round is open, a button that
// chooses it for a swap (not at a table that entered a deal).
function pickable(s, id, name, swapping, started) {
  if (!swapping) return h('span', { class: 'who' }, name);
  return h('button', {
    type: 'button', class: 'who pick', dataset: { pick: id }, disabled: started,
    'aria-pressed': String(s.picked.includes(id)), 'aria-label': fill(TEXT.pickLabel, { name }),
  }, name);
}

// One table: its two teams (partners on one line, their seats), its state and totals, and
// its sheet: the code and a link for organisers, the onlookers' link for the players.
function tableCard(s, t, byId, organiser, swapping) {
  const pairs = s.evening.format === 'pairs';
  const state = tableState(s, t);
  const started = t.deals > 0;
  const seatLabel = (seat) => h('abbr', { class: 'seat-letter', title: TEXT[`seat${SEAT_NAMES[seat]}`] }, TEXT[`seat${SEATS[seat]}`]);
  const teams = [0, 1].map((team) => {
    let who;
    if (pairs) {
      const pair = byId.get(t.entrants[team]);
      who = [
        pickable(s, t.entrants[team], pair?.name ?? t.entrants[team], swapping, started),
        h('span', { class: 'members small' }, [team, team + 2].map((seat, i) => h('span', { class: 'table-seat', dataset: { seat } },
          seatLabel(seat), ' ', pair?.members[i] ?? ''))),
      ];
    } else {
      who = [team, team + 2].map((seat) => h('span', { class: 'table-seat', dataset: { seat, entrant: t.entrants[seat] } },
        seatLabel(seat), ' ', pickable(s, t.entrants[seat], nameOf(byId, t.entrants[seat]), swapping, started)));
    }
    return h('div', { class: ['team', `team-${team}`], dataset: { team } },
      h('span', { class: 'sr-only' }, `${TEXT.partners}: `),
      h('span', { class: 'team-seats' }, who),
      h('strong', { class: 'team-total' }, t.totals ? String(t.totals[team]) : '–'));
  });
  const link = organiser ? t.code && `/?sheet=${encodeURIComponent(t.code)}` : t.view_code && `/?sheet=${encodeURIComponent(t.view_code)}`;
  return h('article', {
    class: ['evening-table', `state-${state}`],
    dataset: { table: t.table, state, deals: t.deals, totals: t.totals ? t.totals.join(',') : '', key: `${t.round}-${t.table}` },
  },
  h('header', {},
    h('h3', {}, fill(TEXT.table, { table: t.table })),
    h('span', { class: ['chip', 'table-state', state] }, stateWords(state, t.deals))),
  teams,
  organiser && t.code ? h('div', { class: 'table-sheet' },
    h('span', { class: 'table-code' }, fillParts(TEXT.code, { code: h('code', {}, t.code) })),
    h('a', { class: 'button small', href: link, target: '_blank', rel: 'noopener', dataset: { sheetLink: t.code } }, TEXT.openSheet),
    h('details', { class: 'table-qr' },
      h('summary', {}, TEXT.qr),
      h('img', {
        class: 'qr', src: qrSource(absolute(link)), alt: fill(TEXT.qrTable, { table: t.table }), width: 160, height: 160, loading: 'lazy',
      }))) : null,
  !organiser && link ? h('div', { class: 'table-sheet' },
    h('a', { class: 'button small', href: link, target: '_blank', rel: 'noopener', dataset: { watchSheet: t.table } }, TEXT.watchSheet)) : null);
}

export const absolute = (path) => `${window.location.origin}${path}`;
export const qrSource = (text) => `/qr.svg?text=${encodeURIComponent(text)}`;

// -- the standing ----------------------------------------------------------------------------

function standing(s, byId, organiser) {
  const st = s.standing;
  const evening = s.evening;
  if (!st || !st.standing.length) return [h('p', { class: 'muted', dataset: { key: 'none' } }, TEXT.noStanding)];
  const numbers = st.round_numbers;
  const ranks = st.standing.map((row) => row.rank);
  const shared = (rank) => ranks.indexOf(rank) !== ranks.lastIndexOf(rank);
  const booby = st.standing.some((row) => row.prize === 'lowest');
  const table = h('table', { id: 'evening-standing-table', class: 'sheet-table evening-standing-table', dataset: { key: 'table' } },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'num' }, TEXT.rank),
      h('th', { scope: 'col' }, evening.format === 'pairs' ? TEXT.pair : TEXT.player),
      numbers.map((n) => h('th', { scope: 'col', class: 'num', title: fill(TEXT.roundLong, { round: n }) },
        h('span', { 'aria-hidden': 'true' }, fill(TEXT.roundShort, { round: n })),
        h('span', { class: 'sr-only' }, fill(TEXT.roundLong, { round: n })))),
      h('th', { scope: 'col', class: 'num' }, TEXT.total))),
    h('tbody', {}, st.standing.map((row) => h('tr', {
      class: [row.prize && `prize-${row.prize}`],
      dataset: { entrant: row.player, rank: row.rank, prize: row.prize ?? '', total: row.total, key: row.player },
    },
    h('td', { class: 'num rank' }, String(row.rank), shared(row.rank) ? h('span', { title: TEXT.sharedRank }, '=') : null),
    h('th', { scope: 'row', class: 'who' }, nameOf(byId, row.player),
      row.prize === 'place' ? h('span', { class: 'chip prize' }, TEXT.prize) : null,
      row.prize === 'lowest' ? h('span', { class: 'chip booby' }, TEXT.booby) : null),
    row.rounds.map((r, i) => roundCell(r, numbers[i])),
    h('td', { class: 'num total' }, h('strong', {}, String(row.total)))))));
  const satOut = st.rounds.filter((r) => st.standing.some((row) => row.rounds[numbers.indexOf(r.number)]?.mark === 'sat_out'));
  const places = st.prize_places.join(', ');
  return [
    h('div', { class: 'board-table-wrap', dataset: { key: 'wrap' } }, table),
    h('div', { class: 'muted small evening-legend', dataset: { key: 'legend' } },
      satOut.map((r) => h('p', {}, fill(TEXT.legendSatOut, { round: r.number, points: r.sit_out_points }))),
      h('p', {}, TEXT.legendMarks),
      places ? h('p', {}, fill(booby ? TEXT.prizePlacesBooby : TEXT.prizePlaces, { places })) : null),
    organiser && evening.format !== 'pairs' ? penaltyForm(s, byId) : null,
  ];
}

function roundCell(r, number) {
  if (!r) return h('td', { class: 'num round absent', dataset: { round: number } }, '');
  const mark = r.mark;
  const short = mark === 'finished' ? null : TEXT[`markShort_${mark}`];
  return h('td', {
    class: ['num', 'round', `mark-${mark}`], dataset: { round: number, mark, points: r.points },
    title: mark === 'finished' ? null : TEXT[`mark_${mark}`],
  }, String(r.points), short ? h('sup', { 'aria-hidden': 'true' }, short) : null,
  mark === 'finished' ? null : h('span', { class: 'sr-only' }, ` (${TEXT[`mark_${mark}`]})`));
}

function penaltyForm(s, byId) {
  const evening = s.evening;
  if (!evening.drawn.length) return null;
  const players = evening.entrants.filter((e) => !e.members.length);
  const latest = evening.drawn.length;
  return h('details', { class: 'evening-penalty', dataset: { key: 'penalty' } },
    h('summary', {}, TEXT.penaltyTitle),
    h('form', { id: 'evening-penalty', autocomplete: 'off' },
      h('p', { class: 'muted small' }, TEXT.penaltyDesc),
      h('div', { class: 'grid3' },
        field('ep-entrant', TEXT.penaltyPlayer, select('ep-entrant', 'entrant', players.map((e) => [e.id, nameOf(byId, e.id)]))),
        field('ep-points', TEXT.penaltyPoints, number('ep-points', 'points', null, 1, 1000)),
        field('ep-round', TEXT.penaltyRound, h('select', { id: 'ep-round', name: 'round' },
          evening.drawn.map((r) => h('option', { value: r.number, selected: r.number === latest }, fill(TEXT.roundLong, { round: r.number })))))),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'danger-ghost' }, TEXT.charge))));
}

// -- fairness --------------------------------------------------------------------------------

function fairness(s, byId) {
  const f = s.fairness;
  if (!f || !s.evening.drawn.length) return [h('p', { class: 'muted', dataset: { key: 'none' } }, TEXT.noDraws)];
  const pairsOf = (list, words) => list.map((r) => h('li', {}, plural(words, r.rounds, {
    a: nameOf(byId, r.players[0]), b: nameOf(byId, r.players[1]),
  })));
  return [
    h('ul', { class: 'list evening-fairness-list', dataset: { key: 'stats' } },
      h('li', { class: 'stat', dataset: { stat: 'partner_repeats', value: f.partner_repeats } },
        fill(TEXT.partnerRepeats, { n: f.partner_repeats }),
        f.repeated_partners.length ? h('ul', { class: 'small' }, pairsOf(f.repeated_partners, TEXT.together)) : null),
      h('li', { class: 'stat', dataset: { stat: 'opponent_repeats', value: f.opponent_repeats } },
        fill(TEXT.opponentRepeats, { n: f.opponent_repeats }),
        f.repeated_opponents.length ? h('ul', { class: 'small' }, pairsOf(f.repeated_opponents, TEXT.against)) : null),
      h('li', { class: 'stat', dataset: { stat: 'sit_out_spread', value: f.sit_out_spread } },
        fill(TEXT.sitOutSpread, { n: f.sit_out_spread }))),
    h('h3', { dataset: { key: 'sit-outs-title' } }, TEXT.sitOuts),
    h('ul', { class: 'chips', id: 'evening-sit-outs', dataset: { key: 'sit-outs' } },
      Object.entries(f.sit_outs).map(([id, n]) => h('li', { class: ['chip', n && 'gold'], dataset: { entrant: id, sitOuts: n } },
        fill(TEXT.sitOutCount, { name: nameOf(byId, id), n })))),
  ];
}

// -- links -----------------------------------------------------------------------------------

export const eveningLink = (code) => absolute(`/?evening=${encodeURIComponent(code)}`);

function share(s) {
  const rows = [['organiser', TEXT.forOrganisers, s.codes.organiser], ['view', TEXT.forPlayers, s.codes.view]]
    .filter(([, , code]) => code);
  const organiser = s.codes.organiser ?? '';
  const code = encodeURIComponent(organiser);
  return [
    h('ul', { id: 'evening-links', class: 'list sheet-links', dataset: { key: 'links' } },
      rows.map(([kind, label, c]) => linkItem(kind, label, eveningLink(c)))),
    s.codes.view ? h('figure', { class: 'evening-qr', dataset: { key: 'qr' } },
      h('img', { id: 'evening-qr', src: qrSource(eveningLink(s.codes.view)), alt: TEXT.qrView, width: 200, height: 200 }),
      h('figcaption', { class: 'small muted' }, TEXT.qrView)) : null,
    organiser ? h('p', { class: 'item-actions', dataset: { key: 'pages' } },
      h('a', { id: 'evening-wall', class: 'button small', href: `/wall?evening=${code}`, target: '_blank', rel: 'noopener' }, TEXT.wall),
      h('a', { id: 'evening-print-draw', class: 'button small', href: `/evenings/${code}/print/draw`, target: '_blank', rel: 'noopener' }, TEXT.printDraw),
      h('a', { id: 'evening-print-results', class: 'button small', href: `/evenings/${code}/print/results`, target: '_blank', rel: 'noopener' }, TEXT.printResults)) : null,
  ];
}

// A link to hand over (`data-link` = `kind`): what it is for, the link to select, Copy.
export function linkItem(kind, label, link, extra = null) {
  return h('li', { dataset: { link: kind, key: kind } },
    h('p', { class: 'small' }, label),
    h('input', { readonly: true, value: link, 'aria-label': label }),
    h('button', { type: 'button', class: 'small', dataset: { copy: link } }, TEXT.copyLink),
    extra);
}

// -- a table's sheet -------------------------------------------------------------------------

// Above a club evening's table sheet: the evening, the round and the table, and a link to
// the evening's standing (its view link). Hidden for any other sheet.
export function renderSheetEvening(sheet) {
  const el = $('#sheet-evening');
  const where = sheet?.evening ?? null;
  show(el, Boolean(where));
  if (!where) return;
  el.dataset.round = String(where.round);
  el.dataset.table = String(where.table);
  patch(el,
    h('span', {}, fillParts(TEXT.sheetWhere, { evening: h('strong', {}, where.name), round: where.round, table: where.table })),
    ' ',
    h('a', { href: `/?evening=${encodeURIComponent(where.view_code)}`, dataset: { eveningLink: where.view_code } }, TEXT.toStanding));
}
