// Secret choices and bottom cards (Minnesota, Swedish Whist): once everyone has chosen, the
// choices are revealed in order, one by one (or all at once), on the felt and at each seat.
import { cardImg, isRed } from "../../cards.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { bidName, cardName } from "../../labels.js";
import { seatShortName } from "../seats.js";
import { revealStep } from "../timing.js";

const POP_MS = 600; // a choice just revealed is drawn with its entry animation this long

// Each revealed entry with whether it shows yet: entry i shows revealStep after entry i-1,
// counted from when it arrived; a render is due when the next one shows.
function revealState(tbl, v) {
  const { ctx } = tbl;
  const now = Date.now();
  const step = revealStep(v);
  let previous = 0;
  let next = null;
  const out = v.revealed.map((entry, i) => {
    const key = `${v.deal}:${i}`;
    if (!ctx.revealAt.has(key)) ctx.revealAt.set(key, Math.max(now, previous + step));
    const at = ctx.revealAt.get(key);
    previous = at;
    if (at > now && (next === null || at < next)) next = at;
    return { ...entry, index: i, visible: at <= now, pop: at <= now && now - at < POP_MS };
  });
  if (next !== null && !ctx.revealTimer) {
    ctx.revealTimer = setTimeout(() => {
      ctx.revealTimer = null;
      tbl.render();
    }, next - now + 10);
  }
  return out;
}

// Some revealed choice is still to be shown (the contract is not known on screen yet).
export function stillRevealing(tbl, v) {
  return revealState(tbl, v).some((e) => !e.visible);
}

// A bottom card (two characters) or a bid word.
function choiceImage(choice) {
  return choice.length === 2
    ? h("span", { class: "mini-card" }, cardImg(choice, { alt: cardName(choice) }))
    : h("span", { class: `bid-badge bid-${choice}` }, bidName(choice));
}

// The choices in order, on the felt while no card is played yet.
export function revealStrip(tbl, v) {
  const entries = revealState(tbl, v);
  if (!entries.length) return null;
  return h("ol", { class: "reveal-strip", "data-testid": "reveal", "aria-hidden": "true" },
    entries.map((entry) => h("li", {
      class: `reveal-item${entry.pop ? " reveal-enter" : ""}${entry.visible ? "" : " reveal-pending"}`,
      "data-seat": entry.seat,
      "data-visible": String(entry.visible),
    },
    h("span", { class: "reveal-name" }, seatShortName(tbl, entry.seat)),
    entry.visible ? choiceImage(entry.choice) : h("span", { class: "bid-badge bid-hidden" }, "?"))));
}

// A seat's own revealed choice, by its name (a bottom card says what it bid).
export function seatReveal(tbl, v, seat) {
  const entry = revealState(tbl, v).find((e) => e.seat === seat && e.visible);
  if (!entry) return null;
  return h("div", { class: `seat-reveal${entry.pop ? " reveal-enter" : ""}`, "data-testid": "seat-reveal" },
    entry.choice.length === 2
      ? [choiceImage(entry.choice), h("span", null, isRed(entry.choice) ? t("Spel") : t("Pass"))]
      : choiceImage(entry.choice));
}
