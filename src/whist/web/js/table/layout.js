// Pure helpers of the table's layout: where each seat sits, the cards played so far, the
// trick on the felt, clock text. No DOM: tested with node --test (tests/js/).

import { has } from "../facts.js";

// Screen positions by seat, counted from the seat at the bottom (yours, or seat 0).
export function positions(players) {
  return players === 2 ? ["bottom", "top"] : ["bottom", "left", "top", "right"];
}

// A seat counted from `anchor` (the bottom seat): 0 bottom, 1 left, 2 across, 3 right.
export function relativeSeat(seat, anchor, players) {
  return (seat - anchor + players) % players;
}

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

export function cardsPlayed(view) {
  let n = view.trick.length;
  for (const trick of view.tricks) n += trick.cards.length;
  return n;
}

// Every card of the deal in playing order with its seat.
export function playSequence(view) {
  const n = view.hand_sizes.length;
  const out = [];
  view.tricks.forEach((trick, index) => {
    trick.cards.forEach((card, i) => out.push({ card, seat: (trick.leader + i) % n, trick: index }));
  });
  if (view.leader !== null) {
    view.trick.forEach((card, i) => out.push({ card, seat: (view.leader + i) % n, trick: view.tricks.length }));
  }
  return out;
}

// What lies on the felt: the trick in progress, else the last one taken (done, with its winner).
export function trickOnFelt(view) {
  const n = view.hand_sizes.length;
  if (view.trick.length && view.leader !== null) {
    return { cards: view.trick.map((card, i) => ({ card, seat: (view.leader + i) % n })), winner: null, done: false };
  }
  if (view.tricks.length) {
    const last = view.tricks[view.tricks.length - 1];
    return { cards: last.cards.map((card, i) => ({ card, seat: (last.leader + i) % n })), winner: last.winner, done: true };
  }
  return { cards: [], winner: null, done: false };
}

// Cards everyone saw go into a seat's hand: with a stock, every upcard it took; otherwise
// those not shown already (a revealed bottom card) and not yet played.
export function knownCards(view, seat) {
  const cards = view.shown[seat] || [];
  if (has(view.facts, "stock")) return cards;
  const played = new Set(playSequence(view).map((p) => p.card));
  const revealed = new Set(view.revealed.map((e) => e.choice));
  return cards.filter((c) => !played.has(c) && !revealed.has(c));
}

// The view as it looks once `seat` has played `card` and before the server has answered (an
// optimistic move): the card leaves the hand (or its table pile) for the trick, nobody may act
// on this page, and the next seat is to play. The server's next state replaces it.
export function withMove(view, seat, card) {
  const n = view.hand_sizes.length;
  const trick = [...view.trick, card];
  const next = trick.length < n ? (seat + 1) % n : null;
  const table = view.table
    ? view.table.map((row, s) => (s === seat ? row.map((pile) => (pile.up === card ? { ...pile, up: null } : pile)) : row))
    : view.table;
  return {
    ...view,
    trick,
    leader: view.trick.length ? view.leader : seat,
    hand: view.hand.filter((c) => c !== card),
    hand_sizes: view.hand_sizes.map((size, s) => (s === seat && view.hand.includes(card) ? size - 1 : size)),
    table,
    legal: [],
    to_act: next === null ? [] : [next],
  };
}

// Whether `card` has been played in this view's deal.
export function isPlayed(view, card) {
  return playSequence(view).some((p) => p.card === card);
}
