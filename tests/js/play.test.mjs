// node --test: the table in play's pure helpers (play aids, the optimistic move, the last
// trick, hand orders, animation settings).
import assert from "node:assert/strict";
import { test } from "node:test";

import { sortCards } from "../../src/whist/web/js/cards.js";
import { holdFactor, motionFactor } from "../../src/whist/web/js/settings.js";
import { forcedCard, whyIllegal } from "../../src/whist/web/js/table/aids.js";
import { isPlayed, playSequence, trickOnFelt, withMove } from "../../src/whist/web/js/table/layout.js";
import { lastTrick } from "../../src/whist/web/js/table/trick_review.js";

function view(extra = {}) {
  return {
    deal: 0, seat: 0, phase: "play", hand_sizes: [3, 3, 3, 3], hand: ["AS", "2H", "KD"],
    tricks: [], trick: [], leader: null, legal: [], to_act: [0], table: [], ...extra,
  };
}
const plays = (...cards) => cards.map((play) => ({ play }));

test("an illegal card says why: follow the led suit, or not your turn", () => {
  const following = view({ trick: ["5H"], leader: 3, legal: plays("2H") });
  assert.equal(whyIllegal(following, "AS"), "You must follow suit: play a heart.");
  assert.equal(whyIllegal(following, "2H"), null);
  assert.equal(whyIllegal(view({ trick: ["5C"], leader: 3, legal: plays("AS", "2H") }), "KX"), "You cannot play that card now.");
  assert.equal(whyIllegal(view({ legal: [] }), "AS"), "It is not your turn.");
  assert.equal(whyIllegal(view({ phase: "bid", legal: [{ bid: "high" }] }), "AS"), "You cannot play a card now.");
});

test("a forced card is the only legal play", () => {
  assert.equal(forcedCard(view({ legal: plays("2H") })), "2H");
  assert.equal(forcedCard(view({ legal: plays("2H", "AS") })), null);
  assert.equal(forcedCard(view({ phase: "bid", legal: [{ bid: "high" }] })), null);
  assert.equal(forcedCard(view({ legal: [] })), null);
});

test("an optimistic move puts your card in the trick and hands the turn on", () => {
  const v = view({ trick: ["5H", "9H"], leader: 2, legal: plays("2H"), to_act: [0] });
  const after = withMove(v, 0, "2H");
  assert.deepEqual(after.trick, ["5H", "9H", "2H"]);
  assert.equal(after.leader, 2);
  assert.deepEqual(after.hand, ["AS", "KD"]);
  assert.deepEqual(after.hand_sizes, [2, 3, 3, 3]);
  assert.deepEqual(after.legal, []);
  assert.deepEqual(after.to_act, [1]);
  assert.ok(isPlayed(after, "2H") && !isPlayed(v, "2H"));
  assert.deepEqual(trickOnFelt(after).cards.at(-1), { card: "2H", seat: 0 });
  // Leading: you are the leader; the fourth card: nobody acts until the server answers.
  assert.equal(withMove(view({ legal: plays("AS") }), 0, "AS").leader, 0);
  assert.deepEqual(withMove(view({ trick: ["5H", "9H", "TH"], leader: 1 }), 0, "2H").to_act, []);
  // A face-up card of your table piles (Japanese Whist) leaves its pile.
  const piles = view({ hand_sizes: [0, 0], hand: [], table: [[{ up: "QS", down: true }], [{ up: "3D", down: false }]] });
  const fromPile = withMove(piles, 0, "QS");
  assert.deepEqual(fromPile.table[0], [{ up: null, down: true }]);
  assert.deepEqual(fromPile.table[1], piles.table[1]);
  assert.deepEqual(fromPile.hand_sizes, [0, 0]);
  assert.equal(playSequence(fromPile).length, 1);
});

test("the last trick: who played what, in order, and who won it", () => {
  assert.equal(lastTrick(view()), null);
  const v = view({ tricks: [{ leader: 1, cards: ["2C", "AC", "KC", "3C"], winner: 2 }, { leader: 2, cards: ["5H", "9H", "TH", "2H"], winner: 0 }] });
  assert.deepEqual(lastTrick(v), {
    winner: 0,
    cards: [
      { card: "5H", seat: 2, led: true }, { card: "9H", seat: 3, led: false },
      { card: "TH", seat: 0, led: false }, { card: "2H", seat: 1, led: false },
    ],
  });
});

test("hand orders: alternating colours, or fixed suits low to high / high to low", () => {
  const hand = ["2D", "AS", "TH", "KC", "3S", "AH"];
  assert.deepEqual(sortCards(hand), ["AS", "3S", "AH", "TH", "KC", "2D"]);
  assert.deepEqual(sortCards(hand, "alternate"), ["AS", "3S", "AH", "TH", "KC", "2D"]);
  assert.deepEqual(sortCards(hand, "suits"), ["KC", "2D", "TH", "AH", "3S", "AS"]);
  assert.deepEqual(sortCards(hand, "suits_desc"), ["AS", "3S", "AH", "TH", "2D", "KC"]);
});

test("animation speed: movements and pauses scale, off and reduced motion move nothing", () => {
  assert.equal(motionFactor("normal"), 1);
  assert.ok(motionFactor("fast") < 1 && motionFactor("slow") > 1);
  assert.equal(motionFactor("off"), 0);
  assert.equal(motionFactor("slow", true), 0);
  assert.ok(holdFactor("off") < holdFactor("fast") + 1e-9 && holdFactor("fast") < holdFactor("normal") && holdFactor("normal") < holdFactor("slow"));
  // The server's table pace scales every pause on top of the player's setting.
  assert.equal(holdFactor("normal", 0.25), 0.25);
  assert.equal(holdFactor("slow", 2), 3);
});
