// "Review deal": a finished deal replayed card by card with the analysis of every card (its
// value, the best alternative, the mistakes and what they cost), in a dialog over the page
// that opened it (the table's deal summary, or a game in My games). The server analyses the
// deal the first time (202 while it works): "Analysing…", asked again with a growing wait.
// The pure part is review_model.js.
import { get } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { SUIT_SYMBOL, cardName, cardShort, errorText, rankName, rankShort, suitNameCapital } from "./labels.js";
import {
  bySuit, mistakes, nextPollDelay, reviewAt, totals, trickStep, valueText,
} from "./review_model.js";
import { positions, relativeSeat } from "./table/layout.js";
import { compassPoint } from "./table/names.js";

const AUTOPLAY_MS = 1300; // a card every 1.3 s: time to read its value

const COMPASS_TEXT = {
  South: () => t("South"),
  West: () => t("West"),
  North: () => t("North"),
  East: () => t("East"),
};

export function analysisPath(tableId, deal) {
  return `/api/games/${encodeURIComponent(tableId)}/deals/${deal}/analysis`;
}

// Opens the review of deal `deal` (0-based) of table `tableId`. `me`: the seat drawn at the
// bottom (the viewer's); `seatName(seat)`: the names the opening page uses.
export function openReview({ tableId, deal, me = null, seatName = null }) {
  const opener = document.activeElement;
  const status = h("p", { class: "review-status", role: "status", "aria-live": "polite", "data-testid": "review-status" });
  const content = h("div", { class: "review-content" });
  const dialog = h("dialog", {
    class: "dialog dialog-wide review-dialog", "aria-labelledby": "review-title", "data-testid": "review",
  },
  h("div", { class: "dialog-body" },
    h("div", { class: "panel-head review-head" },
      h("h2", { id: "review-title" }, t("Review of deal {n}", { n: deal + 1 })),
      h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": "review-close", onclick: () => dialog.close() },
        t("Close"))),
    status,
    content));
  let stopped = false;
  let pollTimer = null;
  let delay = 0;
  let review = null; // {answer, analysis, step, autoplay, timer}

  const poll = async () => {
    pollTimer = null;
    let answer;
    try {
      answer = await get(analysisPath(tableId, deal));
    } catch (err) {
      if (stopped) return;
      replace(status, h("span", { class: "form-error" }, errorText(err.code, err.message)), " ",
        h("button", { type: "button", class: "btn btn-small", "data-testid": "review-retry", onclick: () => start() }, t("Try again")));
      return;
    }
    if (stopped) return;
    if (answer.status !== "ready") {
      replace(status, h("span", { class: "review-spinner", "aria-hidden": "true" }), t("Analysing…"));
      delay = nextPollDelay(delay);
      pollTimer = setTimeout(poll, delay);
      return;
    }
    replace(status);
    review = { answer, analysis: answer.analysis, step: 0, autoplay: false, timer: null };
    draw();
    dialog.querySelector("[data-testid=review-next]").focus();
  };
  const start = () => {
    delay = 0;
    replace(status, t("Loading…"));
    poll();
  };

  const nameOf = (seat) => {
    if (seatName) return seatName(seat);
    const names = review.answer.seats;
    return (names && names[seat]) || COMPASS_TEXT[compassPoint(seat, review.analysis.players)]();
  };
  const anchor = () => (me !== null && me !== undefined ? me : review.answer.you || 0);

  const stopAutoplay = () => {
    if (review && review.timer) clearInterval(review.timer);
    if (review) {
      review.timer = null;
      review.autoplay = false;
    }
  };
  const go = (step, { manual = true } = {}) => {
    if (!review) return;
    if (manual) stopAutoplay();
    review.step = Math.max(0, Math.min(step, review.analysis.plays.length));
    draw();
  };
  const toggleAutoplay = () => {
    if (!review) return;
    if (review.autoplay) {
      stopAutoplay();
    } else {
      if (review.step >= review.analysis.plays.length) review.step = 0;
      review.autoplay = true;
      review.timer = setInterval(() => {
        if (review.step >= review.analysis.plays.length) stopAutoplay();
        else review.step += 1;
        draw();
      }, AUTOPLAY_MS);
    }
    draw();
  };

  const draw = () => {
    const { analysis, step } = review;
    const n = analysis.players;
    const now = reviewAt(analysis, step);
    const lost = totals(analysis);
    const focus = now.focus;
    const pos = (seat) => positions(n)[relativeSeat(seat, anchor(), n)];
    const seats = Array.from({ length: n }, (_, seat) => {
      const shownHand = focus && focus.seat === seat ? focus.hand : now.hands[seat];
      return h("section", {
        class: `review-seat at-${pos(seat)}${focus && focus.seat === seat ? " focus" : ""}`,
        "data-testid": "review-seat", "data-seat": seat,
        "aria-label": t("{name}, {compass}", { name: nameOf(seat), compass: COMPASS_TEXT[compassPoint(seat, n)]() }),
      },
      h("h3", { class: "review-seat-name" }, nameOf(seat),
        h("span", { class: "review-compass" }, COMPASS_TEXT[compassPoint(seat, n)]())),
      handLines(shownHand, focus && focus.seat === seat ? focus : null),
      h("p", { class: `review-lost${lost[seat] > 0 ? " some" : ""}`, "data-testid": "review-lost" },
        t("Tricks lost: {n}", { n: valueText(lost[seat]) })));
    });
    const trick = h("section", { class: "review-trick", "aria-label": t("The trick") },
      now.trick.map((item) => h("span", {
        class: `review-trick-card at-${pos(item.seat)}${now.winner === item.seat ? " winner" : ""}${isRedCard(item.card) ? " red" : ""}`,
      },
      h("span", { class: "sr-only" }, t("{name}: {card}", { name: nameOf(item.seat), card: cardName(item.card) })),
      h("span", { "aria-hidden": "true" }, cardShort(item.card)))));
    // Drawn anew: the control that had the focus gets it back (keys keep working).
    const focused = content.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    replace(content,
      h("p", { class: "review-terms small" },
        analysis.objective === "fewest" ? t("Objective: fewest tricks") : t("Objective: most tricks"),
        " · ",
        analysis.trump ? t("Trump: {suit}", { suit: `${SUIT_SYMBOL[analysis.trump]} ${suitNameCapital(analysis.trump)}` }) : t("No trump")),
      h("div", { class: `review-board players-${n}`, "data-testid": "review-board" }, seats, trick),
      focusPanel(focus),
      controls(),
      mistakesPanel());
    if (focused) {
      const again = content.querySelector(`[data-testid="${focused}"]:not([disabled])`);
      (again || content.querySelector("[data-testid=review-autoplay]")).focus();
    }
  };

  const focusPanel = (focus) => {
    const panel = h("div", { class: `review-focus${focus && focus.mistake ? " mistake" : ""}`, "aria-live": "polite", "data-testid": "review-focus" });
    if (!focus) {
      panel.append(h("p", null, t("Every hand as card play began. Step through the play with Next or the → key.")));
      return panel;
    }
    panel.append(h("p", { class: "review-play" },
      t("Trick {k}: {name} played {card}.", { k: focus.trick + 1, name: nameOf(focus.seat), card: cardName(focus.card) })));
    const side = t("Tricks for this side from this trick to the end:");
    const best = focus.best_cards.map(cardShort).join(", ");
    panel.append(h("p", { class: "review-value", "data-testid": "review-value" },
      side, " ",
      h("strong", null, t("{n} with this card", { n: valueText(focus.played) })),
      focus.mistake || !focus.best_cards.includes(focus.card)
        ? [", ", t("{n} with the best ({cards})", { n: valueText(focus.best), cards: best })]
        : [" · ", t("the best card")]));
    if (focus.mistake) {
      panel.append(h("p", { class: "review-mistake", "data-testid": "review-mistake" },
        t("A mistake. Tricks lost: {n}", { n: valueText(focus.lost) })));
    }
    if (!focus.exact) {
      panel.append(h("p", { class: "muted small" },
        t("An estimate: this position cannot be solved exactly (hidden cards), so the values are averages over likely deals.")));
    }
    return panel;
  };

  const controls = () => {
    const total = review.analysis.plays.length;
    const button = (label, testid, onclick, extra = {}) =>
      h("button", { type: "button", class: "btn btn-small", "data-testid": testid, onclick, ...extra }, label);
    return h("div", { class: "review-controls", role: "group", "aria-label": t("Replay controls") },
      button("«", "review-first", () => go(0), { "aria-label": t("Start"), disabled: review.step === 0 }),
      button("◀◀", "review-prev-trick", () => go(trickStep(review.analysis, review.step, -1)),
        { "aria-label": t("Previous trick"), disabled: review.step === 0 }),
      button(["◀ ", t("Back")], "review-prev", () => go(review.step - 1), { disabled: review.step === 0 }),
      button(review.autoplay ? ["⏸ ", t("Pause")] : ["▶ ", t("Play")], "review-autoplay", () => toggleAutoplay(),
        { "aria-pressed": review.autoplay ? "true" : "false", class: "btn btn-small btn-primary" }),
      button([t("Next"), " ▶"], "review-next", () => go(review.step + 1), { disabled: review.step >= total }),
      button("▶▶", "review-next-trick", () => go(trickStep(review.analysis, review.step, 1)),
        { "aria-label": t("Next trick"), disabled: review.step >= total }),
      button("»", "review-last", () => go(total), { "aria-label": t("End"), disabled: review.step >= total }),
      h("span", { class: "review-count small", "data-testid": "review-count" }, t("Card {k} of {n}", { k: review.step, n: total })));
  };

  const mistakesPanel = () => {
    const list = mistakes(review.analysis);
    return h("section", { class: "review-mistakes", "data-testid": "review-mistakes" },
      h("h3", null, t("Mistakes")),
      list.length
        ? h("ul", null, list.map((m) => h("li", null,
          h("button", {
            type: "button", class: `btn btn-small btn-ghost${m.step === review.step ? " current" : ""}`,
            "aria-current": m.step === review.step ? "step" : null,
            onclick: () => go(m.step),
          }, t("Trick {k}: {name} played {card}, tricks lost: {n}", {
            k: m.trick + 1, name: nameOf(m.seat), card: cardShort(m.card), n: valueText(m.lost),
          })))))
        : h("p", { class: "muted" }, t("No mistakes: every card played was one of the best.")));
  };

  dialog.addEventListener("keydown", (event) => {
    if (!review || event.target.closest("select, input, textarea")) return;
    const moves = { ArrowRight: review.step + 1, ArrowLeft: review.step - 1, Home: 0, End: review.analysis.plays.length };
    if (event.key in moves) {
      go(moves[event.key]);
      event.preventDefault();
    }
  });
  dialog.addEventListener("close", () => {
    stopped = true;
    clearTimeout(pollTimer);
    stopAutoplay();
    dialog.remove();
    if (opener && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  start();
  return dialog;
}

function isRedCard(card) {
  return card[1] === "H" || card[1] === "D";
}

// A hand as a bridge diagram: one line per suit, high to low. For the seat in focus, its hand
// before the play: the card played and the best cards marked.
function handLines(cards, focus) {
  return h("div", { class: "review-hand" }, bySuit(cards).map(({ suit, cards: ranks }) => h("div", {
    class: `review-suit suit-${suit}`,
  },
  h("span", { class: "sr-only" },
    `${suitNameCapital(suit)}: ${ranks.length ? ranks.map((c) => rankName(c[0])).join(", ") : "—"}`),
  h("span", { class: "review-suit-symbol", "aria-hidden": "true" }, SUIT_SYMBOL[suit]),
  ranks.length
    ? ranks.map((card) => {
      const played = focus && card === focus.card;
      const best = focus && focus.best_cards.includes(card);
      return h("span", {
        class: `review-rank${played ? " played" : ""}${best ? " best" : ""}`, "aria-hidden": "true",
        "data-card": card,
      }, rankShort(card[0]));
    })
    : h("span", { class: "review-void", "aria-hidden": "true" }, "—"))));
}

// A "Review deal" button (or "Deal n" in a row of them): opens the review of `deal` of `tableId`.
export function reviewButton({ tableId, deal, me, seatName, numbered = false }) {
  return h("button", {
    type: "button", class: "btn btn-small", "data-testid": "review-deal", "data-deal": deal,
    "aria-label": numbered ? t("Review deal {n}", { n: deal + 1 }) : null,
    onclick: () => openReview({ tableId, deal, me, seatName }),
  }, numbered ? t("Deal {n}", { n: deal + 1 }) : t("Review deal"));
}
