// node --test: the facts predicates and the club's XP rule (no browser needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { levelProgress } from "../../src/whist/web/js/config.js";
import { has, hasContract, revealsAtOnce } from "../../src/whist/web/js/facts.js";

const classic = { players: 4, components: ["turned_card"], bid_words: [], contracts: [], bid_hand: 13 };
const swedish = { players: 4, components: ["secret_choices", "bottom_cards"], bid_words: ["spel", "pass"], contracts: ["spel", "noll"], bid_hand: 13 };
const minnesota = { players: 4, components: ["secret_choices"], bid_words: ["high", "low"], contracts: ["high", "low"], bid_hand: 13 };

test("a component is there or not; no facts have none", () => {
  assert.equal(has(classic, "turned_card"), true);
  assert.equal(has(classic, "stock"), false);
  assert.equal(has(null, "stock"), false);
});

test("a contract is shown for the variants that play one", () => {
  assert.equal(hasContract(classic), false);
  assert.equal(hasContract(swedish), true);
  assert.equal(hasContract(minnesota), true);
});

test("secret choices are revealed at once only with the simultaneous option", () => {
  assert.equal(revealsAtOnce(swedish, { reveal: "simultaneous" }), true);
  assert.equal(revealsAtOnce(swedish, { reveal: "sequential" }), false);
  assert.equal(revealsAtOnce(minnesota, {}), false);
  // Japanese Whist's "reveal" option turns up table cards: no secret choices there.
  assert.equal(revealsAtOnce({ ...classic, components: ["piles", "trump_choice"] }, { reveal: "immediate" }), false);
});

test("the progress to the next level follows the club's thresholds", () => {
  const levelAt = [0, 100, 300, 600];
  assert.deepEqual(levelProgress(0, 1, levelAt), { low: 0, high: 100, fraction: 0 });
  assert.deepEqual(levelProgress(200, 2, levelAt), { low: 100, high: 300, fraction: 0.5 });
  // The last level listed: nothing further to reach.
  assert.deepEqual(levelProgress(900, 4, levelAt), { low: 600, high: null, fraction: 1 });
});
