// Leaderboards, one per variant (GET /api/leaderboard/{variant}): the best-rated players with
// their rated matches and wins, and the bots' fixed ratings on the same scale.
import { get } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { botLevelName, errorText } from "./labels.js";
import { formatRating } from "./rating_chart.js";
import { session } from "./session.js";
import { variantList, variantName } from "./variants.js";

export async function mount(main, { variant }) {
  const keys = variantList().map((v) => v.key);
  const chosen = keys.includes(variant) ? variant : keys[0];
  const board = h("div", { class: "leaderboard-body", "aria-live": "polite" }, h("p", { class: "muted" }, "…"));
  const section = h("section", { class: "page leaderboard-page" },
    h("h1", null, t("Leaderboard")),
    h("nav", { class: "variant-tabs", "aria-label": t("Variants") },
      keys.map((key) => h("a", {
        href: `#/leaderboard/${encodeURIComponent(key)}`,
        class: "variant-tab",
        "data-testid": `leaderboard-${key}`,
        "aria-current": key === chosen ? "page" : null,
      }, variantName(key)))),
    board);
  main.append(section);

  try {
    const answer = await get(`/api/leaderboard/${encodeURIComponent(chosen)}`);
    replace(board, ...render(answer));
  } catch (err) {
    replace(board, h("p", { class: "form-error" }, errorText(err.code, err.message)));
  }
}

function render({ variant, players, bots }) {
  const me = session.me;
  const table = players.length
    ? h("table", { class: "leaderboard", "data-testid": "leaderboard" },
      h("caption", { class: "sr-only" }, t("Leaderboard: {variant}", { variant: variantName(variant) })),
      h("thead", null, h("tr", null,
        h("th", { scope: "col", class: "num" }, t("Rank")),
        h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col", class: "num" }, t("Rating")),
        h("th", { scope: "col", class: "num" }, t("Rated matches")),
        h("th", { scope: "col", class: "num" }, t("Wins")))),
      h("tbody", null, players.map((p, i) => {
        const mine = me && p.id === me.id;
        return h("tr", { class: mine ? "me" : null, "data-player": p.id },
          h("td", { class: "num" }, i + 1),
          h("th", { scope: "row" },
            h("a", { href: mine ? "#/profile" : `#/players/${p.id}` }, p.nickname),
            mine ? h("span", { class: "you-tag" }, " ", t("(you)")) : null),
          h("td", { class: "num rating" }, formatRating(p.rating)),
          h("td", { class: "num" }, p.matches),
          h("td", { class: "num" }, p.wins));
      })))
    : h("p", { class: "muted", "data-testid": "leaderboard-empty" }, t("Nobody is rated in this variant yet. Finish a match to be the first."));
  return [
    h("h2", null, variantName(variant)),
    table,
    h("p", { class: "small muted bot-scale", "data-testid": "bot-ratings" },
      t("For comparison, the bots: {list}.", {
        list: Object.entries(bots).map(([level, rating]) => `${botLevelName(level)} ${formatRating(rating)}`).join(" · "),
      })),
    h("p", { class: "small muted" }, t("A rating starts at 0 and grows as your finished matches show your strength. Leaving a match counts as a loss.")),
  ];
}
