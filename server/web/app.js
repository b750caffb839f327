// The page: holds the client state, routes frames to the reducers, wires the controls.
//
// State changes only here (and in the pure reducers of state.js); the views read `app`
// and redraw once per animation frame.

import { $, show } from './dom.js';
import { Connection, resumeMessages, routePath, serverUrl } from './protocol.js';
import {
  applyFrame, applyLobby, applyRematch, isOver, markResync, newLobby, newRoom, newerTournament,
  tournamentInfo,
} from './state.js';
import {
  buildCpuLevels, buildForm, buildNewGameForm, createMessage, loadForm,
  newGameMessage, newGameSummary, renderLobby, roomTitle, saveForm, saveNewGame, setEndLimits, wirePreset, wireRated,
  buildSheetForm, dailyUnderWay,
} from './lobby.js';
import { loadCatalog } from './catalog.js';
import { renderTable, renderTimer, whyNot } from './table.js';
import { renderPauseClock } from './results.js';
import { setSound, setTitle, soundOn, turnSound, wakeAudio } from './alerts.js';
import { lookUpInvite, newInvite, renderHello, renderInvite, wantsSeat } from './invite.js';
import { openRules } from './rules.js';
import { confirmStep, trapFocus, wireConfirm } from './dialogs.js';
import { fill, fillParts } from './fill.js';
import { LANGUAGES, chooseLanguage, currentLanguage, startLanguage, strings } from './i18n.js';
import { errorText } from './errors.js';
import { renderTip, setTipsOn } from './tips.js';
import { keepTalk, withKeptTalk } from './talk.js';
import { renderTournament } from './tournament.js';
import {
  PAGE, alltimeMessage, alltimeReply, boardMessage, boardRefused, boardReply, confirmDailyStart, isDay,
  newBoards, renderBoards, shiftDay, todayUtc,
} from './daily.js';
import { ratingAsked, ratingMessage, ratingRefused, ratingReply, renderRating } from './rating.js';
import {
  PAGE as HISTORY_PAGE, matchTitle, newProfile, nicknameRefused, nicknameSaved, nicknameSent, profileAsked, profileMessage,
  profileRefused, profileReply, renderProfile,
} from './profile.js';
import {
  TRICKS, asked, newReview, renderReview, reviewMessage, reviewRefused, reviewReply,
  reviewRetrying, showDeal, stepTrick,
} from './review.js';
import {
  buildRoemSteps, changeMessage, createSheetMessage, dealFields, fillEntry, newSheet, openMessage,
  renderSheet, setEntry, sheetDraft, sheetRefused, sheetSent, sheetSnapshot, sheetUpdate, syncEntry,
} from './sheet.js';
import {
  buildEveningForm, checkInFields, closeQuestion, createEveningMessage, eveningAsked, eveningFrame, fillEveningButton,
  newEvening, openMessage as eveningOpen, penaltyFields, pickEntrant, renderEvening, renderSheetEvening, setEveningClub,
  syncEveningForm, undoQuestion, withdrawQuestion,
} from './evening.js';
import { commandRefused, commandSent, nextCommand, queueCommand, queueReopened } from './commands.js';
import {
  addStart, buildClubForm, clubAsked, clubFrame, clubLeave, clubOpen, createClubMessage, fillClubButton, forgetCode,
  keepClub, keptCode, newClub, removeQuestion, removeStart, renderClub, revokeQuestion, seasonDraft, seasonFields,
  toggleHistory,
} from './club.js';

const TEXT = strings('app', {
  profile: '{name}: your profile', // #me's label for screen readers: the nickname, a button to your profile
  profileNobody: 'Your profile',
  connecting: 'Connecting…', // the connection's state, top right
  online: 'Online',
  offline: 'Offline',
  retrying: 'Offline · retrying in {seconds} s',
  notConnected: 'Not connected to the server: reconnecting…',
  tableClosed: 'The table was closed.',
  leaveTournament: 'Leave the tournament for good? A CPU takes your place.', // asked before leaving a running tournament
  resignTitle: 'End this game?', // asked before a solo game is ended for good
  resignGone: 'The game stops here, unfinished: it gets no result and cannot be taken up again.',
  resignKeep: 'To go on with it later, choose “‹ Lobby” instead: the game stays under “Your tables”.',
  resignYes: 'End the game',
  resignNo: 'Keep playing',
  copied: 'Copied!', // a Copy link button, once the link is copied
  selectAndCopy: 'Select and copy', // the same, when the browser may not copy: the link is selected
  copyLink: 'Copy link',
  choosePlaying: 'Choose the team that played.', // the score sheet's entry: no team chosen as playing
  enterPoints: 'Enter the card points of one team.',
  nicknameLength: 'Choose a nickname of 2 to 24 characters.',
  sheetTeam0: 'Us', // a new score sheet's team names, in the page's language: "we" and "they" (Dutch: Wij, Zij)
  sheetTeam1: 'Them',
  // Sentences of the static page with elements in them ({slots}: index.html's data-slot)
  newGameNow: 'You and a CPU partner against two CPUs, right now: {rules}.', // {rules}: a summary of the rules last chosen
  otherTeamHas: 'So {team} has {points}.', // the score sheet's entry: the other team's card points
});

const TOKEN_KEY = 'klaverjas.token';
const REFRESH_CODES = new Set([
  'not_your_turn', 'wrong_phase', 'card_not_in_hand', 'illegal_card', 'illegal_action',
  'stale_version', 'not_playing', 'deal_pause',
]);
const GONE_CODES = new Set(['no_such_room', 'room_closed', 'not_a_member']);
const BOARD_CODES = new Set(['daily_not_finished', 'no_such_day']); // said on the boards screen
const OPENING = ['take_seat', 'watch', 'create_room', 'resume', 'new_game', 'daily_start'];
const SCREENS = ['hello', 'lobby', 'table', 'tournament', 'boards', 'profile', 'review', 'scoresheet', 'evening', 'club'];
const KEEPS_TABLE = new Set(['table', 'review', 'profile']); // screens a finished table waits behind
const TOAST_KINDS = new Set(['roem', 'stuk', 'nat', 'pit']);
const TRICK_HOLD = 1.6; // seconds a taken trick stays on the table
const TOAST_TIME = 2.8;
const WHY_TIME = 4.5; // seconds the reason a card may not be played stays

function storedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

const app = {
  me: null, // player_id
  nickname: null,
  token: storedToken(),
  welcomed: false, // this connection is identified
  everWelcomed: false,
  lobby: newLobby(),
  rooms: new Map(), // room_id -> room model (state.js)
  tournaments: new Map(), // tournament_id -> latest summary
  watchedTournaments: new Set(),
  tournamentTables: new Set(), // tournament tables this page took the player to (once each)
  screen: 'boot', // hello | lobby | table | tournament | boards | profile | review
  current: null, // the room shown
  currentTournament: null,
  openNext: false, // show the next snapshot's room (after create / join by code)
  openRoomId: null, // show this room when its snapshot arrives
  acted: new Map(), // room_id -> the version we answered (buttons quiet until the next)
  hints: new Map(), // room_id -> the last hint frame (shown while its version is current)
  hintAsked: new Map(), // room_id -> the version a hint was asked at (the button waits)
  heard: new Map(), // room_id -> when its last frame came (seconds)
  pendingNickname: null,
  pendingInvite: null,
  join: null, // joining by invite code: {code}
  invite: null, // asking an invited player where to sit: {roomId, seat} (invite.js)
  codes: new Map(), // room_id -> the invite code it was joined with (private rooms)
  retried: new Set(), // refs of messages sent again after room_unavailable
  errorRetry: null,
  errorTimer: null,
  boards: newBoards(), // the daily boards screen (daily.js)
  dailyPlayed: false, // daily_start was refused: today's game is played
  dailyFinished: null, // the day of a daily game this page saw finished
  profile: null, // the profile shown (profile.js)
  profileFrom: 'lobby', // the screen the profile was opened from (its Back button)
  review: null, // the match review shown (review.js)
  reviewFrom: null, // {screen, roomId}: where the review was opened from
  rematches: new Map(), // finished room_id -> where its rematch stands (state.js applyRematch)
  rematchAsked: new Set(), // finished rooms this page asked a rematch of
  continued: new Map(), // room_id -> the deal number whose end we said `continue` to
  sheet: newSheet(), // the score sheet shown (sheet.js)
  pendingSheet: null, // a sheet's code from the page's address (an onlooker's opens before any hello)
  evening: newEvening(), // the club evening shown (evening.js)
  pendingEvening: null, // an evening's code from the page's address (opened once welcomed)
  club: newClub(), // the club shown, or the one whose evening's console shows (club.js)
  pendingClub: null, // a club's code from the page's address (opened once welcomed)
  hello: null, // what the page's link opens, said on the nickname screen (invite.js renderHello)
  online: false, // the connection is open
  pastRooms: new Map(), // room_id -> the summary of a finished table the page left (its names)
  ui: { lastTrickOpen: false, trickHold: null, toast: null, tipsHidden: new Set() },
  now: () => Date.now() / 1000,
};

const conn = new Connection(serverUrl(), {
  onOpen: sayHello,
  onState: showStatus,
  onFrame: (frame, sent) => {
    handleFrame(frame, sent);
    render();
  },
});

function send(message) {
  const ref = conn.send(message);
  if (ref === null) showError(TEXT.notConnected);
  return ref;
}

// -- the connection ----------------------------------------------------------------------

function showStatus(state, detail = {}) {
  if (state !== 'open') app.welcomed = false;
  app.online = state === 'open';
  if (app.screen === 'scoresheet') render(); // the sheet says it is offline
  const el = $('#status');
  el.dataset.state = state;
  if (state === 'connecting') el.textContent = TEXT.connecting;
  else if (state === 'open') el.textContent = TEXT.online;
  else if (detail.retryIn) el.textContent = fill(TEXT.retrying, { seconds: Math.max(1, Math.round(detail.retryIn)) });
  else el.textContent = TEXT.offline;
}

function sayHello() {
  if (app.token) conn.send({ type: 'hello', token: app.token });
  else if (app.pendingNickname) conn.send({ type: 'hello', nickname: app.pendingNickname });
  else {
    // A sheet's link opens before any nickname: an onlooker just watches it.
    const sheet = app.pendingSheet ?? (app.screen === 'scoresheet' ? app.sheet.code : null);
    if (sheet) conn.send(openMessage(sheet));
    if (app.screen !== 'scoresheet') goScreen('hello');
  }
}

function onWelcome(f) {
  const first = !app.everWelcomed;
  app.welcomed = true;
  app.everWelcomed = true;
  app.continued.clear(); // a `continue` lost with the old connection may be said again
  app.me = f.player_id;
  app.nickname = f.nickname;
  app.pendingNickname = null;
  app.hello = null;
  $('#hello-form button[type=submit]').disabled = false;
  if (f.token) {
    app.token = f.token;
    try {
      localStorage.setItem(TOKEN_KEY, f.token);
    } catch {
      // private mode: this identity lasts as long as the page
    }
  }
  // Resume every room we follow with the last version applied, then the seats we hold.
  const followed = [...app.rooms.values()].map((m) => ({
    roomId: m.roomId, version: m.version, done: isOver(m) || m.closed,
  }));
  for (const message of resumeMessages(followed, f.rooms)) resume(message.room_id, message.version);
  for (const r of f.rooms ?? []) app.tournamentTables.add(r.room_id); // resumed: no need to take me there
  if (first && app.screen !== 'table' && (f.rooms ?? []).length) {
    const pick = f.rooms.find((r) => r.status === 'playing') ?? f.rooms[0];
    app.openRoomId = pick.room_id;
  }
  conn.send({ type: 'lobby_subscribe' });
  for (const tid of app.watchedTournaments) conn.send({ type: 'tournament_watch', tournament_id: tid });
  if (app.pendingInvite) {
    joinByInvite(app.pendingInvite);
    app.pendingInvite = null;
  }
  if (app.screen === 'boards') {  // replies lost with the old connection: ask again
    app.boards = { ...app.boards, pending: 0, alltimePending: 0, ratingPending: 0 };
    if (app.boards.view === 'alltime') requestAlltime();
    else if (app.boards.view === 'rating') requestRating();
    else requestBoard();
  }
  if (app.profile && !app.profile.data) {
    app.profile = { ...app.profile, pending: 0 };
    if (app.screen === 'profile') requestProfile();
  }
  if (app.review && app.review.pending !== null) {
    app.review = { ...app.review, pending: null };
    if (app.screen === 'review') askReviewDeal(app.review.deal);
  }
  if (app.pendingSheet) {
    send(openMessage(app.pendingSheet));
    app.pendingSheet = null;
  } else if (app.screen === 'scoresheet' && app.sheet.code) {
    send(openMessage(app.sheet.code)); // back online: the sheet as it stands now
  }
  if (app.pendingEvening) {
    askEvening(app.pendingEvening);
    send(eveningOpen(app.pendingEvening));
    app.pendingEvening = null;
  } else if (app.screen === 'evening' && app.evening.code) {
    app.evening = queueReopened(app.evening);
    send(eveningOpen(app.evening.code)); // back online: the evening as it stands now
  }
  if (app.pendingClub) {
    askClub(app.pendingClub);
    app.pendingClub = null;
  } else if (app.club.code) {
    app.club = queueReopened(app.club);
    send(clubOpen(app.club.code)); // back online: the club as it stands now
  }
  if (app.screen === 'hello' || app.screen === 'boot') goScreen('lobby');
}

function resume(roomId, version) {
  const m = app.rooms.get(roomId);
  if (m) app.rooms.set(roomId, markResync(m, version));
  conn.send({ type: 'resume', room_id: roomId, version });
}

// A lost update shows as a gap only when the next one comes: when the shown room has been
// quiet for a while, ask for anything missed (the server answers nothing if up to date).
const QUIET = 8; // seconds
function watchdog() {
  const m = app.rooms.get(app.current);
  if (!app.welcomed || app.screen !== 'table' || !m || m.version === 0 || isOver(m)) return;
  if (m.room?.status !== 'playing') return;
  const now = app.now();
  if (now - (app.heard.get(m.roomId) ?? now) < QUIET) return;
  app.heard.set(m.roomId, now);
  conn.send({ type: 'resume', room_id: m.roomId, version: m.version });
}

// -- frames ------------------------------------------------------------------------------

function handleFrame(f, sent) {
  switch (f.type) {
    case 'welcome':
      onWelcome(f);
      break;
    case 'error':
      onError(f, sent);
      break;
    case 'lobby':
      app.lobby = applyLobby(app.lobby, f);
      for (const t of f.tournaments ?? []) app.tournaments.set(t.id, newerTournament(app.tournaments.get(t.id), t));
      break;
    case 'lobby_tournament':
      app.lobby = applyLobby(app.lobby, f);
      app.tournaments.set(f.tournament.id, newerTournament(app.tournaments.get(f.tournament.id), f.tournament));
      break;
    case 'lobby_room':
    case 'lobby_room_gone':
    case 'lobby_presence':
    case 'lobby_tournament_gone':
      app.lobby = applyLobby(app.lobby, f);
      break;
    case 'snapshot':
    case 'update':
    case 'chat':
      onRoomFrame(f);
      break;
    case 'tournament':
      onTournament(f.tournament);
      break;
    case 'hint':
      app.hints.set(f.room_id, f);
      app.hintAsked.delete(f.room_id);
      break;
    case 'daily_board':
      app.boards = boardReply(app.boards, f);
      break;
    case 'daily_alltime':
      app.boards = alltimeReply(app.boards, f);
      break;
    case 'rating_board':
      app.boards = ratingReply(app.boards, f);
      break;
    case 'profile':
      app.profile = profileReply(app.profile, f);
      break;
    case 'nickname':
      app.nickname = f.nickname;
      app.profile = nicknameSaved(app.profile, f);
      break;
    case 'review':
      app.review = reviewReply(app.review, f);
      break;
    case 'rematch':
      onRematch(f);
      break;
    case 'route':
      onRoute(f);
      break;
    case 'sheet':
      app.sheet = sheetSnapshot({ ...app.sheet, code: f.codes[f.role] }, f);
      // The table's link, before a nickname: the nickname screen says which sheet it opens.
      if (!app.everWelcomed && f.role === 'edit') app.hello = { kind: 'sheet', state: 'sheet', sheet: f.sheet };
      else if (app.screen !== 'scoresheet') openSheet();
      break;
    case 'sheet_update':
      app.sheet = sheetUpdate(app.sheet, f);
      break;
    case 'evening': {
      const first = app.evening.id === null; // the answer to our evening_open or evening_create
      app.evening = eveningFrame(app.evening, f);
      if (first && app.evening.id === f.evening_id) openEvening();
      followEveningClub();
      sendQueued('evening');
      break;
    }
    case 'club': {
      const before = app.club;
      app.club = clubFrame(before, f);
      const ours = app.club.id === f.club_id;
      if (ours && (before.id === null || before.code !== app.club.code || before.name !== app.club.name)) {
        keepClub(app.club, before.id !== null); // the same club followed: its code changed (revoked)
      }
      if (ours && before.id === null && app.club.shown) openClub();
      else if (ours && before.code !== app.club.code && app.screen === 'club') clubAddress(); // revoked: the view code
      sendQueued('club');
      break;
    }
    default:
      break; // pong, record
  }
}

// The room shown where we sit (or, away from a table, the tournament shown) runs on another
// server: move there, so its updates need not cross between the servers (Connection.moveTo).
// A spectator stays (it could not resume a private room there).
function onRoute(f) {
  const path = routePath(f);
  const seated = f.room_id === app.current && app.rooms.get(f.room_id)?.seat != null;
  const shown = f.room_id ? seated : app.screen !== 'table' && f.tournament_id === app.currentTournament;
  if (path && shown && app.token) conn.moveTo(serverUrl(window.location, path), { type: 'hello', token: app.token });
}

function onRoomFrame(f) {
  const id = f.room_id;
  app.heard.set(id, app.now());
  let before = app.rooms.get(id);
  if (!before) {
    if (f.type !== 'snapshot') return; // a room we left: its last frames trail in
    before = newRoom(id);
  }
  const { model: applied, resume: from } = applyFrame(before, f, app.me);
  // A fresh page: the table talk of the earlier deals, as this device heard it.
  const model = f.type === 'snapshot' && before.version === 0 ? withKeptTalk(applied) : applied;
  app.rooms.set(id, model);
  if (model.log !== before.log) keepTalk(id, model.log);
  if (from !== null) conn.send({ type: 'resume', room_id: id, version: from });

  if (model.room?.mode === 'daily' && isOver(model)) app.dailyFinished = model.room.day; // no need to ask
  if (f.type === 'snapshot') {
    if (model.room?.mode === 'daily') app.dailyPlayed = false;
    const invited = Boolean(app.join && app.openNext);
    if (invited) app.codes.set(id, app.join.code); // to sit down later
    if (invited && wantsSeat(model)) app.invite = newInvite(model); // asked where to sit
    if (model.inviteCode) app.codes.set(id, model.inviteCode);
    if (app.openRoomId === id || (app.openNext && app.current !== id) || (app.openNext && app.screen !== 'table')) {
      app.openRoomId = null;
      app.openNext = false;
      app.join = null;
      openTable(id);
    }
  }
  const now = app.now();
  if (model.trickSerial !== before.trickSerial && model.lastTrick) {
    app.ui.trickHold = { roomId: id, serial: model.trickSerial, until: now + TRICK_HOLD };
    later(TRICK_HOLD);
  }
  if (f.type === 'update') {
    // A decision became ours: a short sound (on any screen), if the player wants it.
    if (model.seat !== null && model.legal.length && !(before.legal.length && before.turn === model.turn)) turnSound();
    if (f.kind === 'start' && app.current === id && app.screen === 'table') window.scrollTo(0, 0);
    if (model.result && !before.result && app.current === id) app.ui.lastTrickOpen = false;
    const fresh = model.log.filter((n) => n.seq > before.noteSeq && TOAST_KINDS.has(n.kind));
    if (fresh.length) {
      const last = fresh[fresh.length - 1];
      app.ui.toast = { roomId: id, kind: last.kind, text: last.text, until: now + TOAST_TIME };
      later(TOAST_TIME);
    }
  }
  if (model.closed && !before.closed) {
    app.rooms.delete(id);
    if (app.current === id && app.screen === 'table') {
      goScreen('lobby');
      showError(TEXT.tableClosed);
    }
  }
}

function onTournament(t) {
  const prev = app.tournaments.get(t.id);
  const next = newerTournament(prev, t);
  app.tournaments.set(t.id, next);
  if (app.lobby.tournaments[t.id]) {
    app.lobby = {
      ...app.lobby,
      tournaments: { ...app.lobby.tournaments, [t.id]: newerTournament(app.lobby.tournaments[t.id], t) },
    };
  }
  // A round starts with my table: the page takes me there at once (the clock runs), once
  // per table, unless I am playing another match on screen.
  const info = tournamentInfo(next, app.me);
  const roomId = info.playing ? info.mine.table.room_id : null;
  if (!roomId || app.tournamentTables.has(roomId)) return;
  app.tournamentTables.add(roomId);
  const shown = app.screen === 'table' ? app.rooms.get(app.current) : null;
  const busy = shown && shown.roomId !== roomId && shown.seat !== null && shown.room?.status === 'playing'
    && !isOver(shown);
  if (busy) return; // the lobby's item and the tournament view say the table is waiting
  app.openRoomId = roomId;
  resume(roomId, 0);
}

// Every player of a finished match hears each acceptance of its rematch; once everyone
// accepted it names the new table, which the players resume (and this page opens, if it
// asked for the rematch or shows the finished table).
function onRematch(f) {
  const before = app.rematches.get(f.room_id) ?? null;
  const next = applyRematch(before, f);
  app.rematches.set(f.room_id, next);
  if (!next.newRoomId || before?.newRoomId || !next.accepted.includes(app.me)) return;
  const shown = app.screen === 'table' && app.current === f.room_id;
  if (shown || app.rematchAsked.has(f.room_id)) app.openRoomId = next.newRoomId;
  app.rematchAsked.delete(f.room_id);
  resume(next.newRoomId, 0);
}

function onError(frame, sent) {
  const code = frame.code;
  // What the player reads: the code's sentence in the page's language (errors.js).
  const f = { ...frame, message: errorText(frame, sent) };
  // The server's own fault (it says when to try again): once, automatically.
  const ours = typeof f.retry_after === 'number';
  if (sent && ours && !app.retried.has(sent.ref)) {
    if (sent.type === 'review') app.review = reviewRetrying(app.review, sent);
    const { ref, ...again } = sent;
    setTimeout(() => {
      const newRef = conn.send(again);
      if (newRef) app.retried.add(newRef);
    }, f.retry_after * 1000);
    return;
  }
  if (sent?.type === 'hello') {
    $('#hello-form button[type=submit]').disabled = false;
    if (code === 'bad_token') {
      try {
        localStorage.removeItem(TOKEN_KEY);
      } catch {
        // nothing stored
      }
      app.token = null;
      goScreen('hello');
      showError(f.message, null, code);
      return;
    }
  }
  if (sent?.type === 'watch' && app.join) app.join = null;
  if (sent?.type === 'take_seat' && code === 'seat_taken') {
    const m = app.rooms.get(app.current);
    if (m && wantsSeat(m)) app.invite = newInvite(m); // taken meanwhile: choose again
  }
  if (sent?.type === 'resume') {
    const explicit = app.openRoomId === sent.room_id;
    if (GONE_CODES.has(code)) {
      const m = app.rooms.get(sent.room_id);
      if (!m || !isOver(m)) {
        app.rooms.delete(sent.room_id);
        if (app.current === sent.room_id && app.screen === 'table') goScreen('lobby');
      }
      if (explicit) {
        app.openRoomId = null;
        showError(f.message, null, code);
      }
      return;
    }
  }
  if (sent?.type === 'tournament_watch') {
    // A finished tournament cannot be watched any more; what we know of it stays shown.
    app.watchedTournaments.delete(sent.tournament_id);
    if (app.tournaments.has(sent.tournament_id)) return;
  }
  if (sent?.type === 'daily_board') {
    app.boards = boardRefused(app.boards, f, sent);
    if (BOARD_CODES.has(code)) return; // the boards screen says it in its own words
  }
  if (sent?.type === 'daily_alltime') {
    app.boards = { ...app.boards, alltimePending: Math.max(0, app.boards.alltimePending - 1) };
  }
  if (sent?.type === 'review') {
    app.review = reviewRefused(app.review, f, sent);
    return; // the review screen says it in its own words
  }
  if (sent?.type === 'get_profile') {
    app.profile = profileRefused(app.profile, f, sent);
    return; // the profile screen says it
  }
  if (sent?.type === 'set_nickname') {
    app.profile = nicknameRefused(app.profile, f);
    return; // next to the nickname form
  }
  if (sent?.type?.startsWith('sheet_') && sent.type !== 'sheet_create' && sent.type !== 'sheet_open') {
    app.sheet = sheetRefused(app.sheet, f);
    return; // the sheet says it, beside what was typed
  }
  if (sent?.type === 'sheet_open' && !app.everWelcomed) {
    app.hello = { kind: 'sheet', state: code }; // the nickname screen says so
    app.pendingSheet = null;
    return;
  }
  if (sent?.type === 'sheet_open' && app.screen === 'scoresheet') goLobby();
  if (sent?.type === 'evening_open' && !app.evening.id) app.evening = newEvening(); // a link that opens none
  if (sent?.type?.startsWith('evening_')) {
    app.evening = commandRefused(app.evening, sent);
    if (sent.type === 'evening_check_in') restoreCheckIn(sent);
    sendQueued('evening'); // the next one may go (the #error below says what was refused)
  }
  if (sent?.type === 'club_open' && !app.club.id && sent.code === app.club.code) {
    const shown = app.club.shown;
    if (code === 'bad_club_code') forgetCode(sent.code); // revoked: this device forgets it
    app.club = newClub();
    if (!shown) return; // looked up for an evening's console: its check-in by name stays
  }
  if (sent?.type?.startsWith('club_')) {
    app.club = commandRefused(app.club, sent);
    if (sent.type === 'club_member_add') restoreName('#club-member-add', sent.name);
    if (sent.type === 'club_organiser_add') restoreName('#club-organiser-add', sent.name);
    sendQueued('club');
  }
  if (sent?.type === 'rating_board') app.boards = ratingRefused(app.boards);
  if (sent?.type === 'rematch') app.rematchAsked.delete(sent.room_id);
  if (sent?.type === 'daily_start' && code === 'daily_played') {
    app.openNext = false;
    app.dailyPlayed = true; // the lobby says so, and offers the board
    return;
  }
  if (sent?.type === 'hint') app.hintAsked.delete(sent.room_id);
  if (sent?.type === 'act') {
    app.acted.delete(sent.room_id);
    const m = app.rooms.get(sent.room_id);
    if (m && REFRESH_CODES.has(code)) resume(sent.room_id, m.version);
  }
  if (sent && OPENING.includes(sent.type)) {
    app.openNext = false;
    app.openRoomId = null;
  }
  showError(f.message, ours ? sent : null, code);
}

// -- errors ------------------------------------------------------------------------------

function showError(message, retry = null, code = null) {
  const box = $('#error');
  box.querySelector('.error-text').textContent = message || errorText(null);
  box.dataset.code = code ?? '';
  app.errorRetry = retry;
  show(box.querySelector('[data-error-retry]'), Boolean(retry));
  show(box, true);
  clearTimeout(app.errorTimer);
  app.errorTimer = setTimeout(hideError, retry ? 15000 : 6000);
}

function hideError() {
  clearTimeout(app.errorTimer);
  app.errorRetry = null;
  show($('#error'), false);
}

// -- screens -----------------------------------------------------------------------------

// Forget a room that is over (gone from the server), keeping a played one's summary for a
// rematch offered later.
function forgetFinished(id) {
  const m = app.rooms.get(id);
  if (!m || !(isOver(m) || m.closed)) return;
  if (isOver(m) && m.seat !== null && m.room) {
    app.pastRooms.set(id, m.room);
    if (app.pastRooms.size > 20) app.pastRooms.delete(app.pastRooms.keys().next().value);
  }
  app.rooms.delete(id);
}

function goScreen(name) {
  const was = app.screen;
  // A finished table is gone from the server: forget it once the player moves on (from
  // its review or a profile the Back button still leads to it).
  if (KEEPS_TABLE.has(was) && !KEEPS_TABLE.has(name)) forgetFinished(app.current);
  app.screen = name;
  for (const id of SCREENS) show($(`#${id}`), id === name);
  if (name !== was) window.scrollTo(0, 0); // a screen opens at its top (a phone's lobby is long)
  if (name === 'hello' && was !== 'hello') setTimeout(() => $('#nickname').focus(), 0);
  if (name !== 'table') app.ui.lastTrickOpen = false;
  render();
}

function openTable(id) {
  const entering = app.screen !== 'table' || app.current !== id;
  if (app.current !== id) {
    app.ui.lastTrickOpen = false;
    if (app.screen === 'table') forgetFinished(app.current); // a finished table left for another is gone
  }
  app.current = id;
  goScreen('table');
  // Whoever enters a table starts at its heading (its name, once drawn), not on the page's body.
  if (entering) requestAnimationFrame(() => $('#table-title').focus({ preventScroll: true }));
}

function openTournament(id) {
  app.currentTournament = id;
  if (!app.watchedTournaments.has(id)) {
    app.watchedTournaments.add(id);
    send({ type: 'tournament_watch', tournament_id: id });
  }
  goScreen('tournament');
}

function goLobby() {
  forgetFinished(app.current);
  if (app.screen === 'scoresheet') leaveSheet();
  if (app.screen === 'evening') leaveEvening();
  if (app.club.code || app.club.asked) leaveClub();
  goScreen(app.everWelcomed ? 'lobby' : 'hello'); // a sheet's onlooker has no lobby yet
}

let drawing = false;
function render() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    draw();
  });
}

function draw() {
  const me = $('#me');
  if (me.textContent !== (app.nickname ?? '')) me.textContent = app.nickname ?? '';
  me.setAttribute('aria-label', app.nickname ? fill(TEXT.profile, { name: app.nickname }) : TEXT.profileNobody);
  if (app.screen === 'profile' && app.profile?.playerId === app.me) me.setAttribute('aria-current', 'page');
  else me.removeAttribute('aria-current');
  if (app.screen === 'lobby') renderLobby(app);
  else if (app.screen === 'table') renderTable(app);
  else if (app.screen === 'tournament') renderTournament(app);
  else if (app.screen === 'boards') {
    renderBoards(app);
    if (app.boards.view === 'rating') renderRating(app);
  } else if (app.screen === 'profile') renderProfile(app);
  else if (app.screen === 'review') renderReview(app);
  else if (app.screen === 'scoresheet') {
    renderSheet(app);
    renderSheetEvening(app.sheet.sheet);
  } else if (app.screen === 'evening') renderEvening(app);
  else if (app.screen === 'club') renderClub(app);
  else if (app.screen === 'hello') renderHello(app);
  renderInvite(app);
  renderTip(app);
  const m = app.screen === 'table' ? app.rooms.get(app.current) : null;
  const myTurn = Boolean(m && m.legal.length && app.acted.get(m.roomId) !== m.version);
  // The tab's title says a decision of ours waits, at any table, whatever the screen.
  const waiting = [...app.rooms.values()].find((r) => r.seat !== null && r.legal.length && app.acted.get(r.roomId) !== r.version);
  setTitle(Boolean(waiting), waiting && (app.screen !== 'table' || app.current !== waiting.roomId) ? roomTitle(waiting.room, [...app.tournaments.values()]) : null);
  // A keyboard player who just acted gets the focus back on their next decision.
  const nowhere = !document.activeElement || document.activeElement === document.body || document.activeElement.id === 'table-title';
  if (myTurn && app.ui.keyboard && nowhere) {
    const next = $('#bids button, #claim button, #hand button.card.legal:not([disabled])');
    if (next) next.focus();
  }
  // ... and on the Continue of a deal's end.
  const go = $('#continue:not([disabled])');
  if (go && app.ui.keyboard && (nowhere || document.activeElement?.closest('#hand'))) go.focus();
}

// Redraw when a timed effect (a taken trick, a toast) runs out.
function later(seconds) {
  setTimeout(render, seconds * 1000 + 30);
}

// -- commands ----------------------------------------------------------------------------

// Watch the room of an invite code first: the page then asks where to sit (invite.js).
function joinByInvite(raw) {
  const code = raw.trim();
  if (!code) return;
  app.join = { code };
  app.openNext = true;
  send({ type: 'watch', invite_code: code });
}

// -- solo games and the daily game ---------------------------------------------------------

// The New game form, once the catalog has filled it in with the choices last played.
let newGameReady = null;
let newGameSent = 0; // when New game last sent new_game (a double click starts one game)

function openNewGame() {
  const dialog = $('#new-game');
  if (!dialog.open) dialog.showModal();
}

// New game: one click starts a game at once with the rules last chosen on this device (the
// form's values; "Change rules" opens the form).
function startNewGame() {
  if (Date.now() - newGameSent < 2000) return;
  newGameSent = Date.now();
  newGameReady.then(() => {
    app.openNext = true;
    if (send(newGameMessage($('#new-game-form'))) === null) newGameSent = 0;
  });
}

function showNewGameChoice(form) {
  $('#new-game-choice').textContent = newGameSummary(form);
}

// Today's one attempt: asked first, unless it is under way (then it opens again) or the
// page knows it is played (the server says so).
async function playDaily() {
  const known = app.dailyPlayed || app.dailyFinished === todayUtc() || dailyUnderWay(app);
  if (!known && !(await confirmDailyStart())) return;
  app.dailyPlayed = false;
  app.openNext = true;
  send({ type: 'daily_start' });
  render();
}

// Ask for the day's board (`changes` to the boards state first: date, offset).
function requestBoard(changes = {}) {
  app.boards = { ...app.boards, ...changes, view: 'day' };
  if (send(boardMessage(app.boards)) !== null) {
    app.boards = { ...app.boards, pending: app.boards.pending + 1 };
  }
  render();
}

function requestAlltime(changes = {}) {
  app.boards = { ...app.boards, ...changes, view: 'alltime' };
  if (send(alltimeMessage(app.boards)) !== null) {
    app.boards = { ...app.boards, alltimePending: app.boards.alltimePending + 1 };
  }
  render();
}

// Another day (null: today): its first page, nothing of the day shown before.
function showDay(date) {
  requestBoard({ date, offset: 0, board: null, error: null });
}

function openBoards(date = null) {
  showDay(date);
  goScreen('boards');
}

function requestRating(changes = {}) {
  app.boards = { ...app.boards, ...changes, view: 'rating' };
  if (send(ratingMessage(app.boards)) !== null) app.boards = ratingAsked(app.boards);
  render();
}

function openRatingBoard() {
  requestRating();
  goScreen('boards');
}

// -- profiles --------------------------------------------------------------------------------

function requestProfile(changes = {}) {
  app.profile = { ...app.profile, ...changes };
  if (send(profileMessage(app.profile)) !== null) app.profile = profileAsked(app.profile);
  render();
}

// A player's profile (yours without `playerId`), from its first page of matches.
function openProfile(playerId = null) {
  const id = playerId || app.me;
  if (!id) return;
  if (app.screen !== 'profile' && app.screen !== 'review') app.profileFrom = app.screen;
  const same = app.profile?.playerId === id;
  app.profile = same ? { ...app.profile, offset: 0, nick: newProfile(id).nick } : newProfile(id);
  requestProfile();
  goScreen('profile');
  $('#profile-title').focus({ preventScroll: true });
}

function leaveProfile() {
  const from = app.profileFrom;
  if (from === 'table' && app.rooms.get(app.current)?.room) openTable(app.current);
  else if (from === 'boards' || from === 'tournament' || (from === 'evening' && app.evening.id) || (from === 'club' && app.club.id)) goScreen(from);
  else goLobby();
}

function saveNickname(form) {
  const nickname = form.elements.nickname.value.trim();
  if (!nickname) {
    app.profile = nicknameRefused(app.profile, { code: 'bad_nickname', message: TEXT.nicknameLength });
    render();
    return;
  }
  if (send({ type: 'set_nickname', nickname }) !== null) app.profile = nicknameSent(app.profile, nickname);
  render();
}

// -- the review of a finished match ----------------------------------------------------------

// Show deal `deal` from its first trick, asking for it unless it came already.
function askReviewDeal(deal) {
  let r = showDeal(app.review, deal);
  if (!r.replies[r.deal] && r.pending !== r.deal && send(reviewMessage(r)) !== null) r = asked(r, r.deal);
  app.review = r;
  render();
}

function openReview(matchId) {
  const from = app.screen === 'review' ? app.reviewFrom : { screen: app.screen, roomId: app.current };
  // The players' names when the page knows the table, else the match as the profile lists it.
  const line = app.profile?.data?.history?.find((l) => l.match_id === matchId);
  app.review = newReview(matchId, app.rooms.get(matchId)?.room ?? (line ? { name: matchTitle(line) } : null));
  app.reviewFrom = from;
  askReviewDeal(0);
  goScreen('review');
  $('#review-title').focus({ preventScroll: true });
}

function leaveReview() {
  const from = app.reviewFrom;
  if (from?.screen === 'table' && app.rooms.get(from.roomId)?.room) openTable(from.roomId);
  else if (from?.screen === 'profile' && app.profile) goScreen('profile');
  else if (from?.screen === 'boards' || from?.screen === 'tournament') goScreen(from.screen);
  else goLobby();
}

function onReviewClick(el) {
  const d = el.dataset;
  const r = app.review;
  if (!r) return false;
  if (d.reviewDeal) {
    if (d.reviewDeal === 'first') askReviewDeal(0);
    else askReviewDeal(r.deal + (d.reviewDeal === 'prev' ? -1 : 1));
  } else if (d.reviewTrick) {
    const to = { first: 0, prev: r.trick - 1, next: r.trick + 1, end: TRICKS }[d.reviewTrick];
    app.review = stepTrick(r, to);
    render();
  } else if (d.reviewGoto !== undefined) {
    app.review = stepTrick(r, Number(d.reviewGoto));
    render();
  } else if (d.reviewRetry !== undefined) {
    askReviewDeal(r.deal);
  } else if (d.reviewBack !== undefined) {
    leaveReview();
  } else {
    return false;
  }
  return true;
}

// The review's keys: arrows step tricks, Home / End the first trick / the result, Page Up /
// Page Down the deals.
const REVIEW_KEYS = {
  ArrowLeft: (r) => ['trick', r.trick - 1],
  ArrowRight: (r) => ['trick', r.trick + 1],
  Home: () => ['trick', 0],
  End: () => ['trick', TRICKS],
  PageUp: (r) => ['deal', r.deal - 1],
  PageDown: (r) => ['deal', r.deal + 1],
};

function onReviewKey(event) {
  const step = REVIEW_KEYS[event.key];
  const r = app.review;
  if (!step || !r || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.('input, textarea, select, dialog')) return;
  event.preventDefault();
  const [what, to] = step(r);
  if (what === 'deal') {
    if (to >= 0 && (r.deals === null || to < r.deals) && to !== r.deal) askReviewDeal(to);
  } else {
    app.review = stepTrick(r, to);
    render();
  }
}

function onBoardClick(el) {
  const d = el.dataset;
  const b = app.boards;
  if (d.boardDay) {
    const today = todayUtc();
    const base = b.date ?? b.board?.date ?? b.error?.date ?? today;
    if (d.boardDay === 'today') showDay(null);
    else showDay(shiftDay(isDay(base) ? base : today, d.boardDay === 'prev' ? -1 : 1));
  } else if (d.boardPage) {
    requestBoard({ offset: Math.max(0, b.offset + (d.boardPage === 'prev' ? -PAGE : PAGE)) });
  } else if (d.boardMine) {
    requestBoard({ offset: Math.floor((Number(d.boardMine) - 1) / PAGE) * PAGE });
  } else if (d.ratingPage) {
    requestRating({ ratingOffset: Math.max(0, b.ratingOffset + (d.ratingPage === 'prev' ? -PAGE : PAGE)) });
  } else if (d.ratingMine) {
    requestRating({ ratingOffset: Math.floor((Number(d.ratingMine) - 1) / PAGE) * PAGE });
  } else if (d.boardView === 'rating') {
    requestRating();
  } else if (d.alltimePage) {
    requestAlltime({ alltimeOffset: Math.max(0, b.alltimeOffset + (d.alltimePage === 'prev' ? -PAGE : PAGE)) });
  } else if (d.boardView === 'alltime') {
    requestAlltime();
  } else if (d.boardView === 'day') {
    if (b.board || b.error) {
      app.boards = { ...b, view: 'day' };
      render();
    } else {
      requestBoard();
    }
  } else {
    return false;
  }
  return true;
}

// A card of the hand clicked: played when legal, else the reason why not, in words.
function playCard(card) {
  const m = app.rooms.get(app.current);
  if (!m) return;
  if (m.legal.includes(card)) {
    act(card);
    return;
  }
  const why = whyNot(m, card);
  if (!why) return;
  app.ui.toast = { roomId: m.roomId, kind: 'illegal', card, text: why, until: app.now() + WHY_TIME };
  later(WHY_TIME);
  render();
}

// Between deals: we have seen the last deal's result.
function sayContinue(roomId) {
  const m = app.rooms.get(roomId);
  if (!m?.dealEnd || !m.room?.pause) return;
  if (send({ type: 'continue', room_id: roomId }) !== null) {
    app.continued.set(roomId, m.dealEnd.number);
    render();
  }
}

function act(action) {
  const m = app.rooms.get(app.current);
  if (!m || app.acted.get(m.roomId) === m.version) return;
  if (!m.legal.includes(action)) return;
  if (send({ type: 'act', room_id: m.roomId, action, version: m.version }) !== null) {
    app.acted.set(m.roomId, m.version);
    render();
  }
}

// Your own solo game, ended for good once you say so (leave_room resigns it).
async function resign(m) {
  const yes = await confirmStep({
    kind: 'resign', title: TEXT.resignTitle, body: [TEXT.resignGone, TEXT.resignKeep],
    yes: TEXT.resignYes, no: TEXT.resignNo, danger: true,
  });
  if (!yes || app.rooms.get(m.roomId)?.room?.status !== 'playing' || isOver(m)) return;
  if (send({ type: 'leave_room', room_id: m.roomId }) === null) return;
  app.rooms.delete(m.roomId); // closed: gone from your tables
  if (app.current === m.roomId && app.screen === 'table') goScreen('lobby');
}

function leave() {
  const m = app.rooms.get(app.current);
  if (!m) {
    goScreen('lobby');
    return;
  }
  if (isOver(m) || m.closed) {
    goLobby();
    return;
  }
  if (m.seat !== null && m.room?.status === 'playing') {
    if (m.room.mode === 'solo') {
      resign(m);
      return;
    }
    // Seats are fixed while the match runs: keep it and go look at the lobby.
    goScreen('lobby');
    return;
  }
  send({ type: 'leave_room', room_id: m.roomId });
  app.rooms.delete(m.roomId);
  goScreen('lobby');
}

function roomOf(el) {
  return el.closest('[data-room-id]')?.dataset.roomId || app.current;
}

// -- the score sheet ----------------------------------------------------------------------

function openSheet() {
  const code = app.sheet.code;
  if (code) window.history.replaceState(null, '', `/?sheet=${encodeURIComponent(code)}`);
  goScreen('scoresheet');
}

function leaveSheet() {
  if (app.sheet.code) send({ type: 'sheet_leave', code: app.sheet.code });
  app.pendingSheet = null;
  app.sheet = newSheet();
  window.history.replaceState(null, '', window.location.pathname);
}

function sendChange(kind, fields = {}) {
  if (app.sheet.sent !== null) return; // one change at a time: the next is made on its result
  const ref = send(changeMessage(app.sheet, kind, fields));
  if (ref !== null) app.sheet = sheetSent(app.sheet, ref);
  render();
}

function openEntry(dealId = null) {
  app.sheet = sheetDraft(app.sheet, dealId);
  fillEntry(app.sheet, dealId);
  render();
  setTimeout(() => $('#sheet-entry button[data-set^="playing"]')?.focus(), 0);
}

function onSheetClick(el) {
  const d = el.dataset;
  if (el.id === 'sheet-new-deal') openEntry();
  else if (d.editDeal) openEntry(Number(d.editDeal));
  else if (el.id === 'sheet-cancel') app.sheet = { ...app.sheet, draft: null, error: null };
  else if (el.id === 'sheet-delete') sendChange('delete', { deal_id: app.sheet.draft.dealId });
  else if (el.id === 'sheet-undo') sendChange('undo');
  else if (el.id === 'sheet-redo') sendChange('redo');
  else if (el.id === 'sheet-new-game') sendChange('new_game');
  else if (el.id === 'sheet-continue') sendChange('continue');
  else if (d.set !== undefined || d.roemAdd !== undefined || d.roemClear !== undefined) setEntry(d);
  else if (d.sheetView) app.sheet = { ...app.sheet, view: d.sheetView };
  else return false;
  render();
  return true;
}

// -- the club evening -----------------------------------------------------------------------

function openEvening() {
  const code = app.evening.code;
  if (code) window.history.replaceState(null, '', `/?evening=${encodeURIComponent(code)}`);
  goScreen('evening');
}

function leaveEvening() {
  if (app.evening.code) send({ type: 'evening_leave', code: app.evening.code });
  app.pendingEvening = null;
  app.evening = newEvening();
  window.history.replaceState(null, '', window.location.pathname);
}

// Another evening now: the one followed before is left first.
function askEvening(code = null) {
  if (app.evening.code) send({ type: 'evening_leave', code: app.evening.code });
  app.evening = eveningAsked(code);
}

// An organiser's command on the evening or the club (`key`, its commands' prefix): queued,
// sent once the one before it went in (commands.js).
function organiserCommand(key, kind, fields = {}) {
  app[key] = queueCommand(app[key], kind, fields);
  sendQueued(key);
  render();
}

function sendQueued(key) {
  const message = nextCommand(app[key], key);
  if (message) app[key] = commandSent(app[key], send(message));
}

const eveningCommand = (kind, fields = {}) => organiserCommand('evening', kind, fields);
const clubCommand = (kind, fields = {}) => organiserCommand('club', kind, fields);

async function confirmCommand(question, kind, fields = {}, key = 'evening') {
  if (await confirmStep(question)) organiserCommand(key, kind, fields);
}

function onEveningClick(el) {
  const d = el.dataset;
  const s = app.evening;
  if (d.eveningView) app.evening = { ...s, view: d.eveningView };
  else if (d.pick) app.evening = pickEntrant(s, d.pick);
  else if (el.id === 'evening-unpick') app.evening = { ...s, picked: [] };
  else if (el.id === 'evening-swap' && s.picked.length === 2) {
    eveningCommand('swap', { a: s.picked[0], b: s.picked[1] });
    app.evening = { ...app.evening, picked: [] };
  } else if (el.id === 'evening-draw') {
    app.evening = { ...s, view: null }; // the new round's tables
    eveningCommand('draw');
  } else if (el.id === 'evening-close') confirmCommand(closeQuestion(s), 'close');
  else if (el.id === 'evening-undo') confirmCommand(undoQuestion(s), 'undo_draw');
  else if (d.withdraw) confirmCommand(withdrawQuestion(s, d.withdraw), 'withdraw', { entrant: d.withdraw });
  else if (d.checkInMember) {
    eveningCommand('check_in', { member: d.checkInMember });
    clearCheckIn();
  } else return false;
  render();
  return true;
}

function submitEveningForm(form) {
  if (form.id === 'evening-penalty') {
    eveningCommand('penalty', penaltyFields(form));
    return;
  }
  const fields = checkInFields(form);
  if (!fields) return;
  eveningCommand('check_in', fields);
  clearCheckIn();
  form.elements.name.focus();
}

// The check-in's form empty again (the members' buttons all shown): the next name, at once.
function clearCheckIn() {
  $('#evening-check-in')?.reset();
  app.evening = { ...app.evening, filter: '' };
}

// A check-in by name refused: the name back in the form, if nothing else was typed since.
function restoreCheckIn(sent) {
  const form = $('#evening-check-in');
  if (!form || !sent.name || form.elements.name.value) return;
  form.elements.name.value = sent.name;
  if (form.elements.member1 && sent.members) [form.elements.member1.value, form.elements.member2.value] = sent.members;
}

// A name refused: back in its form's field, if nothing else was typed since.
function restoreName(selector, name) {
  const input = $(selector)?.elements.name;
  if (input && !input.value && name) input.value = name;
}

// An evening of a club this device knows an organiser's (or the public) code of: the
// console follows the club too, for its members' buttons (evening.js).
function followEveningClub() {
  const club = app.evening.evening?.club;
  if (!club || app.evening.role !== 'organiser' || app.club.id === club || (app.club.asked && !app.club.id)) return;
  const code = keptCode(club);
  if (code) askClub(code, false);
}

// -- the club ------------------------------------------------------------------------------

function openClub() {
  clubAddress();
  goScreen('club');
}

// The page's address says the club shown, by the code it follows it with.
function clubAddress() {
  const code = app.club.code;
  if (code) window.history.replaceState(null, '', `/?club=${encodeURIComponent(code)}`);
}

function leaveClub() {
  if (app.club.code) send(clubLeave(app.club.code));
  app.pendingClub = null;
  app.club = newClub();
  window.history.replaceState(null, '', window.location.pathname);
}

// Another club now (null: the one founded): the one followed before is left first; `shown`:
// its screen opens once it comes (else it is only known: an evening's console's members).
function askClub(code = null, shown = true) {
  if (app.club.code) send(clubLeave(app.club.code));
  app.club = clubAsked(code, shown);
  if (code) send(clubOpen(code));
}

// A club's link (the lobby's list, an evening's way back): shown at once if it is followed.
function showClub(code) {
  if (app.screen === 'evening') leaveEvening();
  $('#club-new').close();
  if (app.club.id && app.club.code === code) {
    app.club = { ...app.club, shown: true };
    openClub();
  } else askClub(code);
}

// An evening of the club shown (its link on the club's screen): the club stays followed.
function showEvening(code) {
  askEvening(code);
  send(eveningOpen(code));
}

function onClubClick(el) {
  const d = el.dataset;
  const s = app.club;
  if (d.clubView) app.club = { ...s, view: d.clubView };
  else if (d.history) app.club = toggleHistory(s, d.history);
  else if (d.renameMember) {
    app.club = { ...s, renaming: d.renameMember };
    requestAnimationFrame(() => $('.club-rename input')?.select());
  } else if (d.renameCancel) app.club = { ...s, renaming: null };
  else if (d.removeMember) confirmCommand(removeQuestion(s, d.removeMember), 'member_remove', { member: d.removeMember }, 'club');
  else if (d.revoke) confirmCommand(revokeQuestion(s, d.revoke), 'organiser_revoke', { organiser: d.revoke }, 'club');
  else if (d.addStart !== undefined) app.club = addStart(s);
  else if (d.removeStart !== undefined) app.club = removeStart(s, Number(d.removeStart));
  else if (el.id === 'club-season-reset') app.club = { ...s, draft: null };
  else if (el.id === 'club-new-evening') {
    setEveningClub($('#evening-new-form'), { code: s.code, name: s.name });
    $('#evening-new').showModal();
  } else return false;
  render();
  return true;
}

function submitClubForm(form) {
  if (form.id === 'club-season-form') {
    clubCommand('season', seasonFields(app.club, form));
    return;
  }
  const name = form.elements.name.value.trim();
  if (!name) return;
  if (form.dataset.member) {
    clubCommand('member_rename', { member: form.dataset.member, name });
    app.club = { ...app.club, renaming: null };
    render();
    return;
  }
  clubCommand(form.id === 'club-member-add' ? 'member_add' : 'organiser_add', { name });
  form.reset(); // the next name, at once
  form.elements.name.focus();
}

function onClick(event) {
  const link = event.target.closest('a[data-open-evening], a[data-open-club]');
  if (link && event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    event.preventDefault(); // in this page, following what it follows
    if (link.dataset.openEvening) showEvening(link.dataset.openEvening);
    else showClub(link.dataset.openClub);
    return;
  }
  const dealRow = event.target.closest('#sheet-deals tr[data-deal-id]');
  if (dealRow && !event.target.closest('button') && app.sheet.role === 'edit') {
    openEntry(Number(dealRow.dataset.dealId)); // tap a deal to correct it
    return;
  }
  const el = event.target.closest('button');
  if (!el || el.disabled) return;
  const d = el.dataset;
  if (el.closest('#hand, #bids, #claim')) app.ui.keyboard = event.detail === 0; // Enter/Space
  if (el.closest('#boards') && onBoardClick(el)) return;
  if (el.closest('#review') && onReviewClick(el)) return;
  if (el.closest('#scoresheet') && onSheetClick(el)) return;
  if (el.closest('#evening') && onEveningClick(el)) return;
  if (el.closest('#club') && onClubClick(el)) return;
  if (d.openClub) {
    showClub(d.openClub);
    return;
  }
  if (el.id === 'club-button') {
    buildClubForm($('#club-new-form'));
    $('#club-new').showModal();
    return;
  }
  if (el.id === 'sheet-button') {
    $('#sheet-new').showModal();
    return;
  }
  if (el.id === 'evening-button') {
    setEveningClub($('#evening-new-form'), null); // an evening of no club
    $('#evening-new').showModal();
    return;
  }
  if (el.closest('#hand') && d.card) {
    playCard(d.card);
  } else if (d.continue) {
    sayContinue(d.continue);
  } else if (el.id === 'sound') {
    setSound(!soundOn());
  } else if (d.openRules !== undefined) {
    openRules();
  } else if (d.tipHide) {
    app.ui.tipsHidden.add(`${app.current}:${d.tipHide}`); // this tip, at this table
    render();
  } else if (d.tipsOff !== undefined) {
    setTipsOn(false);
    render();
  } else if (el.id === 'new-game-button' || d.newGame !== undefined) {
    startNewGame();
  } else if (el.id === 'new-game-rules') {
    openNewGame();
  } else if (d.closeDialog !== undefined) {
    el.closest('dialog')?.close();
  } else if (el.id === 'daily-button' || d.playDaily !== undefined) {
    playDaily();
  } else if (d.openBoards !== undefined) {
    openBoards(isDay(d.date) ? d.date : null);
  } else if (d.openProfile !== undefined) {
    openProfile(d.openProfile || null);
  } else if (d.profileBack !== undefined) {
    leaveProfile();
  } else if (d.profilePage) {
    const offset = app.profile?.data?.offset ?? app.profile?.offset ?? 0;
    requestProfile({ offset: Math.max(0, offset + (d.profilePage === 'prev' ? -HISTORY_PAGE : HISTORY_PAGE)) });
  } else if (d.profileRetry !== undefined) {
    requestProfile();
  } else if (d.openRating !== undefined) {
    openRatingBoard();
  } else if (d.reviewMatch) {
    openReview(d.reviewMatch);
  } else if (d.rematch) {
    if (send({ type: 'rematch', room_id: d.rematch }) !== null) {
      app.rematchAsked.add(d.rematch);
      render();
    }
  } else if (d.action) {
    act(d.action);
  } else if (d.takeSeat !== undefined || d.sit !== undefined) {
    const roomId = roomOf(el);
    const seat = Number(d.takeSeat ?? d.sit);
    const code = app.rooms.get(roomId)?.room?.private ? app.codes.get(roomId) : null;
    app.openRoomId = roomId;
    send(code ? { type: 'take_seat', invite_code: code, seat } : { type: 'take_seat', room_id: roomId, seat });
  } else if (d.watch !== undefined || d.watchRoom) {
    const roomId = d.watchRoom || d.watch || roomOf(el);
    const m = app.rooms.get(roomId);
    if (m && m.version > 0 && !isOver(m)) {
      openTable(roomId);
    } else {
      app.openRoomId = roomId;
      send({ type: 'watch', room_id: roomId });
    }
  } else if (d.openRoom) {
    const m = app.rooms.get(d.openRoom);
    if (m && m.version > 0) {
      openTable(d.openRoom);
    } else {
      app.openRoomId = d.openRoom;
      resume(d.openRoom, 0);
    }
  } else if (el.id === 'my-table' || d.openMyTable) {
    const roomId = d.openMyTable || d.myRoom;
    if (!roomId) return;
    app.openRoomId = roomId;
    resume(roomId, 0);
  } else if (d.addCpu !== undefined) {
    const level = $('#cpu-level').value;
    send({ type: 'add_cpu', room_id: app.current, seat: Number(d.addCpu), ...(level ? { level } : {}) });
  } else if (d.removeSeat !== undefined) {
    send({ type: 'remove_seat', room_id: app.current, seat: Number(d.removeSeat) });
  } else if (el.id === 'ready') {
    const m = app.rooms.get(app.current);
    const seat = m && m.seat !== null ? m.room.seats[m.seat] : null;
    if (seat) send({ type: 'ready', room_id: m.roomId, ready: !seat.ready });
  } else if (el.id === 'back') {
    send({ type: 'back', room_id: app.current });
  } else if (el.id === 'hint') {
    const m = app.rooms.get(app.current);
    if (m && send({ type: 'hint', room_id: m.roomId }) !== null) {
      app.hintAsked.set(m.roomId, m.version);
      render();
    }
  } else if (el.id === 'leave') {
    leave();
  } else if (el.id === 'to-lobby') {
    goLobby();
  } else if (el.id === 'show-last-trick') {
    app.ui.lastTrickOpen = !app.ui.lastTrickOpen;
    render();
  } else if (d.closeLastTrick !== undefined) {
    app.ui.lastTrickOpen = false;
    render();
    $('#show-last-trick').focus();
  } else if (d.copy) {
    copyLink(el, d.copy);
  } else if (d.register || d.tRegister) {
    send({ type: 'tournament_register', tournament_id: d.register || d.tRegister });
  } else if (d.unregister || d.tUnregister) {
    send({ type: 'tournament_unregister', tournament_id: d.unregister || d.tUnregister });
  } else if (d.leaveTournament) {
    // eslint-disable-next-line no-alert
    if (window.confirm(TEXT.leaveTournament)) {
      send({ type: 'tournament_leave', tournament_id: d.leaveTournament });
    }
  } else if (d.openTournament || d.backTournament) {
    openTournament(d.openTournament || d.backTournament);
  } else if (d.go === 'lobby') {
    goLobby();
  } else if (d.errorDismiss !== undefined) {
    hideError();
  } else if (d.errorRetry !== undefined) {
    const again = app.errorRetry;
    hideError();
    if (again) {
      const { ref, ...message } = again;
      send(message);
    }
  }
}

async function copyLink(button, link) {
  try {
    await navigator.clipboard.writeText(link);
    button.textContent = TEXT.copied;
  } catch {
    const input = button.parentElement.querySelector('input') ?? $('#invite input');
    input.select();
    button.textContent = TEXT.selectAndCopy;
  }
  setTimeout(() => {
    button.textContent = TEXT.copyLink;
  }, 2000);
}

function onKey(event) {
  const tab = event.target.closest?.('[role="tab"]');
  if (tab && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    const tabs = [...tab.closest('[role="tablist"]').querySelectorAll('[role="tab"]')];
    const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    event.preventDefault();
    next.focus();
    next.click();
    return;
  }
  if (app.screen === 'review') {
    onReviewKey(event);
    return;
  }
  if (app.screen !== 'table' || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target.closest('input, textarea, select, dialog')) return;
  if (event.key === 'Escape' && app.ui.lastTrickOpen) {
    app.ui.lastTrickOpen = false;
    render();
    return;
  }
  if (/^[1-9]$/.test(event.key)) {
    const card = $(`#hand button.card[data-index="${event.key}"]`);
    if (card && !card.disabled) {
      event.preventDefault();
      app.ui.keyboard = true;
      card.focus();
      playCard(card.dataset.card);
    }
    return;
  }
  if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && target.closest('#hand, #bids, #claim')) {
    const group = target.closest('#hand, #bids, #claim');
    const buttons = [...group.querySelectorAll('button:not([disabled])')];
    const at = buttons.indexOf(target);
    if (at < 0 || !buttons.length) return;
    event.preventDefault();
    const next = buttons[(at + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length];
    next.focus();
  }
}

// -- forms -------------------------------------------------------------------------------

function wireForms() {
  const hello = $('#hello-form');
  hello.addEventListener('submit', (event) => {
    event.preventDefault();
    const nickname = $('#nickname').value.trim();
    if (!nickname) return;
    app.pendingNickname = nickname;
    if (conn.isOpen && !app.welcomed) {
      hello.querySelector('button[type=submit]').disabled = true;
      conn.send({ type: 'hello', nickname });
    } else {
      conn.nudge();
    }
  });

  const create = $('#create-room');
  const createButton = create.querySelector('button[type=submit]');
  createButton.disabled = true;
  const catalogReady = loadCatalog();
  catalogReady.then(() => {  // the choices are the server's: fill them in once they come
    buildCpuLevels($('#cpu-level'));
    buildForm(create);
    loadForm(create);
    createButton.disabled = false;
    render(); // a hand shown meanwhile is sorted by the server's card orders
  });
  wireRated(create);
  create.elements.end.addEventListener('change', () => setEndLimits(create));
  wirePreset(create);
  create.addEventListener('change', () => saveForm(create));
  create.addEventListener('submit', (event) => {
    event.preventDefault();
    saveForm(create);
    const message = createMessage(create);
    app.openNext = true;
    send(message);
  });

  const newGame = $('#new-game-form');
  const playButton = newGame.querySelector('button[type=submit]');
  playButton.disabled = true;
  newGameReady = catalogReady.then(() => {
    buildNewGameForm(newGame);
    showNewGameChoice(newGame);
    playButton.disabled = false;
  });
  newGame.elements.end.addEventListener('change', () => setEndLimits(newGame));
  wirePreset(newGame, { length: false });
  newGame.addEventListener('change', () => {
    saveNewGame(newGame);
    showNewGameChoice(newGame);
  });
  newGame.addEventListener('submit', (event) => {
    event.preventDefault();
    saveNewGame(newGame);
    app.openNext = true;
    if (send(newGameMessage(newGame)) !== null) $('#new-game').close();
  });
  $('#new-game').addEventListener('click', (event) => {  // a click on the backdrop closes it
    if (event.target === event.currentTarget) event.currentTarget.close();
  });

  const sheetNew = $('#sheet-new-form');
  sheetNew.elements.team0.value = TEXT.sheetTeam0;
  sheetNew.elements.team1.value = TEXT.sheetTeam1;
  sheetNew.querySelector('button[type=submit]').disabled = true;
  catalogReady.then((catalog) => {
    buildSheetForm(sheetNew);
    buildRoemSteps(catalog.sheet.roem_steps);
    sheetNew.querySelector('button[type=submit]').disabled = false;
  });
  sheetNew.elements.end.addEventListener('change', () => setEndLimits(sheetNew));
  sheetNew.addEventListener('submit', (event) => {
    event.preventDefault();
    if (send(createSheetMessage(sheetNew)) !== null) $('#sheet-new').close();
  });
  const eveningNew = $('#evening-new-form');
  fillEveningButton();
  catalogReady.then(() => buildEveningForm(eveningNew));
  eveningNew.addEventListener('change', (event) => {
    if (event.target.name === 'end') setEndLimits(eveningNew);
    syncEveningForm(eveningNew);
  });
  eveningNew.addEventListener('submit', (event) => {
    event.preventDefault();
    askEvening();
    if (send(createEveningMessage(eveningNew)) !== null) $('#evening-new').close();
  });

  const entry = $('#sheet-entry');
  entry.addEventListener('input', syncEntry);
  entry.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(entry));
    if (values.playing === '') {
      app.sheet = sheetRefused(app.sheet, { code: 'missing', message: TEXT.choosePlaying });
    } else if (values.points === '') {
      app.sheet = sheetRefused(app.sheet, { code: 'missing', message: TEXT.enterPoints });
    } else {
      sendChange(values.dealId ? 'edit' : 'deal', dealFields(values));
    }
    render();
  });
  $('#scoresheet').addEventListener('change', (event) => {
    if (event.target.id === 'sheet-dealer-select') sendChange('dealer', { seat: Number(event.target.value) });
  });

  $('#board-date').addEventListener('change', (event) => {
    const day = event.target.value;
    if (isDay(day)) showDay(day);
  });

  // The forms drawn by the views (the nickname on your profile, the review's deal choice, the
  // club evening's check-in and penalty).
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (form.id === 'evening-check-in' || form.id === 'evening-penalty') {
      event.preventDefault();
      submitEveningForm(form);
      return;
    }
    if (form.closest('#club')) {
      event.preventDefault();
      submitClubForm(form);
      return;
    }
    if (form.id !== 'nickname-form') return;
    event.preventDefault();
    saveNickname(form);
  });
  document.addEventListener('change', (event) => {
    if (event.target.id === 'review-deal-select') askReviewDeal(Number(event.target.value));
  });
  // What is typed as it is typed: the season's rule (said in words), the check-in's name
  // (the club's members it matches).
  document.addEventListener('input', (event) => {
    const form = event.target.form;
    if (form?.id === 'club-season-form') app.club = seasonDraft(app.club, form);
    else if (form?.id === 'evening-check-in' && event.target.name === 'name') app.evening = { ...app.evening, filter: event.target.value };
    else return;
    render();
  });
  fillClubButton();
  const clubNew = $('#club-new-form');
  clubNew.addEventListener('submit', (event) => {
    event.preventDefault();
    const message = createClubMessage(clubNew);
    if (!message.name) return;
    askClub();
    if (send(message) !== null) $('#club-new').close();
  });

  const joinSeat = $('#join-seat-form');
  joinSeat.addEventListener('change', (event) => {
    if (event.target.name === 'seat' && app.invite) app.invite.seat = Number(event.target.value);
  });
  joinSeat.addEventListener('submit', (event) => {
    event.preventDefault();
    const invite = app.invite;
    const code = invite && app.codes.get(invite.roomId);
    if (!invite || invite.seat === null) return;
    app.invite = null;
    $('#join-seat').close();
    app.openRoomId = invite.roomId;
    send(code ? { type: 'take_seat', invite_code: code, seat: invite.seat }
      : { type: 'take_seat', room_id: invite.roomId, seat: invite.seat });
  });
  $('#join-seat').addEventListener('close', () => {
    app.invite = null; // Escape or "Just watch": the table stays, with its "Sit here" buttons
  });

  $('#rules').addEventListener('change', render); // the tips switched on or off

  $('#join-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('#invite-code');
    joinByInvite(input.value);
  });

  $('#chat-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('#chat-input');
    const text = input.value.trim();
    if (!text || !app.current) return;
    if (send({ type: 'chat', room_id: app.current, text }) !== null) input.value = '';
  });
}

// -- start -------------------------------------------------------------------------------

function start() {
  const params = new URLSearchParams(window.location.search);
  const invite = params.get('invite');
  app.pendingSheet = params.get('sheet');
  app.pendingEvening = params.get('evening');
  app.pendingClub = params.get('club');
  if (app.pendingSheet && !app.token) app.hello = { kind: 'sheet', state: 'loading' }; // opened before a nickname
  if (invite) {
    app.pendingInvite = invite;
    window.history.replaceState(null, '', window.location.pathname);
    if (!app.token) {  // a new player: the nickname screen says which table it opens
      app.hello = { kind: 'invite', state: 'loading' };
      lookUpInvite(invite).then((hello) => {
        if (app.hello?.kind === 'invite') app.hello = hello;
        render();
      });
    }
  }
  fillPageParts();
  wireForms();
  wireConfirm();
  wireLanguage();
  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKey);
  // Sound may start only once the player touched the page.
  document.addEventListener('pointerdown', wakeAudio, { capture: true });
  document.addEventListener('keydown', wakeAudio, { capture: true });
  document.addEventListener('keydown', trapFocus);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) conn.nudge();
  });
  window.addEventListener('online', () => conn.nudge());
  setInterval(() => {
    if (app.screen === 'table') {
      renderTimer(app);
      renderPauseClock(app, app.rooms.get(app.current));
    }
  }, 250);
  setInterval(() => {  // the tournaments' countdowns
    if (app.screen === 'lobby' || app.screen === 'tournament') render();
  }, 1000);
  setInterval(watchdog, 2000);
  if (!app.token) goScreen('hello');
  // The hash this change went to (by the time the event runs, the rules' own close, queued
  // before it, may have taken '#rules' off the address again).
  const rulesLink = (event) => {
    const hash = event ? new URL(event.newURL).hash : window.location.hash;
    if (hash === '#rules') openRules();
  };
  window.addEventListener('hashchange', rulesLink);
  rulesLink();
  conn.connect();
}

// The static page's sentences with elements in them: `data-t-parts="key"` holds the English,
// its elements marked `data-slot="name"`; the sentence is TEXT[key], the elements in its slots.
function fillPageParts() {
  for (const el of document.querySelectorAll('[data-t-parts]')) {
    const slots = Object.fromEntries([...el.querySelectorAll('[data-slot]')].map((part) => [part.dataset.slot, part]));
    el.replaceChildren(...fillParts(TEXT[el.dataset.tParts], slots));
  }
}

// The language switch (#language): the page's languages, each named in its own words.
function wireLanguage() {
  const select = $('#language');
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = name;
    return option;
  }));
  select.value = currentLanguage();
  select.addEventListener('change', () => chooseLanguage(select.value));
}

await startLanguage();
start();
