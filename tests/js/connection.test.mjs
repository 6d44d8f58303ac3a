// node --test: the pure helpers of the table socket (no browser needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { backoffDelay, secondsLeft, socketUrl } from "../../src/whist/web/js/connection.js";

const page = { protocol: "https:", host: "club.example.com" };

test("without socket addresses the page's own server is used", () => {
  assert.equal(socketUrl("ab c", 0, [], page), "wss://club.example.com/ws/tables/ab%20c");
  assert.equal(socketUrl("t", 5, [], { protocol: "http:", host: "h:8000" }), "ws://h:8000/ws/tables/t");
});

test("each new try goes to the next address of the club", () => {
  const bases = ["wss://a.example.com/", "wss://b.example.com"];
  const tried = [0, 1, 2, 3].map((attempt) => socketUrl("t", attempt, bases, page));
  assert.deepEqual(tried, [
    "wss://a.example.com/ws/tables/t",
    "wss://b.example.com/ws/tables/t",
    "wss://a.example.com/ws/tables/t",
    "wss://b.example.com/ws/tables/t",
  ]);
});

test("the back-off doubles from half a second and never waits over 3 s", () => {
  const middle = [0, 1, 2, 3, 4, 10, 50].map((attempt) => backoffDelay(attempt, 0.5));
  assert.deepEqual(middle, [500, 1000, 2000, 3000, 3000, 3000, 3000]);
  for (let attempt = 0; attempt < 60; attempt += 1) {
    for (const random of [0, 0.25, 0.999]) {
      const delay = backoffDelay(attempt, random);
      assert.ok(delay >= 400 && delay <= 3000, `${attempt} ${random}: ${delay}`);
    }
  }
  // ±20 % jitter below the cap, so that a club's pages spread their tries.
  assert.equal(backoffDelay(0, 0), 400);
  assert.equal(backoffDelay(1, 0.999), 1200);
});

test("the countdown shows whole seconds left, rounded up, never below 0", () => {
  assert.equal(secondsLeft(10_000, 7_000), 3);
  assert.equal(secondsLeft(10_000, 7_900), 3);
  assert.equal(secondsLeft(10_000, 8_000), 2);
  assert.equal(secondsLeft(10_000, 9_999), 1);
  assert.equal(secondsLeft(10_000, 10_000), 0);
  assert.equal(secondsLeft(10_000, 12_000), 0);
});
