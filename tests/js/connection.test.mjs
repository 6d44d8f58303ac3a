// node --test: the pure helpers of the table socket (no browser needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { socketUrl } from "../../src/whist/web/js/connection.js";

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
