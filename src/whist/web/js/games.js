// My games: live, saved and finished matches; a finished match's score sheet and replay.
import { get } from "./api.js";
import { cardImg } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import {
  SUIT_SYMBOL, botLevelName, cardName, contractName, errorText, optionsSummary, seatNumber, suitNameCapital,
} from "./labels.js";
import { reviewButton } from "./review.js";
import { scoreSheetTable } from "./sheet.js";
import { positions, relativeSeat } from "./table/layout.js";
import { botName } from "./table/names.js";
import { variantName } from "./variants.js";

export function resultOf(game) {
  if (!game.over) return null;
  if (game.winner === null || game.winner === undefined) return "draw";
  if (game.you === null || game.you === undefined) return null;
  return game.winner === game.you % 2 ? "won" : "lost";
}

function resultText(result) {
  if (result === "won") return t("Won");
  if (result === "lost") return t("Lost");
  if (result === "draw") return t("Draw");
  return "";
}

function statusText(status) {
  switch (status) {
    case "open": return t("Waiting for players");
    case "playing": return t("In play");
    case "suspended": return t("Saved");
    case "finished": return t("Finished");
    case "abandoned": return t("Abandoned");
    default: return status;
  }
}

function names(game) {
  return game.seats.map((name, seat) => {
    if (seat === game.you) return t("You");
    const bot = /^bot \((\w+)\)$/i.exec(name || "");
    if (bot) return t("{name} ({level})", { name: botName(game.id, seat), level: botLevelName(bot[1]) });
    return name || seatNumber(seat);
  });
}

function sides(game) {
  const n = game.seats.length;
  const list = names(game);
  if (n === 2) return [list[0], list[1]];
  if (game.you !== null && game.you !== undefined) {
    return [0, 1].map((side) => (side === game.you % 2 ? t("Us") : t("Them")));
  }
  return [t("{a} & {b}", { a: list[0], b: list[2] }), t("{a} & {b}", { a: list[1], b: list[3] })];
}

function gameRow(game) {
  const result = resultOf(game);
  const list = names(game);
  const [a, b] = sides(game);
  const recordHref = `/api/games/${encodeURIComponent(game.id)}/record`;
  const actions = [];
  if (game.status === "suspended") {
    actions.push(h("a", { class: "btn btn-primary", href: `#/table/${encodeURIComponent(game.id)}`, "data-testid": "resume" }, t("Resume")));
  } else if (game.status === "playing" || game.status === "open") {
    actions.push(h("a", { class: "btn btn-primary", href: `#/table/${encodeURIComponent(game.id)}` }, t("Back to the table")));
  }
  actions.push(h("a", { class: "btn", href: `#/games/${encodeURIComponent(game.id)}`, "data-testid": "open-game" }, t("Score sheet and replay")));
  actions.push(h("a", { class: "btn btn-ghost", href: recordHref, download: `whist-${game.id}.json` }, t("Download record")));
  return h("li", { class: "table-row game-row", "data-testid": "game", "data-game": game.id, "data-status": game.status },
    h("div", { class: "table-row-main" },
      h("div", { class: "pill-row" },
        h("strong", null, variantName(game.variant)),
        h("span", { class: `status-pill status-${game.status}` }, statusText(game.status)),
        result ? h("span", { class: `result-pill result-${result}` }, resultText(result)) : null,
        game.hints_used ? h("span", { class: "hints-pill", "data-testid": "hints-used" }, t("Hints used")) : null),
      h("div", { class: "small" }, list.join(" · ")),
      h("div", { class: "small" }, t("Score: {a} {x} – {b} {y}", { a, x: game.scores[0], b, y: game.scores[1] })),
      h("div", { class: "muted small" }, optionsSummary(game.variant, game.options))),
    h("div", { class: "table-row-actions" }, actions));
}

export function statistics(games) {
  const finished = games.filter((g) => g.over && g.you !== null && g.you !== undefined);
  const won = finished.filter((g) => resultOf(g) === "won").length;
  const perVariant = {};
  for (const g of finished) {
    const entry = perVariant[g.variant] || (perVariant[g.variant] = { played: 0, won: 0 });
    entry.played += 1;
    if (resultOf(g) === "won") entry.won += 1;
  }
  return { played: finished.length, won, perVariant };
}

export async function mount(main) {
  const section = h("section", { class: "page games-page" }, h("h1", null, t("My games")));
  main.append(section);
  let games;
  try {
    games = await get("/api/games");
  } catch (err) {
    section.append(h("p", { class: "form-error" }, errorText(err.code, err.message)));
    return;
  }
  const groups = [
    [t("Saved and in play"), games.filter((g) => ["suspended", "playing", "open"].includes(g.status))],
    [t("Finished"), games.filter((g) => !["suspended", "playing", "open"].includes(g.status))],
  ];
  const stats = statistics(games);
  section.append(h("p", { class: "lead", "data-testid": "games-stats" }, t("Played: {n} · Won: {w}", { n: stats.played, w: stats.won })));
  for (const [title, list] of groups) {
    section.append(h("section", { class: "card-panel" },
      h("h2", null, title),
      list.length ? h("ul", { class: "table-list" }, list.map(gameRow)) : h("p", { class: "muted" }, t("None."))));
  }
}

// ------------------------------------------------------------ one game
export async function mountGame(main, params) {
  const section = h("section", { class: "page game-page" });
  main.append(section);
  let game;
  try {
    game = await get(`/api/games/${encodeURIComponent(params.id)}`);
  } catch (err) {
    section.append(h("h1", null, t("Game")), h("p", { class: "form-error" }, errorText(err.code, err.message)),
      h("a", { href: "#/games", class: "btn" }, t("Back to my games")));
    return;
  }
  const list = names(game);
  const seatName = (seat) => (seat === null || seat === undefined ? "—" : list[seat]);
  const contractText = (contract) => contractName(contract, seatName, game.you ?? null);
  const replay = game.replay;
  const rows = game.sheet.map((row, i) => ({
    index: row.deal,
    dealer: row.dealer,
    contract: row.contract,
    trump: replay.deals[i] ? replay.deals[i].trump : null,
    won: row.tricks,
    points: row.complete ? row.points : null,
    complete: row.complete,
  }));
  const result = resultOf(game);
  section.append(
    h("h1", null, t("{variant}: game {id}", { variant: variantName(game.variant), id: game.id })),
    h("p", { class: "lead" }, statusText(game.status), result ? ` · ${resultText(result)}` : "",
      " · ", t("Score: {a} {x} – {b} {y}", { a: sides(game)[0], x: game.scores[0], b: sides(game)[1], y: game.scores[1] })),
    h("p", { class: "muted small" }, optionsSummary(game.variant, game.options)),
    game.hints_used ? h("p", { class: "hints-used-note", "data-testid": "hints-used" }, t("Hints used: this match is not rated")) : null,
    h("div", { class: "button-row" },
      game.status === "suspended" ? h("a", { class: "btn btn-primary", href: `#/table/${encodeURIComponent(game.id)}` }, t("Resume")) : null,
      h("a", { class: "btn", href: `/api/games/${encodeURIComponent(game.id)}/record`, download: `whist-${game.id}.json`, "data-testid": "download-record" }, t("Download record")),
      h("a", { class: "btn btn-ghost", href: "#/games" }, t("Back to my games"))),
    h("section", { class: "card-panel" }, h("h2", null, t("Score sheet")),
      scoreSheetTable(rows, { sides: sides(game), seatName, contractText, over: game.over })),
    reviewPanel(game, rows, seatName),
    replayStepper(game, replay, seatName, contractText));
}

// "Review deal" for every finished deal: its hands and every card's value (the server
// analyses a deal the first time it is asked).
function reviewPanel(game, rows, seatName) {
  const done = rows.filter((row) => row.complete);
  if (!done.length || game.you === null || game.you === undefined) return null;
  return h("section", { class: "card-panel", "data-testid": "review-deals" },
    h("h2", null, t("Review a deal")),
    h("p", { class: "muted small" }, t("Every hand and every card played, with what each card was worth and the best alternative.")),
    h("div", { class: "button-row" }, done.map((row) =>
      reviewButton({ tableId: game.id, deal: row.index, me: game.you, seatName, numbered: true }))));
}

function replayStepper(game, replay, seatName, contractText) {
  const n = game.seats.length;
  const me = game.you === null || game.you === undefined ? 0 : game.you;
  const pos = (seat) => positions(n)[relativeSeat(seat, me, n)];
  const deals = replay.deals;
  const panel = h("section", { class: "card-panel replay", "data-testid": "replay" }, h("h2", null, t("Replay")));
  if (!deals.length) {
    panel.append(h("p", { class: "muted" }, t("No deals yet.")));
    return panel;
  }
  let dealIndex = deals.length - 1;
  let step = 0;
  const dealSelect = h("select", { "aria-label": t("Deal"), "data-testid": "replay-deal" },
    deals.map((d, i) => h("option", { value: i }, t("Deal {n}", { n: i + 1 }))));
  dealSelect.value = String(dealIndex);
  const slider = h("input", { type: "range", min: 0, value: 0, step: 1, "aria-label": t("Card"), "data-testid": "replay-slider" });
  const board = h("div", { class: "replay-board", "data-testid": "replay-board" });
  const caption = h("p", { class: "replay-caption", "aria-live": "polite", "data-testid": "replay-caption" });
  const plays = () => {
    const out = [];
    deals[dealIndex].tricks.forEach((trick, ti) => {
      trick.cards.forEach((card, i) => out.push({ card, seat: (trick.leader + i) % n, trick: ti }));
    });
    return out;
  };
  const draw = () => {
    const deal = deals[dealIndex];
    const sequence = plays();
    slider.max = String(sequence.length);
    step = Math.max(0, Math.min(step, sequence.length));
    slider.value = String(step);
    const won = [0, 0];
    let current = [];
    let finished = null;
    for (let i = 0; i < step; i += 1) {
      const item = sequence[i];
      const trick = deal.tricks[item.trick];
      current = sequence.filter((p) => p.trick === item.trick && sequence.indexOf(p) <= i);
      if (current.length === trick.cards.length) {
        finished = trick;
        won[trick.winner % 2] += 1;
      } else finished = null;
    }
    const area = h("div", { class: "trick replay-trick" },
      current.map((p) => h("div", { class: `trick-card at-${pos(p.seat)}${finished && finished.winner === p.seat ? " winner" : ""}` },
        cardImg(p.card, { alt: t("{name}: {card}", { name: seatName(p.seat), card: cardName(p.card) }) }))));
    const labels = Array.from({ length: n }, (_, seat) => h("div", { class: `replay-seat at-${pos(seat)}` }, seatName(seat)));
    replace(board, labels, area);
    const last = sequence[step - 1];
    let text;
    if (!last) text = t("Deal {n}: dealer {name}.", { n: dealIndex + 1, name: seatName(deal.dealer) });
    else {
      text = t("Trick {k}: {name} played {card}.", { k: last.trick + 1, name: seatName(last.seat), card: cardName(last.card) });
      if (finished) text += " " + t("{name} won the trick.", { name: seatName(finished.winner) });
    }
    caption.textContent = text;
    replace(info,
      h("span", null, contractText(deal.contract) || ""),
      h("span", null, deal.trump ? t("Trump: {suit}", { suit: `${SUIT_SYMBOL[deal.trump]} ${suitNameCapital(deal.trump)}` }) : t("No trump")),
      h("span", null, t("Tricks: {a} – {b}", { a: won[0], b: won[1] })),
      h("span", null, t("Card {k} of {n}", { k: step, n: sequence.length })));
  };
  const info = h("div", { class: "replay-info" });
  const go = (to) => {
    step = to;
    draw();
  };
  const controls = h("div", { class: "button-row replay-controls", role: "group", "aria-label": t("Replay controls") },
    h("button", { type: "button", class: "btn", onclick: () => go(0), "data-testid": "replay-first" }, "« ", t("Start")),
    h("button", { type: "button", class: "btn", onclick: () => go(step - 1), "data-testid": "replay-prev" }, "◀ ", t("Back")),
    h("button", { type: "button", class: "btn btn-primary", onclick: () => go(step + 1), "data-testid": "replay-next" }, t("Next"), " ▶"),
    h("button", { type: "button", class: "btn", onclick: () => go(plays().length), "data-testid": "replay-last" }, t("End"), " »"));
  dealSelect.addEventListener("change", () => {
    dealIndex = Number(dealSelect.value);
    step = 0;
    draw();
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  panel.addEventListener("keydown", (event) => {
    if (event.target === slider || event.target === dealSelect) return;
    if (event.key === "ArrowRight") {
      go(step + 1);
      event.preventDefault();
    } else if (event.key === "ArrowLeft") {
      go(step - 1);
      event.preventDefault();
    }
  });
  panel.append(h("div", { class: "replay-top" }, dealSelect, info), board, caption, slider, controls);
  draw();
  return panel;
}
