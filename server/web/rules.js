// The rules of the game, in our own words, and the strategy tips: the page `dialog#rules`,
// opened from every screen (the top bar's Rules button, `button[data-open-rules]`). Every
// word is in RULES below (namespace `rules`), a key a paragraph; the card table is the
// server's (GET /rules `cards`: each suit's order and points, from the engine's tables).

import { $, h, patch } from './dom.js';
import { rankShown, suitTable } from './cards.js';
import { loadCatalog } from './catalog.js';
import { setTipsOn, tipsOn } from './tips.js';
import { strings } from './i18n.js';

// Every word of the page, one key a paragraph or list item (in the order shown).
const RULES = strings('rules', {
  title: 'How to play Klaverjas',
  close: 'Close',
  contents: 'On this page', // the label of the list of sections at the top
  cardsCaption: 'The cards from high to low, and their points',
  trumpSuit: 'Trump', // the column of the trump suit in the card table
  plainSuit: 'Other suits',
  tipsToggle: 'Show these tips at the table, at the moment they matter',

  gameTitle: 'The game',
  game1: 'Four players, two teams: your partner sits across from you. The pack has 32 cards, the seven to the ace of each suit.',
  game2: 'The dealer gives each player eight cards, three, then two, then three at a time. One suit is trump; the eight cards are then played out in eight tricks.',
  game3: 'The player after the dealer leads the first trick, whoever chose trump; whoever wins a trick leads the next one. The deal moves one seat on each time.',

  cardsTitle: 'Cards and points',
  cards1: 'In trump the jack is highest, then the nine. The other suits keep their usual order, the ace highest. Every deal holds 152 card points, and the last trick is worth 10 more: 162 in all.',

  trumpTitle: 'Choosing trump',
  trumpIntro: 'The team of the player who names trump is the playing team. A table chooses trump in one of four ways:',
  trumpBidding: 'Bidding (the usual way): from the player after the dealer, each may name a suit or pass. If all four pass, the player after the dealer must name one.',
  trumpDealer: 'The dealer names it: the dealer must choose and cannot pass (the tournament rule).',
  trumpFirst: 'The first player names it: the player after the dealer must choose.',
  trumpTurned: 'A turned-up card: the dealer’s last card is shown; each player in turn may take its suit as trump or pass. If all pass, the player after the dealer names one of the other suits.',

  playTitle: 'Following and trumping',
  playFollow: 'Follow the suit that was led if you can. When trump is led you must play a higher trump than any in the trick if you can, even over your partner; if you cannot, a lower trump; with no trump at all, any card.',
  playCannot: 'When you cannot follow a plain suit, the two variants differ:',
  playAmsterdam: 'Amsterdam: if an opponent is winning the trick you must trump, higher than any trump already played if you can; if you cannot go higher, play another suit rather than a lower trump. If your partner is winning you need not trump: any card of another suit, or a trump higher than those played, but never a lower one. You play a lower trump only when you hold nothing else.',
  playRotterdam: 'Rotterdam: you must always trump when you can, even when your partner is winning, higher than any trump already played if you can, and lower when you cannot.',
  playWins: 'The highest trump wins the trick; without trump, the highest card of the suit led.',

  roemTitle: 'Roem', // bonus points for cards that fall together in one trick
  roemIntro: 'Roem is bonus points for cards that fall together in one trick. The team that wins the trick scores it, whoever played the cards, so think twice before giving the other side roem.',
  roemRun: 'A run of three cards of one suit: 20. Of four: 50. Runs follow the order 7 8 9 10 J Q K A in every suit, trump too; a trick counts its best run only.',
  roemFour: 'Four of a kind: four jacks 200; four aces, tens, kings or queens 100.',
  roemStuk: 'Stuk: the king and queen of trump in one trick, 20 more (so a trump run of K Q J is 40).',
  roemClaim: 'Some tables let the trick’s winner claim roem: take it or leave it before the next lead. Roem in the last trick counts too.',

  scoreTitle: 'Scoring a deal',
  scoreIntro: 'The playing team must score more than the other team, card points and roem together. If it does, each team keeps its own points and roem.',
  scoreNat: 'Nat: if the playing team scores less, or the same, it gets nothing, and the other team gets all 162 points and all the roem of the deal, both teams’.',
  scorePit: 'Pit: a team that takes all eight tricks scores 100 more. Some tables give this bonus only to the playing team.',

  endTitle: 'The end of a match',
  end1: 'A match is played to a target (1500 points at most tables, 1001 in tournaments) or for a number of deals (often 16). When a team has reached the target, or the deals are played, the higher total wins. Equal totals play one more deal.',

  tipsTitle: 'Tips',
  tipTrump: 'Naming trump: name it when you hold its jack, or its nine and ace, and at least three trumps. The jack and the nine alone are worth 34 points and take two tricks.',
  tipPass: 'Pass when a suit only looks good: without its jack or nine, going nat costs the whole deal.',
  tipPull: 'Pulling trumps: when your side named trump, lead trumps to draw the others’ trumps, then take tricks with your aces.',
  tipLoad: 'Loading: when your partner is sure to win a trick, add your tens and aces to it, and any card that completes roem.',
  tipDeny: 'Denying roem: when the others are winning a trick, do not complete a run that gives them roem.',
});

// The page's sections: each part names keys of RULES.
const SECTIONS = [
  { id: 'rules-game', title: 'gameTitle', text: ['game1', 'game2', 'game3'] },
  { id: 'rules-cards', title: 'cardsTitle', text: ['cards1'], cards: true },
  {
    id: 'rules-trump', title: 'trumpTitle', text: ['trumpIntro'],
    list: ['trumpBidding', 'trumpDealer', 'trumpFirst', 'trumpTurned'],
  },
  {
    id: 'rules-play', title: 'playTitle', text: ['playFollow', 'playCannot'],
    list: ['playAmsterdam', 'playRotterdam'], after: ['playWins'],
  },
  {
    id: 'rules-roem', title: 'roemTitle', text: ['roemIntro'],
    list: ['roemRun', 'roemFour', 'roemStuk'], after: ['roemClaim'],
  },
  { id: 'rules-score', title: 'scoreTitle', text: ['scoreIntro'], list: ['scoreNat', 'scorePit'] },
  { id: 'rules-end', title: 'endTitle', text: ['end1'] },
  { id: 'rules-tips', title: 'tipsTitle', list: ['tipTrump', 'tipPass', 'tipPull', 'tipLoad', 'tipDeny'], toggle: true },
];

// The cards from high to low with their points, trump beside the other suits (no rows
// until the server's tables came).
function cardsTable() {
  const trump = suitTable(true);
  const plain = suitTable(false);
  const cells = (table, i) => {
    const rank = table.order[i];
    return [h('td', {}, rankShown(rank + 'c')), h('td', { class: 'num' }, String(table.points[rank]))];
  };
  const rows = trump && plain ? trump.order.map((_, i) => h('tr', {}, cells(trump, i), cells(plain, i))) : [];
  return h('table', { id: 'rules-card-table', class: 'rules-cards' },
    h('caption', {}, RULES.cardsCaption),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'colgroup', colspan: '2' }, RULES.trumpSuit),
      h('th', { scope: 'colgroup', colspan: '2' }, RULES.plainSuit))),
    h('tbody', {}, rows));
}

function section(s) {
  const headingId = `${s.id}-title`;
  return h('section', { id: s.id, class: 'rules-section', 'aria-labelledby': headingId, dataset: { key: s.id } },
    h('h3', { id: headingId }, RULES[s.title]),
    (s.text ?? []).map((p) => h('p', {}, RULES[p])),
    s.list ? h('ul', {}, s.list.map((item) => h('li', {}, RULES[item]))) : null,
    s.cards ? cardsTable() : null,
    (s.after ?? []).map((p) => h('p', {}, RULES[p])),
    s.toggle
      ? h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: 'tips-on', checked: tipsOn() }), RULES.tipsToggle)
      : null);
}

// Fill the dialog (once) and open it; the focus goes back where it was when it closes.
export function openRules() {
  const dialog = $('#rules');
  if (dialog.open) return;
  const body = $('#rules-body');
  if (!body.childElementCount) {
    $('#rules-title').textContent = RULES.title;
    const close = $('#rules-close');
    close.setAttribute('aria-label', RULES.close);
    close.title = RULES.close;
    patch(body,
      h('nav', { class: 'rules-contents', 'aria-label': RULES.contents },
        h('ul', {}, SECTIONS.map((s) => h('li', {}, h('a', { href: `#${s.id}` }, RULES[s.title]))))),
      SECTIONS.map(section));
    loadCatalog().then(() => $('#rules-card-table').replaceWith(cardsTable()));
    body.addEventListener('change', (event) => {
      if (event.target.id === 'tips-on') setTipsOn(event.target.checked);
    });
    body.addEventListener('click', (event) => {  // the contents scroll the dialog, not the page
      const link = event.target.closest('a[href^="#rules-"]');
      if (!link) return;
      event.preventDefault();
      $(link.getAttribute('href'))?.scrollIntoView({ block: 'start' });
    });
  }
  $('#tips-on').checked = tipsOn();
  const opener = document.activeElement;
  dialog.addEventListener('close', () => {
    if (window.location.hash === '#rules') window.history.replaceState(null, '', window.location.pathname + window.location.search);
    opener?.focus?.();
  }, { once: true });
  dialog.showModal();
  $('#rules-close').focus();
}
