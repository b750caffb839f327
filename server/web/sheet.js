// The score sheet: a game played with real cards, kept on every phone at the table.
//
// `app.sheet` is the state, changed only by the pure reducers below (no DOM); `renderSheet`
// draws the #scoresheet screen from it. The entry form (#sheet-entry) is plain HTML filled when a
// deal is opened and read when it is saved, so what was typed survives every redraw, a
// refusal and a dropped connection. The server scores every deal (the engine's scoring):
// nothing here works out a score, a nat or a winner.

import { $, h, patch, show } from './dom.js';
import { fill, fillParts, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';
import { rulesCatalog } from './catalog.js';

const TEXT = strings('sheet', {
  newDeal: 'Deal {n}', // the entry form's title for a new deal
  correctDeal: 'Correct deal {deal}', // the entry form's title (and a deal number's label) to correct a deal
  correctEarlierDeal: 'Correct deal {deal} of game {game}',
  addRoem: 'Add {n} roem', // a quick roem button: +20, +50 ...
  addStuk: 'Add stuk (20)',
  stuk: 'stuk', // the button that adds stuk (king and queen of trump): 20 roem
  noRoem: 'No roem', // the button that clears a team's roem
  playerN: 'Player {n}', // a player left unnamed on the New score sheet form
  undoThis: 'Undo: {change}',
  nothingToUndo: 'Nothing to undo',
  redoThis: 'Redo: {change}',
  nothingToRedo: 'Nothing to redo',
  goalTarget: 'Game {game} · to {target}', // under the totals: the game played to a target score
  goalDeals: 'Game {game} · deal {deal} of {deals}',
  goalOver: 'Game {game} · over',
  withGames: '{goal} · games {teamA} {a} – {b} {teamB}', // {goal}: one of the three above; then the games each team won
  deals: 'Deals: {name}', // who deals the next deal
  leads: 'Leads: {name}', // who leads the next deal
  correctDealer: 'Correct who deals next',
  whoDeals: 'Who deals next',
  nameDeals: '{name} deals', // an option of the list of who deals next
  equalTotals: 'Equal totals.',
  oneMoreDeal: 'One more deal decides the game.',
  won: '{team} won {high} to {low}.', // {team} is shown bold
  newGame: 'New game, same names',
  playOnTarget: 'Play on to {target}',
  playOnDeals: { one: 'Play {n} more deal', other: 'Play {n} more deals' },
  legend: 'The playing team’s score is marked. Nat: the playing team did not score more than the others, so they get 162 and all the roem.',
  noDealsEditor: 'No deals yet: after the first deal, tap “New deal”.',
  noDeals: 'No deals yet.',
  earlierUnfinished: 'Game {game} · not finished', // the heading of an earlier game
  earlierWon: 'Game {game} · {team} won',
  dealsOfGame: 'The deals of game {game}',
  marks: 'Marks', // the column of a deal's marks (nat, pit, corrected)
  totalOf: 'Running total of {team}', // the title of a team's column of totals (headed "Σ team")
  scoreTitle: '{team}: {points} points + {roem} roem',
  scoreTitlePlaying: '{team}: {points} points + {roem} roem (playing)',
  wentNat: '{team} went nat',
  nat: 'nat', // the mark of a deal that went nat
  tookEveryTrick: '{team} took every trick',
  pit: 'pit', // the mark of a deal in which one team took every trick
  correctedBy: 'corrected by {name}',
  chartLabel: {
    one: 'Running totals after {n} deal: {teamA} {a}, {teamB} {b}',
    other: 'Running totals after {n} deals: {teamA} {a}, {teamB} {b}',
  },
  statPlaying: 'Deals as playing team',
  statNat: 'Nat (as playing team)',
  statPits: 'Pits',
  statRoem: 'Roem',
  statAverage: 'Points a deal',
  noChanges: 'No changes yet.',
  changeBy: '{name} · {time}', // who made a change, and when
  forTable: 'For the table (can enter and correct deals)',
  forOnlookers: 'For onlookers (can only watch)',
  copyLink: 'Copy link',
  downloadCsv: 'Download CSV',
  printable: 'Printable page',
  // a change in the history (and in the Undo / Redo buttons' titles); {score} is one of the score* lines below
  changeDeal: 'Deal {deal}: {score}',
  changeEdit: 'Deal {deal} corrected: {score}',
  changeEditEarlier: 'Game {game}, deal {deal} corrected: {score}',
  changeDelete: 'Deal {deal} deleted ({score})',
  changeDeleteEarlier: 'Game {game}, deal {deal} deleted ({score})',
  changeDealer: 'Dealer corrected: {name} deals next',
  changeContinueTarget: 'Game {game} played on to {to} points',
  changeContinueDeals: 'Game {game} played on to {to} deals',
  changeNewGame: 'Game {game} started',
  changeUndo: 'Undone: {change}',
  changeRedo: 'Redone: {change}',
  score: '{teamA} {a}, {teamB} {b}',
  scoreNat: '{teamA} {a}, {teamB} {b} nat',
  scorePit: '{teamA} {a}, {teamB} {b} pit',
  scoreNatPit: '{teamA} {a}, {teamB} {b} nat, pit',
  // a change of ours the server refused (by its code)
  errorStale: 'The sheet changed since you looked: check it and save again.',
  errorReadOnly: 'This link only shows the sheet: ask the table for its edit link.',
  errorBadCode: 'No score sheet has this link’s code.',
  errorInvalidDeal: 'That deal cannot be right: points must be 0 to 162 (162 for both teams together), roem a multiple of 10, and in a pit the other team has no roem.',
  errorGameEnded: 'This game is over: play on, or start a new game.',
  errorNoSuchDeal: 'That deal is no longer on the sheet.',
  errorDealsAfterEnd: 'With this change the game would end earlier, before deals that were played after it: delete those deals first.',
  errorDealerUnchanged: 'That player deals next already.',
  errorNothingToUndo: 'There is no change to undo.',
  errorNothingToRedo: 'There is no undone change to redo.',
  errorNotOver: 'This game is not over yet.',
  errorEmptyGame: 'This game has no deals yet.',
});

// What a sheet's link for the table says above the nickname field (before a change, a
// nickname; an onlooker's link opens the sheet without one).
const HELLO = strings('sheet.hello', {
  loading: 'Opening the score sheet…',
  invited: '{name} invited you to keep score on a sheet: {teams}.',
  nobody: 'You are invited to keep score on a sheet: {teams}.',
  teams: '{a} – {b}', // the two teams of a sheet
  players: 'Players: {names}.',
  list: '{a}, {b}', // names in a list
  pickToEnter: 'Pick a nickname to enter and correct its deals.',
  bad_sheet_code: 'This link opens no score sheet: check it, or ask the table for a new one.',
});

// The refusals said in the page's words (others: the server's message).
const ERRORS = {
  stale_version: 'errorStale', read_only: 'errorReadOnly', bad_sheet_code: 'errorBadCode',
  invalid_deal: 'errorInvalidDeal', game_ended: 'errorGameEnded', no_such_deal: 'errorNoSuchDeal',
  deals_after_end: 'errorDealsAfterEnd', dealer_unchanged: 'errorDealerUnchanged',
  nothing_to_undo: 'errorNothingToUndo', nothing_to_redo: 'errorNothingToRedo',
  not_over: 'errorNotOver', empty_game: 'errorEmptyGame',
};

const VIEWS = ['deals', 'chart', 'stats', 'changes', 'share'];
// Our changes that take something off the sheet or put it back: said in words once made.
const SAID = new Set(['undo', 'redo', 'delete']);

export function newSheet() {
  return {
    code: null, // the code this page opened the sheet with (its link)
    role: null, // 'edit' | 'view'
    codes: {}, // the codes this page may show: view, and edit for editors
    id: null,
    version: 0,
    sheet: null, // the server's summary (client_protocol.md §14)
    history: [], // every change in words, oldest first
    draft: null, // the deal being entered or corrected: {dealId (null: a new deal), version}
    view: 'deals',
    error: null, // the last refusal of a change of ours: {code, message}
    sent: null, // the ref of our change on its way (its update, or its refusal, answers it)
    said: null, // our last undo, redo or deletion (its history line), said until the next version
  };
}

// -- reducers --------------------------------------------------------------------------------

export function sheetSnapshot(s, f) {
  return {
    ...s, id: f.sheet_id, version: f.version, role: f.role, codes: f.codes, sheet: f.sheet,
    history: f.history, sent: null,
  };
}

// Our change is on its way, made on the version shown.
export function sheetSent(s, ref) {
  return { ...s, sent: ref, error: null };
}

// A new version (an older one, trailing in after a snapshot, changes nothing).
export function sheetUpdate(s, f) {
  if (f.sheet_id !== s.id || f.version <= s.version) return s;
  const history = f.history ?? [...s.history, f.change];
  const ours = s.sent !== null && f.ref === s.sent;
  return {
    ...s, version: f.version, sheet: f.sheet, history,
    said: ours && SAID.has(f.change?.kind) ? f.change : null,
    sent: ours ? null : s.sent,
    draft: ours ? null : s.draft, // our change went in: the form is done
    error: ours ? null : s.error,
  };
}

// A change of ours refused: said beside the form, which stays as typed; the form's next
// save is made on the sheet now shown (its user has seen what changed).
export function sheetRefused(s, error) {
  const draft = s.draft && { ...s.draft, version: s.version };
  return { ...s, sent: null, draft, error: { code: error.code, message: error.message } };
}

// A deal opened in the form (a new one: `dealId` null), on the version shown now.
export function sheetDraft(s, dealId = null) {
  return { ...s, draft: { dealId, version: s.version }, error: null, said: null };
}

export function openMessage(code) {
  return { type: 'sheet_open', code };
}

// A change, made on the version shown (a deal from the form: on the version it was opened
// on, so that a deal another phone entered meanwhile is refused, not entered twice).
export function changeMessage(s, kind, fields = {}) {
  const version = (kind === 'deal' || kind === 'edit') && s.draft ? s.draft.version : s.version;
  return { type: `sheet_${kind}`, code: s.code, version, ...fields };
}

// A deal as the form says it: the team whose points were typed, and the other left to the
// server (the deal's points minus them); pit: the team that took every trick.
export function dealFields(form) {
  const side = Number(form.side);
  const points = [null, null];
  points[side] = form.points === '' ? null : Number(form.points);
  const fields = {
    playing: Number(form.playing),
    points,
    roem: [Number(form.roem0 || 0), Number(form.roem1 || 0)],
    pit: form.pit === '' ? null : Number(form.pit),
  };
  if (form.dealId) fields.deal_id = Number(form.dealId);
  return fields;
}

// A deal of any game, by its id, with the number of its game (earlier games can be corrected too).
export function dealOf(s, dealId) {
  for (const game of s.sheet ? [s.sheet.game, ...s.sheet.games] : []) {
    const deal = game.deals.find((d) => d.id === dealId);
    if (deal) return { ...deal, game: game.number };
  }
  return null;
}

// -- the entry form --------------------------------------------------------------------------

// Open the form for a new deal, or filled with deal `dealId` to correct it.
export function fillEntry(s, dealId = null) {
  const form = $('#sheet-entry');
  const deal = dealId === null ? null : dealOf(s, dealId);
  const teams = s.sheet.teams;
  form.elements.dealId.value = deal ? String(deal.id) : '';
  form.elements.playing.value = deal ? String(deal.playing) : '';
  form.elements.side.value = deal ? String(deal.playing) : '0';
  form.elements.points.value = deal ? String(deal.points[deal.playing]) : '';
  form.elements.roem0.value = deal ? String(deal.roem[0]) : '0';
  form.elements.roem1.value = deal ? String(deal.roem[1]) : '0';
  form.elements.pit.value = deal && deal.pit !== null ? String(deal.pit) : '';
  for (const team of [0, 1]) {
    for (const el of form.querySelectorAll(`[data-team-name="${team}"]`)) el.textContent = teams[team];
  }
  let title = fill(TEXT.newDeal, { n: s.sheet.game.deals.length + 1 });
  if (deal) title = correctLabel(deal.number, deal.game === s.sheet.game.number ? null : deal.game);
  $('#sheet-entry-title').textContent = title;
  show($('#sheet-delete'), Boolean(deal));
  syncEntry();
}

// Every card point of a deal, the last trick's included (the server's, GET /rules).
const dealPoints = () => rulesCatalog()?.scoring.deal_points ?? null;

// The form's derived parts: the other team's points, the chosen buttons.
export function syncEntry() {
  const form = $('#sheet-entry');
  const e = form.elements;
  const side = Number(e.side.value);
  const typed = e.points.value === '' ? null : Number(e.points.value);
  const all = dealPoints();
  const other = typed === null || Number.isNaN(typed) || all === null ? '–' : String(all - typed);
  $('#sheet-other-points').textContent = other;
  $('#sheet-other-team').textContent = form.querySelector(`[data-team-name="${1 - side}"]`)?.textContent ?? '';
  for (const b of form.querySelectorAll('[data-set]')) {
    const [name, value] = b.dataset.set.split(':');
    b.setAttribute('aria-pressed', String(e[name].value === value));
  }
}

// A tap on the form: a choice (`data-set="name:value"`), roem added (`data-roem-add="team:n"`)
// or cleared (`data-roem-clear="team"`). A pit is every trick: its team has all the deal's points.
export function setEntry(d) {
  const e = $('#sheet-entry').elements;
  if (d.set !== undefined) {
    const [name, value] = d.set.split(':');
    e[name].value = value;
    if (name === 'pit' && value !== '' && dealPoints() !== null) {
      e.side.value = value;
      e.points.value = String(dealPoints());
    }
  } else if (d.roemAdd !== undefined) {
    const [team, add] = d.roemAdd.split(':').map(Number);
    const field = e[`roem${team}`];
    field.value = String((Number(field.value) || 0) + add);
  } else {
    e[`roem${d.roemClear}`].value = '0';
  }
  syncEntry();
}

// The quick roem buttons of each team, from the server's steps, and stuk (its value the
// server's too): call it once the catalog came.
export function buildRoemSteps(steps) {
  const stuk = rulesCatalog().scoring.roem.stuk;
  for (const team of [0, 1]) {
    const buttons = steps.map((n) => h('button', {
      type: 'button', class: 'small', dataset: { roemAdd: `${team}:${n}` }, 'aria-label': fill(TEXT.addRoem, { n }),
    }, `+${n}`));
    buttons.push(h('button', {
      type: 'button', class: 'small', dataset: { roemAdd: `${team}:${stuk}` }, 'aria-label': TEXT.addStuk,
    }, TEXT.stuk));
    buttons.push(h('button', {
      type: 'button', class: 'small ghost', dataset: { roemClear: String(team) }, 'aria-label': TEXT.noRoem,
    }, '✕'));
    $(`#sheet-entry [data-steps="${team}"]`).replaceChildren(...buttons);
  }
}

// The sheet_create message from the New score sheet form.
export function createSheetMessage(form) {
  const f = form.elements;
  const players = [0, 1, 2, 3].map((i) => f[`p${i}`].value.trim());
  const teams = [f.team0.value.trim(), f.team1.value.trim()];
  const message = {
    type: 'sheet_create',
    first_dealer: Number(f.first_dealer.value),
    pit_bonus: f.pit_bonus.value,
    [f.end.value === 'deals' ? 'deals' : 'target']: Number(f.end_value.value),
  };
  if (players.some(Boolean)) message.players = players.map((p, i) => p || fill(TEXT.playerN, { n: i + 1 }));
  // no team names with the players named: the server calls each team after its two
  if (teams.some(Boolean) || !message.players) message.teams = teams;
  return message;
}

// -- the screen -------------------------------------------------------------------------------

export function renderSheet(app) {
  const s = app.sheet;
  const screen = $('#scoresheet');
  const sheet = s.sheet;
  screen.dataset.version = String(s.version);
  screen.dataset.role = s.role ?? '';
  show($('#sheet-offline'), !app.online);
  if (!sheet) return;
  const game = sheet.game;
  const editor = s.role === 'edit';
  patch($('#sheet-head'), head(sheet));
  patch($('#sheet-turn'), turn(sheet, editor));
  patch($('#sheet-end'), ending(sheet, editor));
  show($('#sheet-end'), game.over || game.extra_deal);
  const controls = $('#sheet-controls');
  show(controls, editor);
  $('#sheet-new-deal').disabled = game.over || s.draft !== null;
  $('#sheet-undo').disabled = !sheet.undo;
  $('#sheet-undo').title = sheet.undo
    ? fill(TEXT.undoThis, { change: changeWords(sheet, sheet.undo_what, sheet.undo) }) : TEXT.nothingToUndo;
  $('#sheet-redo').disabled = !sheet.redo;
  $('#sheet-redo').title = sheet.redo
    ? fill(TEXT.redoThis, { change: changeWords(sheet, sheet.redo_what, sheet.redo) }) : TEXT.nothingToRedo;
  show($('#sheet-entry'), editor && s.draft !== null);
  const said = $('#sheet-said');
  said.textContent = s.said ? changeWords(sheet, s.said.what, s.said.text) : '';
  show(said, Boolean(s.said));
  const error = $('#sheet-error');
  error.textContent = s.error ? errorWords(s.error) : '';
  error.dataset.code = s.error?.code ?? '';
  show(error, Boolean(s.error));
  for (const view of VIEWS) {
    const tab = $(`#sheet-tab-${view}`);
    tab.setAttribute('aria-selected', String(view === s.view));
    tab.tabIndex = view === s.view ? 0 : -1;
    show($(`#sheet-${view}`), view === s.view);
  }
  if (s.view === 'deals') patch($('#sheet-deals'), dealsTable(sheet, editor));
  else if (s.view === 'chart') patch($('#sheet-chart'), chart(sheet));
  else if (s.view === 'stats') patch($('#sheet-stats'), stats(sheet));
  else if (s.view === 'changes') patch($('#sheet-changes'), changes(sheet, s.history));
  else if (s.view === 'share') patch($('#sheet-share'), share(s));
}

function errorWords(error) {
  const key = ERRORS[error.code];
  return key ? TEXT[key] : error.message;
}

// "Correct deal 3", or of an earlier game (`game` not null) "Correct deal 3 of game 1".
function correctLabel(deal, game) {
  return game === null ? fill(TEXT.correctDeal, { deal }) : fill(TEXT.correctEarlierDeal, { deal, game });
}

// A change in words, from the server's facts (`what`: client_protocol.md, the history
// line); the server's English `text` when it sent no facts.
function changeWords(sheet, what, text = '') {
  if (!what) return text;
  const [teamA, teamB] = sheet.teams;
  const kind = what.kind;
  if (kind === 'undo' || kind === 'redo') {
    return fill(kind === 'undo' ? TEXT.changeUndo : TEXT.changeRedo, { change: changeWords(sheet, what.change, text) });
  }
  if (kind === 'deal' || kind === 'edit' || kind === 'delete') {
    const line = (what.nat && what.pit && TEXT.scoreNatPit) || (what.nat && TEXT.scoreNat) || (what.pit && TEXT.scorePit) || TEXT.score;
    const score = fill(line, { teamA, a: what.score[0], teamB, b: what.score[1] });
    const earlier = what.game !== null && what.game !== undefined;
    const template = {
      deal: TEXT.changeDeal,
      edit: earlier ? TEXT.changeEditEarlier : TEXT.changeEdit,
      delete: earlier ? TEXT.changeDeleteEarlier : TEXT.changeDelete,
    }[kind];
    return fill(template, { deal: what.deal, game: what.game, score });
  }
  if (kind === 'dealer') return fill(TEXT.changeDealer, { name: sheet.seats[what.seat] ?? what.name });
  if (kind === 'continue') {
    return fill(sheet.rules.end === 'target' ? TEXT.changeContinueTarget : TEXT.changeContinueDeals, what);
  }
  if (kind === 'new_game') return fill(TEXT.changeNewGame, what);
  return text;
}

function head(sheet) {
  const game = sheet.game;
  let goal = fill(TEXT.goalOver, { game: game.number });
  if (!game.over && sheet.rules.end === 'target') goal = fill(TEXT.goalTarget, { game: game.number, target: game.end_value });
  else if (!game.over) {
    goal = fill(TEXT.goalDeals, { game: game.number, deal: Math.min(game.deals.length + 1, game.end_value), deals: game.end_value });
  }
  return [
    h('div', { class: 'sheet-score', dataset: { key: 'score' } },
      sheet.teams.map((name, team) => h('div', {
        class: ['sheet-team', `team-${team}`, game.winner === team && 'won'],
        dataset: { team, total: game.totals[team] },
      }, h('span', { class: 'sheet-team-name' }, name), h('strong', { class: 'sheet-total' }, String(game.totals[team]))))),
    h('p', { class: 'muted small sheet-goal', dataset: { key: 'goal' } },
      sheet.games.length ? gamesWon(sheet, goal) : goal),
  ];
}

function gamesWon(sheet, goal) {
  const won = [0, 0];
  for (const g of sheet.games) if (g.winner !== null) won[g.winner] += 1;
  return fill(TEXT.withGames, { goal, teamA: sheet.teams[0], a: won[0], b: won[1], teamB: sheet.teams[1] });
}

function turn(sheet, editor) {
  const dealer = sheet.seats[sheet.dealer];
  const leader = sheet.seats[sheet.leader];
  return [
    h('span', { id: 'sheet-dealer', dataset: { seat: sheet.dealer, key: 'dealer' } },
      fillParts(TEXT.deals, { name: h('strong', {}, dealer) }).map((part) => (typeof part === 'string' ? h('span', { class: 'muted' }, part) : part))),
    h('span', { id: 'sheet-leader', dataset: { seat: sheet.leader, key: 'leader' } },
      fillParts(TEXT.leads, { name: h('strong', {}, leader) }).map((part) => (typeof part === 'string' ? h('span', { class: 'muted' }, part) : part))),
    editor
      ? h('label', { class: 'sheet-dealer-fix', dataset: { key: 'fix' } },
        h('span', { class: 'sr-only' }, TEXT.correctDealer),
        h('select', { id: 'sheet-dealer-select', 'aria-label': TEXT.whoDeals },
          sheet.seats.map((name, seat) => h('option', { value: seat, selected: seat === sheet.dealer }, fill(TEXT.nameDeals, { name })))))
      : null,
  ];
}

function ending(sheet, editor) {
  const game = sheet.game;
  if (game.extra_deal) {
    return [h('p', { dataset: { key: 'extra' } }, h('strong', {}, TEXT.equalTotals), ' ', TEXT.oneMoreDeal)];
  }
  if (!game.over) return [];
  const winner = sheet.teams[game.winner];
  const end = game.deals[game.end_deal - 1].totals; // the game ended with this deal
  return [
    h('p', { id: 'sheet-winner', dataset: { winner: game.winner, key: 'winner' } },
      fillParts(TEXT.won, { team: h('strong', {}, winner), high: Math.max(...end), low: Math.min(...end) })),
    editor
      ? h('div', { class: 'item-actions', dataset: { key: 'next' } },
        h('button', { type: 'button', class: 'primary', id: 'sheet-new-game' }, TEXT.newGame),
        h('button', { type: 'button', id: 'sheet-continue' },
          sheet.rules.end === 'target'
            ? fill(TEXT.playOnTarget, { target: game.end_value + sheet.rules.end_value })
            : plural(TEXT.playOnDeals, sheet.rules.end_value)))
      : null,
  ];
}

// The deals of the game being played, then those of the earlier games (newest first): a
// deal of any game can be tapped to correct it.
function dealsTable(sheet, editor) {
  const current = sheet.game.deals.length
    ? [gameTable(sheet, sheet.game, editor, 'table'),
      h('p', { class: 'muted small', dataset: { key: 'legend' } }, TEXT.legend)]
    : [h('p', { class: 'muted', dataset: { key: 'empty' } }, editor ? TEXT.noDealsEditor : TEXT.noDeals)];
  const earlier = [...sheet.games].reverse().map((game) => h('section', {
    class: 'sheet-earlier', dataset: { key: `game-${game.number}`, game: game.number },
  },
  h('h3', { class: 'small' }, game.winner === null
    ? fill(TEXT.earlierUnfinished, { game: game.number })
    : fill(TEXT.earlierWon, { game: game.number, team: sheet.teams[game.winner] })),
  gameTable(sheet, game, editor, `table-${game.number}`)));
  return [...current, ...earlier];
}

function gameTable(sheet, game, editor, key) {
  const [a, b] = sheet.teams;
  return h('table', { class: 'sheet-table', dataset: { key, game: game.number } },
    h('caption', { class: 'sr-only' }, fill(TEXT.dealsOfGame, { game: game.number })),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'num' }, '#'),
      teamHead(0, a, a),
      teamHead(1, b, b),
      h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, TEXT.marks)),
      teamHead(0, ['Σ', h('span', { class: 'head-team' }, ` ${a}`)], fill(TEXT.totalOf, { team: a })),
      teamHead(1, ['Σ', h('span', { class: 'head-team' }, ` ${b}`)], fill(TEXT.totalOf, { team: b })))),
    h('tbody', {}, game.deals.map((d) => h('tr', {
      dataset: { dealId: d.id, key: d.id, nat: d.nat, pit: d.pit ?? '' },
      class: [d.nat && 'nat', d.pit !== null && 'pit'],
    },
    h('td', { class: 'num' },
      editor
        ? h('button', {
          type: 'button', class: 'link', dataset: { editDeal: d.id },
          'aria-label': correctLabel(d.number, game === sheet.game ? null : game.number),
        }, String(d.number))
        : String(d.number)),
    [0, 1].map((team) => h('td', {
      class: ['num', 'score', d.playing === team && 'playing'], dataset: { team },
      title: fill(d.playing === team ? TEXT.scoreTitlePlaying : TEXT.scoreTitle, { team: sheet.teams[team], points: d.points[team], roem: d.roem[team] }),
    }, String(d.score[team]), d.roem[team] ? h('small', { class: 'roem' }, ` +${d.roem[team]}`) : null)),
    h('td', { class: 'marks' }, marks(sheet, d)),
    h('td', { class: 'num total', dataset: { team: 0 } }, String(d.totals[0])),
    h('td', { class: 'num total', dataset: { team: 1 } }, String(d.totals[1]))))));
}

// A column of `team`, in its colour: its name on one line, cut with an ellipsis on a phone
// (where a column of totals says only Σ), whole in its title.
function teamHead(team, text, title) {
  return h('th', { scope: 'col', class: ['num', `team-${team}`], title }, h('span', { class: 'head-name' }, text));
}

function marks(sheet, d) {
  const out = [];
  if (d.nat) out.push(h('span', { class: 'chip nat', title: fill(TEXT.wentNat, { team: sheet.teams[d.playing] }) }, TEXT.nat));
  if (d.pit !== null) out.push(h('span', { class: 'chip pit', title: fill(TEXT.tookEveryTrick, { team: sheet.teams[d.pit] }) }, TEXT.pit));
  if (d.edited) out.push(h('span', { class: 'chip edited', title: fill(TEXT.correctedBy, { name: d.by }) }, '✎'));
  return out;
}

// A line chart of the running totals (SVG, no library): x is the deal, y the points.
export function chartPoints(sheet) {
  const totals = [[0, 0], ...sheet.game.deals.map((d) => d.totals)];
  return [0, 1].map((team) => totals.map((t) => t[team]));
}

function chart(sheet) {
  const series = chartPoints(sheet);
  const n = series[0].length - 1;
  const top = Math.max(sheet.rules.end === 'target' ? sheet.game.end_value : 0, ...series[0], ...series[1], 1);
  const W = 320; const H = 180; const pad = 24;
  const x = (i) => pad + (n ? (i * (W - 2 * pad)) / n : 0);
  const y = (v) => H - pad - (v * (H - 2 * pad)) / top;
  const line = (values) => values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const target = sheet.rules.end === 'target'
    ? h('line', { class: 'target', x1: pad, x2: W - pad, y1: y(sheet.game.end_value), y2: y(sheet.game.end_value) })
    : null;
  return [h('figure', { class: 'sheet-figure', dataset: { key: 'chart' } },
    h('svg', {
      id: 'sheet-chart-svg', viewBox: `0 0 ${W} ${H}`, role: 'img',
      'aria-label': plural(TEXT.chartLabel, n, { teamA: sheet.teams[0], a: series[0][n], teamB: sheet.teams[1], b: series[1][n] }),
    },
    h('line', { class: 'axis', x1: pad, x2: W - pad, y1: H - pad, y2: H - pad }),
    target,
    series.map((values, team) => h('polyline', {
      class: `series team-${team}`, points: line(values), dataset: { team, totals: values.join(',') },
    }))),
    h('figcaption', { class: 'small' },
      sheet.teams.map((name, team) => h('span', { class: `legend team-${team}` }, name)))) ];
}

function stats(sheet) {
  return [h('table', { class: 'sheet-table stats', dataset: { key: 'stats' } },
    h('thead', {}, h('tr', {}, h('th', {}, ''), sheet.teams.map((t, team) => teamHead(team, t, t)))),
    h('tbody', {}, [
      ['statPlaying', 'playing'], ['statNat', 'nat'], ['statPits', 'pits'],
      ['statRoem', 'roem'], ['statAverage', 'average'],
    ].map(([label, key]) => h('tr', { dataset: { stat: key } },
      h('th', { scope: 'row' }, TEXT[label]),
      sheet.stats.map((st, team) => h('td', { class: 'num', dataset: { team } }, st[key] === null ? '–' : String(st[key])))))))];
}

function changes(sheet, history) {
  if (!history.length) return [h('p', { class: 'muted', dataset: { key: 'empty' } }, TEXT.noChanges)];
  return [h('ol', { class: 'sheet-log', reversed: true, dataset: { key: 'log' } },
    [...history].reverse().map((c) => h('li', { dataset: { version: c.version, kind: c.kind, key: c.version } },
      h('span', {}, changeWords(sheet, c.what, c.text)), ' ',
      h('span', { class: 'muted small' }, fill(TEXT.changeBy, { name: c.by, time: clock(c.at) })))))];
}

function clock(at) {
  return new Date(at * 1000).toLocaleTimeString(currentLanguage(), { hour: '2-digit', minute: '2-digit' });
}

export function sheetLink(code) {
  return `${window.location.origin}/?sheet=${encodeURIComponent(code)}`;
}

// The page to print, in the page's language (English needs no parameter).
function printLink(code) {
  const lang = currentLanguage();
  return `/sheets/${encodeURIComponent(code)}/print${lang === 'en' ? '' : `?lang=${lang}`}`;
}

function share(s) {
  const rows = [];
  if (s.codes.edit) rows.push(['edit', TEXT.forTable, s.codes.edit]);
  if (s.codes.view) rows.push(['view', TEXT.forOnlookers, s.codes.view]);
  return [
    h('ul', { class: 'list sheet-links', dataset: { key: 'links' } }, rows.map(([kind, label, code]) => h('li', { dataset: { link: kind } },
      h('p', { class: 'small' }, label),
      h('input', { readonly: true, value: sheetLink(code), 'aria-label': label }),
      h('button', { type: 'button', class: 'small', dataset: { copy: sheetLink(code) } }, TEXT.copyLink)))),
    h('p', { class: 'item-actions', dataset: { key: 'export' } },
      h('a', { id: 'sheet-csv', class: 'button small', href: `/sheets/${encodeURIComponent(s.code)}.csv`, download: 'klaverjas-sheet.csv' }, TEXT.downloadCsv),
      h('a', { id: 'sheet-print', class: 'button small', href: printLink(s.code), target: '_blank', rel: 'noopener' }, TEXT.printable)),
  ];
}

// The nickname screen's word on a sheet's link (`hello`: {state, sheet}, the summary the
// link's code opens, or the refusal's code).
export function sheetIntro(hello) {
  const sheet = hello.sheet;
  if (!sheet) return [h('p', { class: 'hello-line' }, HELLO[hello.state] ?? HELLO.bad_sheet_code)]; // loading, or refused
  const teams = fill(HELLO.teams, { a: sheet.teams[0], b: sheet.teams[1] });
  return [
    h('p', { class: 'hello-line' }, h('strong', {}, sheet.made_by
      ? fill(HELLO.invited, { name: sheet.made_by, teams }) : fill(HELLO.nobody, { teams }))),
    sheet.players
      ? h('p', { class: 'small' }, fill(HELLO.players, { names: sheet.players.reduce((a, b) => fill(HELLO.list, { a, b })) }))
      : null,
    h('p', { class: 'small' }, HELLO.pickToEnter),
  ];
}
