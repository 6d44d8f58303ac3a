// node --test: telling the players apart (compass points, bot names, initials).
import assert from "node:assert/strict";
import { test } from "node:test";

import { BOT_NAMES, botName, compassPoint, initials, seatHue } from "../../src/whist/web/js/table/names.js";

test("seats are compass points, clockwise from South; two players face each other", () => {
  assert.deepEqual([0, 1, 2, 3].map((s) => compassPoint(s, 4)), ["South", "West", "North", "East"]);
  assert.deepEqual([0, 1].map((s) => compassPoint(s, 2)), ["South", "North"]);
});

test("no two bots at a table share a name, and a table keeps its names", () => {
  for (const id of ["a", "8LAL59G7", "Qx3vT0aB", "zz-_9", ""]) {
    const names = [0, 1, 2, 3].map((seat) => botName(id, seat));
    assert.equal(new Set(names).size, 4, names.join());
    assert.deepEqual(names, [0, 1, 2, 3].map((seat) => botName(id, seat)));
  }
  // Tables differ in their cast.
  const casts = new Set(["t1", "t2", "t3", "t4", "t5"].map((id) => botName(id, 0)));
  assert.ok(casts.size > 1);
  assert.equal(new Set(BOT_NAMES).size, BOT_NAMES.length);
  assert.ok(BOT_NAMES.every((name) => Array.from(name).length <= 7));
});

test("initials: one or two letters, upper case, any alphabet", () => {
  assert.equal(initials("Ann"), "A");
  assert.equal(initials("ann berg"), "AB");
  assert.equal(initials("  jiří  von  novák "), "JN");
  assert.equal(initials("Øystein"), "Ø");
});

test("each seat has its own colour", () => {
  assert.equal(new Set([0, 1, 2, 3].map(seatHue)).size, 4);
});
