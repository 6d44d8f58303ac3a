// node --test: sorting a hand and drawing the cards (no browser needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { backSVG, cardSVG } from "../../src/whist/web/js/card_art.js";
import { sortCards } from "../../src/whist/web/js/cards.js";

test("a hand is sorted by suit in alternating colours, high cards first", () => {
  assert.deepEqual(sortCards(["2D", "AS", "TH", "KC", "3S", "AH"]), ["AS", "3S", "AH", "TH", "KC", "2D"]);
});

test("every face design draws every card, and every back draws", () => {
  for (const face of ["classic", "four_colour", "large_index", "art_deco", "folk"]) {
    for (const suit of "SHDC") {
      for (const rank of "23456789TJQKA") {
        const svg = cardSVG(rank + suit, face, false);
        assert.match(svg, /^<svg [^>]*viewBox="0 0 200 280"/);
        assert.ok(svg.endsWith("</svg>"));
      }
    }
  }
  // The ten's index reads "10"; a four-colour deck draws diamonds blue.
  assert.match(cardSVG("TD", "classic", false), />10</);
  assert.match(cardSVG("TD", "classic", true), /#0b5cad/);
  for (const back of ["classic", "blue", "green", "lattice", "royal"]) assert.match(backSVG(back), /<\/svg>$/);
});
