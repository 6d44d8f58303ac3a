// How long a new state stays on screen before the next one is drawn, so that each play, trick
// and revealed choice can be seen. Pure: tested with node --test (tests/js/).
import { revealsAtOnce } from "../facts.js";
import { cardsPlayed, playSequence } from "./layout.js";

const REVEAL_STEP = 800; // ms between two revealed bids or bottom cards

// Revealed choices show one by one, REVEAL_STEP apart, unless the variant shows them at once.
export function revealStep(view) {
  return revealsAtOnce(view.facts, view.options) ? 0 : REVEAL_STEP;
}

// The pause (ms) after drawing `next` when `prev` was on screen.
export function holdFor(prev, next) {
  if (!prev) return 0;
  const a = prev.view;
  const b = next.view;
  let hold = 0;
  if (a.deal === b.deal) {
    if (b.tricks.length > a.tricks.length) hold = 1500;
    else if (cardsPlayed(b) > cardsPlayed(a)) {
      const last = playSequence(b).at(-1);
      hold = last && last.seat === b.seat ? 250 : 650;
    }
    const newReveals = b.revealed.length - a.revealed.length;
    if (newReveals > 0) hold = Math.max(hold, revealStep(b) * newReveals + 900);
  } else if (b.history.length > a.history.length) {
    hold = 700;
  }
  return hold;
}
