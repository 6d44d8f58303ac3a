// node --test: "Review deal"'s pure part (review_model.js): hands and trick after each card,
// trick winners, the card in focus, mistakes and their cost, stepping by tricks, the poll's
// back-off.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bySuit, isMistake, lostBy, mistakes, nextPollDelay, reviewAt, totals, trickStep, trickWinner, valueText,
} from "../../src/whist/web/js/review_model.js";

// Two tricks of a two-hand deal, hearts trump, as the server's analysis gives them: seat 0
// leads AS (best), seat 1 follows 2S, seat 0 leads again KD (a mistake: QD was better by one
// trick), seat 1 ruffs with 3H.
function analysis() {
  return {
    deal: 0, objective: "most", players: 2, trump: "H",
    hands: { 0: ["AS", "KD", "QD"], 1: ["2S", "3H", "4C"] },
    plays: [
      { trick: 0, seat: 0, card: "AS", played: 2, best: 2, exact: true, best_cards: ["AS"], lost: 0, hand: ["AS", "KD", "QD"] },
      { trick: 0, seat: 1, card: "2S", played: 1, best: 1, exact: true, best_cards: ["2S"], lost: 0, hand: ["2S", "3H", "4C"] },
      { trick: 1, seat: 0, card: "KD", played: 0, best: 1, exact: true, best_cards: ["QD"], lost: 1, hand: ["KD", "QD"] },
      { trick: 1, seat: 1, card: "3H", played: 2, best: 2, exact: true, best_cards: ["3H", "4C"], lost: 0, hand: ["3H", "4C"] },
    ],
    lost: { 0: 1, 1: 0 },
  };
}

test("before the first card: every hand as play began, nothing on the table", () => {
  const now = reviewAt(analysis(), 0);
  assert.deepEqual(now.hands, [["AS", "KD", "QD"], ["2S", "3H", "4C"]]);
  assert.deepEqual(now.trick, []);
  assert.equal(now.focus, null);
  assert.equal(now.winner, null);
});

test("after each card: the hands shrink, the trick fills, its winner once complete", () => {
  const a = analysis();
  const one = reviewAt(a, 1);
  assert.deepEqual(one.hands, [["KD", "QD"], ["2S", "3H", "4C"]]);
  assert.deepEqual(one.trick, [{ seat: 0, card: "AS" }]);
  assert.equal(one.winner, null);
  assert.equal(one.focus.card, "AS");
  assert.equal(one.focus.mistake, false);
  const two = reviewAt(a, 2);
  assert.deepEqual(two.trick, [{ seat: 0, card: "AS" }, { seat: 1, card: "2S" }]);
  assert.equal(two.winner, 0); // who leads the next trick
  const three = reviewAt(a, 3);
  assert.deepEqual(three.trick, [{ seat: 0, card: "KD" }]); // a new trick
  assert.equal(three.focus.mistake, true);
  assert.equal(three.focus.lost, 1);
  const end = reviewAt(a, 4);
  assert.deepEqual(end.hands, [[], []]);
  assert.equal(end.winner, 1); // the last trick: the trump wins it
  assert.deepEqual(reviewAt(a, 99), end); // clamped
  assert.deepEqual(reviewAt(a, -3), reviewAt(a, 0));
});

test("the last trick's winner: the highest card of the led suit unless trumped", () => {
  const cards = (list) => list.map((card, seat) => ({ seat, card }));
  assert.equal(trickWinner(cards(["5S", "KS", "AD", "2S"]), "H"), 1);
  assert.equal(trickWinner(cards(["5S", "KS", "2H", "3H"]), "H"), 3);
  assert.equal(trickWinner(cards(["TC", "AS", "2D", "9C"]), null), 0);
});

test("a mistake is what the analysis says it cost; totals add the estimated losses", () => {
  assert.equal(lostBy({ played: 5, best: 6, exact: true, lost: 1 }), 1);
  assert.equal(lostBy({ played: 3, best: 1, exact: true, lost: 2 }), 2); // fewest: lower is better
  assert.equal(lostBy({ played: [4, 6], best: [6, 6], exact: true }), 0); // a bound: open
  assert.equal(isMistake({ played: 5, best: 6, exact: true, lost: 1 }), true);
  assert.equal(isMistake({ played: 6, best: 6, exact: true, lost: 0 }), false);
  // An estimate among the best cards (within its noise) costs nothing, whatever the gap.
  assert.equal(isMistake({ played: 5.4, best: 6.1, exact: false, lost: 0 }), false);
  assert.equal(isMistake({ played: 5.2, best: 6.1, exact: false, lost: 0.9 }), true);
  const found = mistakes(analysis());
  assert.deepEqual(found.map((m) => [m.step, m.card, m.lost]), [[3, "KD", 1]]);
  assert.deepEqual(totals(analysis()), [1, 0]);
  assert.deepEqual(totals({ ...analysis(), estimated_lost: { 0: 0.5, 1: 1.25 } }), [1.5, 1.25]);
});

test("values: whole tricks, one decimal for estimates, a range for bounds", () => {
  assert.equal(valueText(6), "6");
  assert.equal(valueText(5.25), "5.3");
  assert.equal(valueText([4, 6]), "4–6");
  assert.equal(valueText([5, 5]), "5");
});

test("stepping by tricks: to the start of the next or the previous trick", () => {
  const a = analysis();
  assert.equal(trickStep(a, 0, 1), 2);
  assert.equal(trickStep(a, 1, 1), 2);
  assert.equal(trickStep(a, 2, 1), 4);
  assert.equal(trickStep(a, 4, 1), 4);
  assert.equal(trickStep(a, 4, -1), 2);
  assert.equal(trickStep(a, 3, -1), 2);
  assert.equal(trickStep(a, 2, -1), 0);
  assert.equal(trickStep(a, 0, -1), 0);
});

test("a hand as a bridge diagram: spades to clubs, high to low", () => {
  assert.deepEqual(bySuit(["2S", "AS", "TD", "KC", "JD"]), [
    { suit: "S", cards: ["AS", "2S"] },
    { suit: "H", cards: [] },
    { suit: "D", cards: ["JD", "TD"] },
    { suit: "C", cards: ["KC"] },
  ]);
});

test("polling backs off from 1 s to at most 5 s", () => {
  const delays = [];
  let delay = 0;
  for (let i = 0; i < 7; i += 1) {
    delay = nextPollDelay(delay);
    delays.push(delay);
  }
  assert.deepEqual(delays, [1000, 1500, 2250, 3375, 5000, 5000, 5000]);
});
