// node --test: a hint's words (table/hint.js): MASTER's action and what it expects of it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { estimateText, hintText, hintToShow } from "../../src/whist/web/js/table/hint.js";

test("the estimate says which side the deal favours, by how much, or the tricks", () => {
  assert.match(estimateText({ value: 1.44, unit: "margin", worlds: 20 }), /your side 1\.4 points more/);
  assert.match(estimateText({ value: -2, unit: "margin", worlds: 20 }), /other side 2\.0 points more/);
  assert.match(estimateText({ value: 0.01, unit: "margin", worlds: 20 }), /come out even/);
  assert.match(estimateText({ value: 7.25, unit: "tricks", worlds: 200 }), /7\.3 tricks|7\.2 tricks/);
  assert.match(estimateText(null), /no search/);
});

test("every decision MASTER makes has its sentence", () => {
  const estimate = { value: 1, unit: "margin", worlds: 9 };
  assert.match(hintText({ seat: 0, play: "QH" }, estimate), /^MASTER would play .*Q.*\(expects/);
  assert.match(hintText({ seat: 0, bid: "high" }, estimate), /^MASTER would bid High/);
  assert.match(hintText({ seat: 0, trump: "S" }, estimate), /^MASTER would choose .* as trump/);
  assert.match(hintText({ seat: 0, bottom: "2C" }, null), /bottom card/);
  assert.match(hintText({ seat: 1, take: "keep" }, null), /keep the stock card/);
  assert.match(hintText({ seat: 1, take: "discard" }, null), /discard the stock card/);
});

test("a suggestion stays while it can be played, a refusal only until the table moves on", () => {
  const yourTurn = { legal: [{ play: "QH" }, { play: "3S" }] };
  const after = { legal: [{ play: "3S" }] };
  const suggestion = { id: 1, waiting: false, action: { seat: 0, play: "QH" }, text: "MASTER would play" };
  assert.equal(hintToShow(suggestion, yourTurn, 7), suggestion);
  assert.equal(hintToShow(suggestion, yourTurn, 9), suggestion); // the bots played meanwhile
  assert.equal(hintToShow(suggestion, after, 9), null); // the card was played
  // Asked while a forced card was on its way: refused for that moment, not for the next turn.
  const refusal = { id: 2, waiting: false, action: null, text: "It is not your turn.", version: 7 };
  assert.equal(hintToShow(refusal, yourTurn, 7), refusal);
  assert.equal(hintToShow(refusal, yourTurn, 6), refusal); // that state is still on its way
  assert.equal(hintToShow(refusal, yourTurn, 8), null);
  const asked = { id: 3, waiting: true, action: null, text: "MASTER is thinking…" };
  assert.equal(hintToShow(asked, yourTurn, 8), asked);
  assert.equal(hintToShow(null, yourTurn, 8), null);
});
