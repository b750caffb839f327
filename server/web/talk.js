// The table talk this device heard, kept across a reload: a room's snapshot brings back
// only the current deal's talk (its `recent` updates), so the earlier deals' lines come
// from what the page kept (local storage, in the page's language: a page in another
// language starts afresh from the snapshot).

import { currentLanguage } from './i18n.js';

const KEY = 'klaverjas.talk';
const ROOMS_KEPT = 4; // the rooms whose talk is kept, the latest heard
const LINES_KEPT = 60;

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || 'null');
    return kept && kept.lang === currentLanguage() && kept.rooms ? kept : { lang: currentLanguage(), rooms: {} };
  } catch {
    return { lang: currentLanguage(), rooms: {} };
  }
}

// Keep room `roomId`'s talk (its model's `log`), as the latest room heard.
export function keepTalk(roomId, log) {
  const kept = stored();
  delete kept.rooms[roomId];
  kept.rooms[roomId] = log.slice(-LINES_KEPT).map(({ kind, text, version }) => ({ kind, text, version }));
  const ids = Object.keys(kept.rooms);
  for (const old of ids.slice(0, Math.max(0, ids.length - ROOMS_KEPT))) delete kept.rooms[old];
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or blocked: a reload shows the current deal's talk only
  }
}

// A fresh page's model of room `model.roomId` with the talk kept before the lines its
// snapshot brought back (pure but for reading the storage).
export function withKeptTalk(model) {
  const lines = stored().rooms[model.roomId] ?? [];
  const first = model.log[0];
  // Up to the snapshot's first line (an update that ended a deal and dealt the next is
  // brought back from the new deal on: its earlier lines are the kept ones).
  const at = first ? lines.findIndex((n) => n.version === first.version && n.text === first.text) : -1;
  const earlier = at >= 0 ? lines.slice(0, at) : lines.filter((n) => !first || n.version < first.version);
  if (!earlier.length) return model;
  const log = [...earlier, ...model.log].slice(-LINES_KEPT).map((n, i) => ({ ...n, seq: i + 1 }));
  return { ...model, log, noteSeq: log.length };
}
