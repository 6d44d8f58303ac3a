// node --test: a hint's words (table/hint.js): MASTER's action and what it expects of it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { estimateText, hintText } from "../../src/whist/web/js/table/hint.js";

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
