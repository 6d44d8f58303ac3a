// "Review deal", pure (tested with node --test): from a deal's analysis (the server's
// /api/games/{id}/deals/{k}/analysis, made by whist.analysis) to what the review shows after
// `step` cards: each seat's hand, the trick on the table and who won it, the card in focus
// with its value and the best alternative, the mistakes and what they cost; and the wait
// between two polls while the server analyses.

const RANKS = "23456789TJQKA";

// A play's value: whole tricks when exact, an average when estimated (2 decimals), or a
// [low, high] bound (an analysis cut short).
export function valueText(value) {
  if (Array.isArray(value)) return value[0] === value[1] ? String(value[0]) : `${value[0]}–${value[1]}`;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

// Tricks a play cost its side, as the analysis judged it: 0 for a card among the best (an
// estimate within its noise of the best counts as one of them) and while a bound leaves it
// open.
export function lostBy(play) {
  return typeof play.lost === "number" ? play.lost : 0;
}

export function isMistake(play) {
  return lostBy(play) > 0;
}

// The mistakes in play order, with the step that shows each (the card just played).
export function mistakes(analysis) {
  return analysis.plays
    .map((play, index) => ({ ...play, step: index + 1, lost: lostBy(play) }))
    .filter((play) => isMistake(play));
}

// Every seat's total lost: its exactly graded plays' and its estimated ones' together.
export function totals(analysis) {
  const rough = analysis.estimated_lost || {};
  return Array.from({ length: analysis.players }, (_, seat) =>
    Number(analysis.lost[String(seat)] || 0) + Number(rough[String(seat)] || 0));
}

// Which card wins a finished trick (led suit, trumps beat it), for the last trick of a deal:
// the others are told by who leads next.
export function trickWinner(cards, trump) {
  let best = cards[0];
  for (const item of cards.slice(1)) {
    const [card, top] = [item.card, best.card];
    const beats = card[1] === top[1] ? RANKS.indexOf(card[0]) > RANKS.indexOf(top[0]) : card[1] === trump;
    if (beats) best = item;
  }
  return best.seat;
}

// The review after `step` cards (0: before the first; plays.length: the end).
//   hands: per seat, its cards now (from the analysis: a seat's cards just before its next
//          play, which also holds cards drawn from a stock meanwhile; none after its last);
//   trick: the cards of the trick of the last card shown, {seat, card}, in play order;
//   winner: the seat that won it once complete (else null);
//   focus: the last card shown (its play, with lost and mistake), or null at step 0.
export function reviewAt(analysis, step) {
  const plays = analysis.plays;
  const at = Math.max(0, Math.min(step, plays.length));
  const hands = Array.from({ length: analysis.players }, (_, seat) => {
    const next = plays.slice(at).find((play) => play.seat === seat);
    if (next) return next.hand;
    return at === 0 ? analysis.hands[String(seat)] || [] : [];
  });
  if (at === 0) return { step: 0, hands, trick: [], winner: null, focus: null };
  const last = plays[at - 1];
  const trick = plays.slice(0, at).filter((play) => play.trick === last.trick).map(({ seat, card }) => ({ seat, card }));
  const inTrick = plays.filter((play) => play.trick === last.trick).length;
  let winner = null;
  if (trick.length === inTrick) {
    const next = plays.find((play) => play.trick > last.trick);
    winner = next ? next.seat : trickWinner(trick, analysis.trump);
  }
  return { step: at, hands, trick, winner, focus: { ...last, lost: lostBy(last), mistake: isMistake(last) } };
}

// Stepping a trick at a time: the step that shows the trick in progress at `step` complete
// (+1; the next trick's if it is complete already), or the trick before complete (-1; the
// start before the first). A trick's last card is the step before the next trick's first.
export function trickStep(analysis, step, direction) {
  const plays = analysis.plays;
  const starts = plays.map((play, i) => (i === 0 || plays[i - 1].trick !== play.trick ? i : -1)).filter((i) => i >= 0);
  starts.push(plays.length);
  if (direction > 0) return starts.find((s) => s > step) ?? plays.length;
  const before = starts.filter((s) => s < step);
  return before.length ? before[before.length - 1] : 0;
}

// Cards grouped by suit in the deal's order (♠ ♥ ♦ ♣), high to low, as a bridge diagram.
export function bySuit(cards) {
  return ["S", "H", "D", "C"].map((suit) => ({
    suit,
    cards: cards.filter((card) => card[1] === suit).sort((a, b) => RANKS.indexOf(b[0]) - RANKS.indexOf(a[0])),
  }));
}

// The wait before the next poll while the server analyses: 1 s, then half as long again
// each time, at most 5 s (a Minnesota low deal takes ~10 s; a loaded server longer).
export function nextPollDelay(previous) {
  if (!previous) return 1000;
  return Math.min(5000, Math.round(previous * 1.5));
}
