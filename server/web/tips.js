// Strategy tips at the moment they matter: one small line at the table, dismissible, and
// switched off for good by the player (remembered on this device). Shown only where the
// server allows hints (`room.hints`): never at a tournament table, in the daily game or a
// rated match.
//
// The moments (tipFor is pure: the room model in, a tip's kind out):
//   trump  choosing trump: name it with the jack, or the nine and the ace, and three trumps
//   pull   leading while your side named trump and the others may still hold trumps
//   load   your partner is sure to win the trick and you can add a ten, an ace or roem
//   deny   an opponent is winning and a card you may play would hand them roem
//
// What a card is worth and what beats what are the server's tables (GET /rules: `cards`,
// `scoring.roem`), never typed here.

import { $, h, patch, show } from './dom.js';
import { isCard, orderIndex, rankOf, suitOf } from './cards.js';
import { rulesCatalog } from './catalog.js';
import { teamOf, trickCards } from './state.js';
import { strings } from './i18n.js';

const WORDS = strings('tips', {
  // the label before a tip's line at the table
  label: 'Tip',
  trump: 'Name trump when you hold its jack, or its nine and ace, and at least three trumps: the jack and the nine alone are worth 34 points. A suit that only looks strong, without its jack or nine, is a pass: going nat costs the whole deal.',
  trumpMust: 'You must name trump: choose the suit of your jack, or of your nine and ace, where you hold the most cards.',
  pull: 'Your side named trump: lead trumps to draw the others’ trumps, then take tricks with your aces.',
  load: 'Your partner is sure to win this trick: add a ten or an ace to it, or a card that makes roem.',
  deny: 'The others are winning this trick: do not play a card that completes roem for them.',
  hide: 'Hide this tip',
  off: 'No more tips',
});

const STORE_KEY = 'klaverjas.tips'; // "off" once the player turned tips off

export function tipsOn() {
  try {
    return localStorage.getItem(STORE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setTipsOn(on) {
  try {
    if (on) localStorage.removeItem(STORE_KEY);
    else localStorage.setItem(STORE_KEY, 'off');
  } catch {
    // storage blocked: the choice lasts as long as the page
  }
}

// -- the cards -------------------------------------------------------------------------

// The roem a trick's cards make, by the server's values (`scoring.roem`): the longest run
// of one suit in the ranks' natural order (`cards.ranks`), four of a kind, and stuk (king
// and queen of trump).
export function roemOf(cards, trump) {
  const catalog = rulesCatalog();
  if (!catalog) return 0;
  const { ranks, suits } = catalog.cards;
  const values = catalog.scoring.roem;
  let roem = 0;
  for (const suit of suits) {
    const held = new Set(cards.filter((c) => suitOf(c) === suit).map(rankOf));
    let run = 0;
    for (const r of ranks) {
      run = held.has(r) ? run + 1 : 0;
      roem = Math.max(roem, values.run[run] ?? 0);
    }
  }
  if (cards.length === 4 && new Set(cards.map(rankOf)).size === 1) roem += values.four[rankOf(cards[0])] ?? 0;
  if (trump && cards.includes(`K${trump}`) && cards.includes(`Q${trump}`)) roem += values.stuk;
  return roem;
}

// Does `card` beat `best` (trump beats the other suits; in one suit, the server's order)?
function beats(card, best, trump) {
  const s = suitOf(card);
  const b = suitOf(best);
  if (s === trump && b !== trump) return true;
  return s === b && orderIndex(card, trump) < orderIndex(best, trump);
}

// The card winning the trick so far and its seat.
function winning(played, trump) {
  return played.reduce((best, p) => (beats(p.card, best.card, trump) ? p : best));
}

// Every card not in `hand` and not played this deal: what the others may still hold.
function unseen(view) {
  const { ranks, suits } = rulesCatalog()?.cards ?? { ranks: [], suits: [] };
  const out = new Set(suits.flatMap((s) => ranks.map((r) => `${r}${s}`)));
  for (const c of view.hand) out.delete(c);
  for (const t of view.tricks ?? []) for (const c of t.cards) out.delete(c);
  for (const c of view.trick ?? []) out.delete(c);
  return out;
}

// -- the moment ------------------------------------------------------------------------

// The tip for the decision the player faces, or null.
export function tipFor(m, acted = false) {
  const v = m.view;
  if (!v || m.seat === null || m.result || acted || !m.legal.length) return null;
  if (m.room?.status !== 'playing' || m.room?.hints === false) return null;
  if (v.phase === 'trump') return m.legal.includes('pass') ? 'trump' : 'trumpMust';
  if (v.phase !== 'play' || !v.trump) return null;
  const trump = v.trump;
  const cards = m.legal.filter(isCard);
  const played = trickCards(v);
  const mine = teamOf(m.seat);
  if (!played.length) {
    const others = [...unseen(v)].some((c) => suitOf(c) === trump);
    const lead = cards.some((c) => suitOf(c) === trump);
    return teamOf(v.chooser) === mine && others && lead ? 'pull' : null;
  }
  const best = winning(played, trump);
  const table = played.map((p) => p.card);
  const base = roemOf(table, trump);
  const addsRoem = (c) => roemOf([...table, c], trump) > base;
  if (teamOf(best.seat) === mine) {
    // sure: nobody after me, or nobody after me can hold a card that beats it
    const after = 3 - played.length;
    const threat = [...unseen(v)].some((c) => beats(c, best.card, trump));
    const sure = after === 0 || !threat;
    const rich = cards.some((c) => 'TA'.includes(rankOf(c)) || addsRoem(c));
    return sure && rich ? 'load' : null;
  }
  const gives = cards.some((c) => addsRoem(c) && !beats(c, best.card, trump));
  return gives ? 'deny' : null;
}

// -- the line at the table ---------------------------------------------------------------

// Draw `#tip` for the table shown: `hidden` holds "room:kind" of the tips dismissed.
export function renderTip(app) {
  const el = $('#tip');
  const m = app.screen === 'table' ? app.rooms.get(app.current) : null;
  const kind = m && tipsOn() ? tipFor(m, app.acted.get(m.roomId) === m.version) : null;
  const visible = Boolean(kind) && !app.ui.tipsHidden?.has(`${m.roomId}:${kind}`);
  show(el, visible);
  if (!visible) {
    delete el.dataset.tip;
    patch(el);
    return;
  }
  el.dataset.tip = kind;
  patch(el,
    h('span', { class: 'tip-label', dataset: { key: 'label' } }, WORDS.label),
    h('span', { class: 'tip-text', dataset: { key: `text-${kind}` } }, WORDS[kind]),
    h('span', { class: 'tip-actions', dataset: { key: 'actions' } },
      h('button', { type: 'button', class: 'small ghost', dataset: { tipsOff: '' } }, WORDS.off),
      h('button', {
        type: 'button', class: 'small ghost tip-hide', dataset: { tipHide: kind }, 'aria-label': WORDS.hide, title: WORDS.hide,
      }, '✕')));
}
