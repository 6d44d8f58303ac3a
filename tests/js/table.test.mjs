// node --test: the table's pure helpers (layout, timing, bids, keyboard, stages).
import assert from "node:assert/strict";
import { test } from "node:test";

import { contractName } from "../../src/whist/web/js/labels.js";
import { bidLook } from "../../src/whist/web/js/table/choices.js";
import { rovingIndex } from "../../src/whist/web/js/table/hand.js";
import {
  cardsPlayed, clockText, knownCards, playSequence, positions, relativeSeat, trickOnFelt,
} from "../../src/whist/web/js/table/layout.js";
import { stageTricks } from "../../src/whist/web/js/table/mechanics/stock.js";
import { holdFor, revealStep } from "../../src/whist/web/js/table/timing.js";

const facts = (components) => ({ players: 4, components, bid_words: [], contracts: [], bid_hand: 13 });

function deal(extra = {}) {
  return {
    deal: 0, seat: 0, facts: facts(["turned_card"]), options: {}, hand_sizes: [13, 13, 13, 13],
    tricks: [], trick: [], leader: null, revealed: [], history: [], shown: [[], [], [], []],
    ...extra,
  };
}

test("seats sit round the table from the bottom, clockwise to the left", () => {
  assert.deepEqual(positions(2), ["bottom", "top"]);
  assert.deepEqual(positions(4), ["bottom", "left", "top", "right"]);
  assert.equal(relativeSeat(2, 2, 4), 0);
  assert.equal(relativeSeat(0, 2, 4), 2);
  assert.equal(relativeSeat(1, 2, 4), 3);
  assert.equal(relativeSeat(0, 1, 2), 1);
});

test("clocks read minutes and seconds, rounded up, never below zero", () => {
  assert.equal(clockText(90_000), "1:30");
  assert.equal(clockText(4_001), "0:05");
  assert.equal(clockText(-5), "0:00");
});

test("the cards played are listed in order with their seats", () => {
  const v = deal({
    tricks: [{ leader: 3, cards: ["2C", "3C", "4C", "5C"], winner: 2 }],
    trick: ["AS"], leader: 2,
  });
  assert.equal(cardsPlayed(v), 5);
  assert.deepEqual(playSequence(v).map((p) => [p.card, p.seat, p.trick]),
    [["2C", 3, 0], ["3C", 0, 0], ["4C", 1, 0], ["5C", 2, 0], ["AS", 2, 1]]);
});

test("the felt shows the trick in progress, else the last trick with its winner", () => {
  assert.deepEqual(trickOnFelt(deal()), { cards: [], winner: null, done: false });
  const last = deal({ tricks: [{ leader: 1, cards: ["2C", "3C", "4C", "5C"], winner: 0 }] });
  assert.deepEqual(trickOnFelt(last).cards[0], { card: "2C", seat: 1 });
  assert.equal(trickOnFelt(last).winner, 0);
  assert.equal(trickOnFelt(last).done, true);
  const now = deal({ ...last, trick: ["KH"], leader: 0 });
  assert.deepEqual(trickOnFelt(now), { cards: [{ card: "KH", seat: 0 }], winner: null, done: false });
});

test("known cards: all upcards taken with a stock, else only those not shown or played", () => {
  const shown = [["AS", "KD", "QC"], [], [], []];
  const stock = deal({ facts: facts(["stock", "talon"]), shown, trick: ["AS"], leader: 0 });
  assert.deepEqual(knownCards(stock, 0), ["AS", "KD", "QC"]);
  const bottom = deal({ facts: facts(["secret_choices", "bottom_cards"]), shown, trick: ["AS"], leader: 0, revealed: [{ seat: 0, choice: "KD" }] });
  assert.deepEqual(knownCards(bottom, 0), ["QC"]);
});

test("a state stays on screen long enough to see the play, the trick, the reveals", () => {
  const before = { view: deal() };
  assert.equal(holdFor(null, before), 0);
  const mine = { view: deal({ trick: ["AS"], leader: 0 }) };
  const theirs = { view: deal({ trick: ["AS"], leader: 1 }) };
  assert.equal(holdFor(before, mine), 250);
  assert.equal(holdFor(before, theirs), 650);
  const trick = { view: deal({ tricks: [{ leader: 0, cards: ["2C", "3C", "4C", "5C"], winner: 1 }] }) };
  assert.equal(holdFor(mine, trick), 1500);
  const two = [{ seat: 1, choice: "high" }, { seat: 2, choice: "low" }];
  const reveals = { view: deal({ facts: facts(["secret_choices"]), revealed: two }) };
  assert.equal(holdFor(before, reveals), 2 * 800 + 900);
  const atOnce = { view: deal({ facts: facts(["secret_choices", "bottom_cards"]), options: { reveal: "simultaneous" }, revealed: two }) };
  assert.equal(revealStep(atOnce.view), 0);
  assert.equal(holdFor(before, atOnce), 900);
  const next = { view: deal({ deal: 1, history: [{}] }) };
  assert.equal(holdFor(before, next), 700);
});

test("bids: high and spel take tricks in red; black is high with American colours", () => {
  assert.deepEqual(bidLook("high", {}), { colour: "red", takes: true });
  assert.deepEqual(bidLook("low", {}), { colour: "black", takes: false });
  assert.deepEqual(bidLook("spel", { colours: "american" }), { colour: "red", takes: true });
  assert.deepEqual(bidLook("pass", null), { colour: "black", takes: false });
  assert.deepEqual(bidLook("high", { colours: "american" }), { colour: "black", takes: true });
  assert.deepEqual(bidLook("low", { colours: "american" }), { colour: "red", takes: false });
});

test("arrow keys move round the playable cards; Home and End jump", () => {
  assert.equal(rovingIndex("ArrowRight", 2, 3), 0);
  assert.equal(rovingIndex("ArrowLeft", 0, 3), 2);
  assert.equal(rovingIndex("ArrowDown", -1, 3), 0);
  assert.equal(rovingIndex("Home", 2, 3), 0);
  assert.equal(rovingIndex("End", 0, 3), 2);
  assert.equal(rovingIndex("a", 0, 3), null);
});

test("stage tricks are counted per seat", () => {
  const tricks = [{ stage: 1, winner: 0 }, { stage: 1, winner: 1 }, { stage: 2, winner: 1 }];
  assert.deepEqual(stageTricks(tricks, 1), [1, 1]);
  assert.deepEqual(stageTricks(tricks, 2), [0, 1]);
});

test("a contract in words names its player, or you", () => {
  const name = (seat) => `Seat ${seat + 1}`;
  assert.equal(contractName({ mode: "high", grander: 2 }, name, 0), "High: Seat 3 grands");
  assert.equal(contractName({ mode: "high", grander: 0 }, name, 0), "High: you grand");
  assert.equal(contractName({ mode: "spel", bidder: 1 }, name), "Spel: Seat 2 bid spel");
  assert.equal(contractName({ mode: "spel", declarer: 1 }, name, 1), "Spel: you declare");
  assert.equal(contractName({ mode: "noll" }, name), "Nollspel");
  assert.equal(contractName(null, name), null);
});
