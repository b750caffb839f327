// The table model: a pure reducer from the server's room frames (snapshot, update, chat) to
// what the page shows, plus the lobby and tournament reducers. No DOM, no clock, no I/O:
// every function here returns a new value and leaves its arguments alone.
//
// A room model holds the last applied `version`. Updates are applied strictly in order:
// one whose version is not exactly `version + 1` is a gap, and `applyFrame` answers with
// the version to `resume` from instead of applying it.

import { SUIT_NAMES, cardWords } from './cards.js';
import { fill, plural } from './fill.js';
import { currentLanguage, strings } from './i18n.js';

// Every sentence of the table's model, whole (see fill.js): the names of seats and teams,
// and the table talk ({name}: a player's name, or "you" forms of their own).
const TEXT = strings('state', {
  seatNumber: 'seat {n}',
  cpu: 'CPU',
  // a CPU player's name: {name} its first name ("Anna"), {level} one of the level words below
  cpuName: '{name} (CPU, {level})',
  cpuRandom: 'random', // the CPU levels in a CPU's name, lower case: "Anna (CPU, random)"
  cpuHeuristic: 'heuristic',
  cpuStrong: 'strong',
  emptySeat: 'empty seat',
  someone: 'someone',
  you: 'you',
  You: 'You',
  us: 'Us',
  them: 'Them',
  pair: '{a} & {b}',
  sitsYou: 'You sit down.',
  sits: '{name} sits down.',
  leftTable: '{name} left the table.',
  readyYou: 'You are ready.',
  ready: '{name} is ready.',
  notReadyYou: 'You are not ready.',
  notReady: '{name} is not ready.',
  start: 'The match starts. Good luck!',
  awayYou: 'You are away: the server plays for you.',
  away: '{name} is away: the server plays for them.',
  awayWaits: '{name} is away: the game waits for them.',
  awayWaitsYou: 'You are away: the game waits for you. Play a card, or choose “I’m back”, to go on.', // the daily game: nobody plays an absent player's moves
  backYou: 'You are back.',
  back: '{name} is back.',
  timeoutYou: 'You ran out of time: the server played instead.',
  timeout: '{name} ran out of time: the server played instead.',
  closed: 'The room was closed.',
  dealsYou: 'Deal {number}: you deal.',
  deals: 'Deal {number}: {name} deals.',
  passYou: 'You pass.',
  pass: '{name} passes.',
  chooseYou: 'You choose {suit} as trump.',
  choose: '{name} chooses {suit} as trump.',
  roemRun: 'roem {run}',
  roemFour: 'four of a kind ({roem})',
  roemStuk: 'stuk ({roem})',
  roemRunStuk: 'roem {run} and stuk ({roem})',
  roemOther: 'roem {roem}',
  claimYou: 'Your trick has {roem}: take it or leave it?',
  claim: '{name}’s trick has {roem}: take it or leave it?',
  roemForYou: 'You score {roem}.',
  roemForPartner: '{name} (your team) scores {roem}.',
  roemFor: '{name} scores {roem}.',
  takeYou: 'You take the roem: {roem}.',
  take: '{name} takes the roem: {roem}.',
  leaveYou: 'You leave the roem ({roem}).',
  leave: '{name} leaves the roem ({roem}).',
  dealScore: 'Deal {number}: {teamA} {a}, {teamB} {b}.',
  natUs: 'Nat! We chose {suit} and did not make it.',
  natThem: 'Nat! They chose {suit} and did not make it.',
  natTeam: 'Nat! {team} chose {suit} and did not make it.',
  pitUs: 'Pit! We took every trick.',
  pitThem: 'Pit! They took every trick.',
  pitTeam: 'Pit! {team} took every trick.',
  wonMatch: 'You won the match, {us} to {them}!',
  lostMatch: 'You lost the match, {us} to {them}.',
  teamWonMatch: '{team} won the match, {winner} to {loser}.',
  playsYou: 'You play the {card}.',
  plays: '{name} plays the {card}.',
  winsTrickYou: 'You win the trick.',
  winsTrick: '{name} wins the trick.',
  turnTrump: 'Your turn: choose trump.',
  turnClaim: 'Your turn: take or leave the roem.',
  turnPlay: 'Your turn: play a card.',
});

// Tournaments' rounds and prizes, and rematches, in words (lobby and tournament views).
const EVENTS = strings('state.events', {
  final: 'Final', // a tournament's last round
  semiFinals: 'Semi-finals',
  round: 'Round {n}',
  grandPrize: 'Grand Prize',
  secondPrize: 'Second Prize',
  rematchReady: 'Everyone accepted: opening the new table…',
  rematchWaiting: 'You accepted the rematch. Waiting for {names}.', // {names}: a list of players
  rematchWants: { one: '{names} wants a rematch.', other: '{names} want a rematch.' },
  you: 'you', // a player in the rematch's lists
  aPlayer: 'a player', // a player whose name is unknown
});

export const POSITIONS = ['bottom', 'right', 'top', 'left'];
const LOG_LIMIT = 60;
const CHAT_LIMIT = 100;
const SPOKEN_LIMIT = 12;

export const teamOf = (seat) => seat % 2;
const plus = (list, item) => [...list, item];
const bump = (pair, index, amount) => pair.map((v, i) => (i === index ? v + amount : v));

// -- rooms -----------------------------------------------------------------------------

export function newRoom(roomId) {
  return {
    roomId,
    version: 0, // the last version applied; 0: no snapshot yet
    room: null, // the room summary
    seat: null, // our seat, null for a spectator
    inviteCode: null,
    view: null, // the match as we may see it (the server's view object, kept up to date)
    turn: null,
    deadline: null,
    legal: [],
    whyNot: {}, // why each card of our hand we may not play is refused: {card: {why, suit, card}}
    lastTrick: null, // the last finished trick, as in the view's `tricks`, with its `number`
    trickSerial: 0, // counts finished tricks seen, so the page can show each one a moment
    claim: null, // claim mode: {seat, roem, roem_parts, roem_cards} of the roem that waits for take/leave
    result: null, // {winner, totals} once the match is over
    dealEnd: null, // the last finished deal, for the end-of-deal panel (see dealEndOf)
    closed: false,
    resyncFrom: null, // the version a resume was asked from (to ask only once per gap)
    log: [], // announcements: {seq, kind, text, version}
    noteSeq: 0,
    spoken: [], // what screen readers hear of the play: {seq, text}
    chat: [],
  };
}

// Where `seat` sits on our screen: we are at the bottom (a spectator sees seat 0 there).
export function seatPosition(model, seat) {
  return POSITIONS[(seat - (model.seat ?? 0) + 4) % 4];
}

export function seatAt(model, position) {
  return ((model.seat ?? 0) + POSITIONS.indexOf(position)) % 4;
}

// A CPU level in words, for a CPU's name ("strong").
export function cpuLevelWord(level) {
  const key = { random: 'cpuRandom', heuristic: 'cpuHeuristic', strong: 'cpuStrong' }[level];
  return key ? TEXT[key] : level;
}

// A CPU's name in the page's language, from its bare name and level (`cpu_name`, `level`:
// seats and tournament entrants), else the server's English nickname.
export function cpuName(s) {
  if (s?.cpu_name) return fill(TEXT.cpuName, { name: s.cpu_name, level: cpuLevelWord(s.level ?? 'strong') });
  return s?.nickname ?? TEXT.cpu;
}

// A seat's name: the player's nickname, or a CPU's own ("Anna (CPU, strong)").
export function seatName(model, seat) {
  const s = model.room?.seats?.[seat];
  if (!s) return fill(TEXT.seatNumber, { n: seat + 1 });
  if (s.cpu) return cpuName(s);
  return s.nickname ?? TEXT.emptySeat;
}

// The name in a sentence: "you", or the seat's name ("ann", "Anna (CPU, strong)").
export function who(model, seat) {
  if (seat === null || seat === undefined) return TEXT.someone;
  if (model.seat === seat) return TEXT.you;
  return seatName(model, seat);
}

// The same at the start of a sentence: "You", "ann" (nicknames keep their case).
export function subject(model, seat) {
  return model.seat === seat ? TEXT.You : who(model, seat);
}

// One of a pair of sentences: `key + 'You'` when `seat` is ours, else `key` with {name}.
function said(model, seat, key, values = {}) {
  if (model.seat === seat && TEXT[`${key}You`]) return fill(TEXT[`${key}You`], values);
  return fill(TEXT[key], { name: who(model, seat), ...values });
}

export const isSeated = (model) => model.seat !== null && model.seat !== undefined;

// A team in a heading: "Us" / "Them" when seated, the players' names for a spectator.
export function teamLabel(model, team) {
  if (isSeated(model)) return team === teamOf(model.seat) ? TEXT.us : TEXT.them;
  return teamPlayers(model, team);
}

// A team's two players: "ann & Anna (CPU, strong)".
export function teamPlayers(model, team) {
  return fill(TEXT.pair, { a: seatName(model, team), b: seatName(model, team + 2) });
}

// The teams in the order the page shows them: ours first when seated, else 0 then 1.
export function teamOrder(model) {
  return isSeated(model) && teamOf(model.seat) === 1 ? [1, 0] : [0, 1];
}

// A team's colour: `us` for your own team wherever you sit, `them` for the other; a
// spectator sees from seat 0 (the bottom seat), so team 0 is `us` (style.css: --us, --them).
export function teamSide(model, team) {
  return team === teamOf(model.seat ?? 0) ? 'us' : 'them';
}

// One of three sentences about a team: ours (`key + 'Us'`), theirs (`'Them'`), or named
// for a spectator (`'Team'`, with {team}).
function teamSaid(model, team, key, values = {}) {
  if (!isSeated(model)) return fill(TEXT[`${key}Team`], { team: teamLabel(model, team), ...values });
  return fill(TEXT[`${key}${team === teamOf(model.seat) ? 'Us' : 'Them'}`], values);
}

export function isOver(model) {
  return model.result !== null || model.room?.status === 'finished';
}

export function isOwner(model, me) {
  return Boolean(me) && model.room?.owner === me;
}

// Apply one frame for this room. Returns {model, resume}: `resume` is the version to
// resume from when the frame showed a gap, else null.
export function applyFrame(model, frame, me = null) {
  switch (frame.type) {
    case 'snapshot':
      return { model: applySnapshot(model, frame, me), resume: null };
    case 'update':
      return applyUpdate(model, frame, me);
    case 'chat':
      return { model: applyChat(model, frame, me), resume: null };
    default:
      return { model, resume: null };
  }
}

function applySnapshot(m, f, me) {
  const view = f.view ? { ...f.view } : null;
  const tricks = view?.tricks ?? [];
  const last = tricks.length
    ? { ...tricks[tricks.length - 1], number: tricks.length }
    : (view && m.view && m.view.deal_number === view.deal_number - 1 ? m.lastTrick : null);
  const over = view && view.winner !== null && view.winner !== undefined;
  const next = {
    ...m,
    version: f.version,
    room: f.room,
    seat: f.seat ?? null,
    inviteCode: f.invite_code ?? null,
    view,
    turn: view ? view.turn : null,
    deadline: f.deadline ?? null,
    legal: view ? view.legal ?? [] : [],
    whyNot: view?.why_not ?? {},
    lastTrick: last,
    result: over ? { winner: view.winner, totals: view.totals } : null,
    claim: view?.phase === 'claim' && last
      ? { seat: view.turn, roem: last.roem, roem_parts: last.roem_parts, roem_cards: last.roem_cards } : null,
    closed: f.room?.status === 'closed',
    resyncFrom: null,
    chat: mergeChat(m.chat, (f.chat ?? []).map((c) => chatLine(c, me))),
  };
  next.dealEnd = snapshotDealEnd(m, next);
  return withTalk(next, m.version, f, me);
}

// The deal a snapshot shows finished: the one the pause waits on, or the match's last;
// what we knew of it (roem by kind) is kept, the sheet's line stands in otherwise.
function snapshotDealEnd(before, m) {
  const v = m.view;
  const sheet = v?.sheet ?? [];
  if (!sheet.length || (!m.room?.pause && !m.result)) return null;
  const line = sheet[sheet.length - 1];
  if (before.dealEnd?.number === line.number) return { ...before.dealEnd, final: Boolean(m.result) };
  return { ...line, totals: v.totals, kinds: null, tricksWon: null, final: Boolean(m.result) };
}

// The table talk of a snapshot's `recent` updates (the current deal so far) that came
// after `since`: what a page that reloads, or catches up, would have heard.
function withTalk(m, since, f, me) {
  const recent = f.recent ?? [];
  if (!recent.length) return m;
  let scratch = {
    ...newRoom(m.roomId), room: m.room, seat: m.seat, version: recent[0].version - 1,
    view: m.view ? { seat: m.seat, rules: m.view.rules, totals: [0, 0], sheet: [], winner: null } : null,
  };
  for (const frame of recent) {
    const { model, resume } = applyUpdate(scratch, frame, me);
    if (resume !== null) break;
    scratch = model;
  }
  const heard = scratch.log.filter((n) => n.version > since);
  if (!heard.length) return m;
  return addNotes(m, heard.map(({ kind, text, version }) => ({ kind, text, version })));
}

function applyUpdate(m, f, me) {
  if (m.version > 0 && f.version <= m.version) return { model: m, resume: null }; // seen
  if (m.version === 0 || f.version !== m.version + 1) {
    if (m.resyncFrom === m.version) return { model: m, resume: null }; // already asked
    return { model: { ...m, resyncFrom: m.version }, resume: m.version };
  }
  let next = {
    ...m,
    version: f.version,
    turn: f.turn ?? null,
    deadline: f.deadline ?? null,
    legal: f.legal ?? [],
    whyNot: f.why_not ?? {},
    resyncFrom: null,
  };
  if (f.room) next.room = f.room;
  const notes = kindNotes(m, next, f, me);
  const spoken = [];
  for (const event of f.events ?? []) next = applyEvent(next, event, notes, spoken);
  if (next.view) next.view = { ...next.view, turn: next.turn, legal: next.legal };
  if (f.kind === 'closed' || next.room?.status === 'closed') next.closed = true;
  if (isSeated(next) && next.legal.length && !(m.legal.length && m.turn === next.turn)) {
    const phase = next.view?.phase;
    spoken.push(phase === 'trump' ? TEXT.turnTrump : phase === 'claim' ? TEXT.turnClaim : TEXT.turnPlay);
  }
  next = addSpoken(next, spoken);
  return { model: addNotes(next, notes.map((n) => ({ ...n, version: f.version }))), resume: null };
}

// The daily game waits for an absent player (nobody plays its moves); other games play on.
function awayKey(model) {
  return model.room?.mode === 'daily' ? 'awayWaits' : 'away';
}

function note(kind, text) {
  return { kind, text };
}

function addNotes(m, notes) {
  if (!notes.length) return m;
  let seq = m.noteSeq;
  const added = notes.map((n) => ({ ...n, seq: ++seq }));
  return { ...m, noteSeq: seq, log: [...m.log, ...added].slice(-LOG_LIMIT) };
}

function addSpoken(m, lines) {
  if (!lines.length) return m;
  let seq = m.spoken.length ? m.spoken[m.spoken.length - 1].seq : 0;
  const added = lines.map((text) => ({ text, seq: ++seq }));
  return { ...m, spoken: [...m.spoken, ...added].slice(-SPOKEN_LIMIT) };
}

function kindNotes(before, after, f, me) {
  const seat = f.seat;
  const was = before.room?.seats?.[seat];
  const now = after.room?.seats?.[seat];
  const mine = (s) => Boolean(s?.player_id) && s.player_id === me;
  switch (f.kind) {
    case 'seat':
      if (!now) return [];
      if (now.cpu || now.player_id) {
        return [note('seat', mine(now) ? TEXT.sitsYou : fill(TEXT.sits, { name: now.cpu ? cpuName(now) : now.nickname }))];
      }
      if (was && (was.cpu || was.player_id)) {
        return [note('seat', fill(TEXT.leftTable, { name: mine(was) ? TEXT.You : was.cpu ? cpuName(was) : was.nickname }))];
      }
      return [];
    case 'ready':
      if (!now) return [];
      return [note('ready', said(after, seat, now.ready ? 'ready' : 'notReady'))];
    case 'start':
      return [note('start', TEXT.start)];
    case 'away':
      if (!now || !was || now.away === was.away) return [];
      return [note('away', said(after, seat, now.away ? awayKey(after) : 'back'))];
    case 'act':
      if (f.by === 'timeout') return [note('timeout', said(after, seat, 'timeout'))];
      return [];
    case 'closed':
      return [note('closed', TEXT.closed)];
    default:
      return [];
  }
}

const NO_ROEM = { run: 0, four: 0, stuk: 0 };

// A trick's roem in words, from the parts the server sends (`roem_parts`: run, four of a
// kind, stuk): "roem 50", "four of a kind (100)", "stuk (20)", "roem 20 and stuk (40)".
export function roemWords(parts, roem) {
  const values = { run: parts.run, roem };
  let text;
  if (parts.run && parts.stuk && !parts.four) text = fill(TEXT.roemRunStuk, values);
  else if (parts.run && !parts.four) text = fill(TEXT.roemRun, values);
  else if (parts.four && !parts.run && !parts.stuk) text = fill(TEXT.roemFour, values);
  else if (parts.stuk && !parts.run && !parts.four) text = fill(TEXT.roemStuk, values);
  else text = fill(TEXT.roemOther, values);
  return { text, kind: parts.run || parts.four || !parts.stuk ? 'roem' : 'stuk' };
}

// Roem by kind over finished tricks: {run, four, stuk}, summed.
export function roemByKind(tricks) {
  return tricks.reduce((sum, t) => ({
    run: sum.run + (t.roem_parts?.run ?? 0),
    four: sum.four + (t.roem_parts?.four ?? 0),
    stuk: sum.stuk + (t.roem_parts?.stuk ?? 0),
  }), { ...NO_ROEM });
}

// A finished deal for the end-of-deal panel: the `deal_ended` event as it came (its pit
// `bonus` included), and from the deal's tricks each team's roem by kind (`kinds`) and
// tricks won (`tricksWon`); those two null when the tricks are unknown.
function dealEndOf(e, tricks) {
  const { type, ...deal } = e;
  const known = tricks.length > 0;
  const teamTricks = (team) => tricks.filter((t) => teamOf(t.winner) === team);
  return {
    ...deal,
    kinds: known ? [0, 1].map((team) => roemByKind(teamTricks(team))) : null,
    tricksWon: known ? [0, 1].map((team) => teamTricks(team).length) : null,
    final: false,
  };
}

// A `trick_taken` event as a finished trick of the view; in claim mode its roem waits for
// the winner's decision (`roem_decided`).
function takenTrick(e) {
  const pending = Boolean(e.roem_pending);
  return {
    leader: e.leader, cards: e.cards, winner: e.winner, points: e.points,
    roem: pending ? 0 : e.roem, roem_parts: pending ? NO_ROEM : e.roem_parts, roem_cards: pending ? [] : e.roem_cards,
  };
}

// How each event changes the view (the match as we see it): what the event says, taken as
// it says it; the rules stay the server's. `m`: the room model the event comes to.
const FOLDS = {
  deal_started: (v, e, m) => ({
    ...(v ?? { seat: m.seat, rules: m.room?.rules ?? null, totals: [0, 0], sheet: [], winner: null }),
    phase: 'trump', deal_number: e.number, dealer: e.dealer, turn: null, legal: [],
    hand: e.hand, hand_sizes: e.hand_sizes, turned: e.turned,
    bids: [], first_bidder: null, trump: null, chooser: null,
    leader: null, trick: [], tricks: [], points: [0, 0], roem: [0, 0],
  }),
  passed: (v, e) => ({ ...v, ...bid(v, e.seat, 'pass') }),
  trump_chosen: (v, e) => ({ ...v, ...bid(v, e.seat, `trump:${e.suit}`), trump: e.suit, chooser: e.seat, phase: 'play' }),
  card_played: (v, e, m) => ({
    ...v,
    phase: 'play',
    leader: v.trick.length ? v.leader : e.seat, // the trick's first card is its leader's
    trick: plus(v.trick, e.card),
    hand: e.seat === m.seat ? v.hand.filter((c) => c !== e.card) : v.hand,
    hand_sizes: v.hand_sizes.map((n, seat) => (seat === e.seat ? n - 1 : n)),
  }),
  trick_taken: (v, e) => ({
    ...v,
    phase: e.roem_pending ? 'claim' : 'play',
    trick: [],
    leader: e.winner,
    tricks: plus(v.tricks, takenTrick(e)),
    points: bump(v.points, teamOf(e.winner), e.points),
    roem: e.roem_pending ? v.roem : bump(v.roem, teamOf(e.winner), e.roem),
  }),
  roem_decided: (v, e, m) => ({
    ...v,
    phase: 'play',
    tricks: v.tricks.map((t, i) => (i === v.tricks.length - 1 ? decided(t, e, m.claim) : t)),
    roem: e.take ? bump(v.roem, teamOf(e.seat), e.roem) : v.roem,
  }),
  deal_ended: (v, e) => {
    const { type, totals, ...line } = e;
    const base = v ?? { sheet: [] };
    return { ...base, sheet: plus(base.sheet ?? [], line), totals };
  },
  match_ended: (v, e) => v && { ...v, phase: 'done', turn: null, winner: e.winner, totals: e.totals },
};

// A bid: added to the deal's bids; the deal's first bid says who speaks first.
function bid(v, seat, action) {
  return { bids: plus(v.bids, action), first_bidder: v.bids.length ? v.first_bidder : seat };
}

// The trick whose roem the winner took (it scores, by the parts and cards it was announced
// with: `claim`) or left (nothing).
function decided(trick, e, claim) {
  return e.take
    ? { ...trick, roem: e.roem, roem_parts: claim?.roem_parts ?? trick.roem_parts, roem_cards: claim?.roem_cards ?? trick.roem_cards }
    : { ...trick, roem: 0, roem_parts: NO_ROEM, roem_cards: [] };
}

// What the rest of the room model keeps of each event: the last trick taken (shown a
// moment), the roem waiting for a claim, the deal's end and the match's result.
const KEPT = {
  deal_started: () => ({ claim: null }),
  trick_taken: (m, e) => ({
    lastTrick: { ...takenTrick(e), number: e.number },
    trickSerial: m.trickSerial + 1,
    claim: e.roem_pending ? { seat: e.winner, roem: e.roem, roem_parts: e.roem_parts, roem_cards: e.roem_cards } : null,
  }),
  roem_decided: (m, e) => ({ lastTrick: m.lastTrick && decided(m.lastTrick, e, m.claim), claim: null }),
  deal_ended: (m, e) => ({ dealEnd: dealEndOf(e, m.view?.tricks ?? []) }),
  match_ended: (m, e) => ({
    result: { winner: e.winner, totals: e.totals },
    dealEnd: m.dealEnd && { ...m.dealEnd, final: true },
  }),
};

// What the table hears of an event: notes for the log, lines for screen readers.
function tell(m, e, notes, spoken) {
  switch (e.type) {
    case 'deal_started':
      notes.push(note('deal', said(m, e.dealer, 'deals', { number: e.number + 1 })));
      break;
    case 'passed':
      notes.push(note('bid', said(m, e.seat, 'pass')));
      break;
    case 'trump_chosen':
      notes.push(note('trump', said(m, e.seat, 'choose', { suit: SUIT_NAMES[e.suit] })));
      break;
    case 'card_played':
      if (e.seat !== m.seat) spoken.push(said(m, e.seat, 'plays', { card: cardWords(e.card) }));
      break;
    case 'trick_taken':
      spoken.push(said(m, e.winner, 'winsTrick'));
      if (e.roem > 0) notes.push(roemNote(m, e));
      break;
    case 'roem_decided':
      notes.push(note('roem', said(m, e.seat, e.take ? 'take' : 'leave', { roem: e.roem })));
      break;
    case 'deal_ended': {
      const [first, second] = teamOrder(m);
      notes.push(note('deal', fill(TEXT.dealScore, {
        number: e.number + 1,
        teamA: teamLabel(m, first), a: e.score[first], teamB: teamLabel(m, second), b: e.score[second],
      })));
      if (e.nat) notes.push(note('nat', teamSaid(m, teamOf(e.chooser), 'nat', { suit: SUIT_NAMES[e.trump] })));
      if (e.pit !== null && e.pit !== undefined) notes.push(note('pit', teamSaid(m, e.pit, 'pit')));
      break;
    }
    case 'match_ended':
      notes.push(note('match', matchWords(m, e)));
      break;
    default:
  }
}

// A trick's roem said: offered to its winner (claim mode), or scored for a team.
function roemNote(m, e) {
  const { text: roem, kind } = roemWords(e.roem_parts, e.roem);
  if (e.roem_pending) return note(kind, said(m, e.winner, 'claim', { roem }));
  const partner = isSeated(m) && m.seat !== e.winner && teamOf(m.seat) === teamOf(e.winner);
  const key = m.seat === e.winner ? 'roemForYou' : partner ? 'roemForPartner' : 'roemFor';
  return note(kind, fill(TEXT[key], { name: who(m, e.winner), roem }));
}

// The match's end in a sentence: won or lost (seated), or who won (a spectator).
function matchWords(m, e) {
  if (!isSeated(m)) {
    return fill(TEXT.teamWonMatch, { team: teamLabel(m, e.winner), winner: e.totals[e.winner], loser: e.totals[1 - e.winner] });
  }
  const mine = teamOf(m.seat);
  const values = { us: e.totals[mine], them: e.totals[1 - mine] };
  return fill(e.winner === mine ? TEXT.wonMatch : TEXT.lostMatch, values);
}

// Events that come to a room model without a view yet too (a deal's start makes it).
const WITHOUT_VIEW = new Set(['deal_started', 'deal_ended', 'match_ended']);

// One event applied: told, then folded into the view and the rest of the room model.
function applyEvent(m, e, notes, spoken) {
  tell(m, e, notes, spoken);
  const fold = FOLDS[e.type];
  if (!fold || (!m.view && !WITHOUT_VIEW.has(e.type))) return m;
  return { ...m, view: fold(m.view, e, m), ...KEPT[e.type]?.(m, e) };
}

function chatLine(f, me) {
  return {
    nickname: f.nickname, text: f.text, at: f.at, mine: Boolean(me) && f.player_id === me,
  };
}

// A snapshot's chat lines after the ones we have (all of them on a fresh page).
function mergeChat(have, lines) {
  const after = have.length ? have[have.length - 1].at : -Infinity;
  return [...have, ...lines.filter((l) => l.at > after)].slice(-CHAT_LIMIT);
}

function applyChat(m, f, me) {
  return { ...m, chat: [...m.chat, chatLine(f, me)].slice(-CHAT_LIMIT) };
}

// Whether the room pauses now between deals (the server's `room.pause`).
export function paused(model) {
  return Boolean(model.room?.pause) && !isOver(model);
}

// The cards played by others this deal, and "your turn", for screen readers (newest last).
export function spokenSince(model, seq) {
  return model.spoken.filter((s) => s.seq > seq);
}

// Each seat's latest word in the trump choice this deal: seat -> "pass" | "trump:h" (the
// seats speak in turn from `first_bidder`).
export function bidsBySeat(view) {
  const out = {};
  if (!view) return out;
  view.bids.forEach((action, i) => {
    out[(view.first_bidder + i) % 4] = action;
  });
  return out;
}

// The current trick's cards with their seats: [{seat, card}].
export function trickCards(view) {
  if (!view) return [];
  return view.trick.map((card, i) => ({ seat: (view.leader + i) % 4, card }));
}

export function playedCards(trick) {
  return trick.cards.map((card, i) => ({ seat: (trick.leader + i) % 4, card }));
}

// -- the lobby --------------------------------------------------------------------------

export function newLobby() {
  return { rooms: {}, tournaments: {}, online: null, loaded: false };
}

const byId = (list) => Object.fromEntries((list ?? []).map((x) => [x.id, x]));

function without(map, id) {
  const copy = { ...map };
  delete copy[id];
  return copy;
}

export function applyLobby(lobby, f) {
  switch (f.type) {
    case 'lobby':
      return {
        rooms: byId(f.rooms), tournaments: byId(f.tournaments), online: f.online ?? lobby.online,
        loaded: true,
      };
    case 'lobby_room':
      return { ...lobby, rooms: { ...lobby.rooms, [f.room.id]: f.room } };
    case 'lobby_room_gone':
      return { ...lobby, rooms: without(lobby.rooms, f.room_id) };
    case 'lobby_presence':
      return { ...lobby, online: f.online };
    case 'lobby_tournament':
      return {
        ...lobby,
        tournaments: {
          ...lobby.tournaments,
          [f.tournament.id]: newerTournament(lobby.tournaments[f.tournament.id], f.tournament),
        },
      };
    case 'lobby_tournament_gone':
      return { ...lobby, tournaments: without(lobby.tournaments, f.tournament_id) };
    default:
      return lobby;
  }
}

// -- tournaments ------------------------------------------------------------------------

// The newer of two summaries of one tournament (live scores come without a new version).
export function newerTournament(prev, next) {
  if (prev && (prev.version ?? 0) > (next.version ?? 0)) return prev;
  return next;
}

export function roundName(t, index) {
  const total = t.round_count ?? t.rounds.length;
  if (index === total - 1) return EVENTS.final;
  if (index === total - 2 && total >= 3) return EVENTS.semiFinals;
  return fill(EVENTS.round, { n: index + 1 });
}

// What a tournament means for player `me`: registered?, their table, waiting, through, out.
export function tournamentInfo(t, me) {
  const registered = (t.registered ?? []).some((r) => r.id === me);
  let mine = null;
  (t.rounds ?? []).forEach((tables, round) => {
    tables.forEach((table, index) => {
      const seat = table.seats.findIndex((s) => s.id === me);
      if (seat >= 0) mine = { round, index, seat, table };
    });
  });
  const last = (t.rounds ?? []).length - 1;
  const current = last >= 0 ? t.rounds[last] : [];
  const decided = mine && mine.table.winner !== null && mine.table.winner !== undefined;
  const won = decided && mine.table.winner === teamOf(mine.seat);
  const playing = t.status === 'running' && mine && mine.round === last && !decided;
  const othersPlaying = current.some((table) => table.winner === null || table.winner === undefined);
  return {
    registered,
    mine, // {round, index, seat, table} in the latest round where `me` sat
    playing, // seated at a table of the current round that is still being played
    waiting: t.status === 'running' && Boolean(decided) && mine.round === last && othersPlaying,
    through: Boolean(won) && t.status === 'running',
    out: Boolean(decided) && !won && t.status === 'running',
    roundCount: t.round_count ?? t.rounds.length,
  };
}

export function prizeName(prize) {
  if (prize === 'grand') return EVENTS.grandPrize;
  if (prize === 'second') return EVENTS.secondPrize;
  return null;
}

// A resume was asked from `version`: remember it, so a gap seen meanwhile asks no more.
export function markResync(model, version) {
  return { ...model, resyncFrom: version };
}

// -- rematches ---------------------------------------------------------------------------

// A `rematch` frame onto the last one of that room: each lists everyone who accepted so
// far, so the one with the new table, else the one with the most acceptances, wins.
export function applyRematch(prev, f) {
  const next = {
    roomId: f.room_id, accepted: f.accepted ?? [], waiting: f.waiting ?? [], newRoomId: f.new_room_id ?? null,
  };
  if (!prev) return next;
  if (prev.newRoomId) return prev;
  if (next.newRoomId || next.accepted.length >= prev.accepted.length) return next;
  return prev;
}

// Where a rematch stands for player `me`: `none` (nobody accepted yet), `offered` (others
// accepted, not you), `waiting` (you accepted, others have not), `ready` (the new table).
export function rematchState(r, me) {
  if (!r) return 'none';
  if (r.newRoomId) return 'ready';
  if (r.accepted.includes(me)) return 'waiting';
  return r.accepted.length ? 'offered' : 'none';
}

// The rematch in a sentence for player `me` (`room`: the finished room's summary, for the
// names): "ann wants a rematch.", "You accepted the rematch. Waiting for bob.".
export function rematchWords(r, room, me) {
  const names = (ids) => new Intl.ListFormat(currentLanguage(), { type: 'conjunction' })
    .format(ids.map((id) => rematchName(room, id, me)));
  const state = rematchState(r, me);
  if (state === 'ready') return EVENTS.rematchReady;
  if (state === 'waiting') return fill(EVENTS.rematchWaiting, { names: names(r.waiting) });
  if (state === 'offered') return plural(EVENTS.rematchWants, r.accepted.length, { names: names(r.accepted) });
  return '';
}

// A player of the finished room by name ("you" for `me`).
export function rematchName(room, id, me) {
  if (id === me) return EVENTS.you;
  return room?.seats?.find((s) => s.player_id === id)?.nickname ?? EVENTS.aPlayer;
}
