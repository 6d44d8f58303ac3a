// The rules of each variant, written for players.
//
// The full texts live in /rules/<lang>/<variant>.html (HTML fragments); a language
// without its own text falls back to English, and a variant without any text shows the
// short overview below.
import { h, replace } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { VARIANT_KEYS, variantName } from "./labels.js";

function overview(key) {
  switch (key) {
    case "classic":
      return [
        t("Four players in two partnerships, partners sitting opposite. Each player gets 13 cards; the dealer's last card is turned face up and its suit is trump."),
        t("Follow suit if you can; otherwise play any card. The highest trump wins the trick, or else the highest card of the suit led."),
        t("After 13 tricks the team with 7 or more scores one point for each trick over six. The first team to 5 points wins."),
      ];
    case "german":
      return [
        t("Two players with 13 cards each. The top card of the stock is turned face up and its suit is trump."),
        t("Stage 1: the winner of each trick takes the face-up stock card, the loser takes the next card unseen, and a new card is turned up. Play for the cards you want."),
        t("Stage 2: when the stock is empty, the last 13 tricks count. The player who takes more of them wins the deal."),
      ];
    case "plockwhist":
      return [
        t("Two players. After six cards each, both bid spel (to take many tricks) or pass (to take few)."),
        t("Then seven more cards each, and the game goes on like German Whist with a stock, without trump. Only the tricks of the second stage count."),
        t("A successful spel scores the tricks over six; a failed one gives the opponent double. In a pass game the player with fewer tricks scores."),
      ];
    case "japanese":
      return [
        t("Two players, each with ten face-down table cards, ten face-up cards on top of them, and six cards in hand."),
        t("The non-dealer looks at both layouts and chooses trump. The first trick is played with face-up table cards only; then your hand joins in."),
        t("When a face-up card is played, the card below it is turned up. The player with more of the 26 tricks scores the tricks over 13."),
      ];
    case "minnesota":
      return [
        t("Four players in two partnerships, no trump. After the deal everyone secretly chooses high (to take tricks) or low (to avoid them)."),
        t("The choices are revealed one by one from the dealer's left; the first high makes the deal a high game for that player's team. Four lows make a low game."),
        t("High: the team with 7 or more tricks scores the tricks over six. Low: the team with fewer tricks scores. The first team to 13 wins."),
      ];
    case "swedish":
      return [
        t("Four players in two partnerships, no trump. Everyone secretly picks a bottom card: a red card bids spel, a black card bids pass."),
        t("The bottom cards are shown one by one from the dealer's left; the first red card makes its player the declarer. Four black cards make a nollspel."),
        t("Spel: the declaring team with 7 or more tricks scores the tricks over six, or the opponents score double. Nollspel: the team with fewer tricks scores."),
      ];
    default:
      return [t("There are no rules for this game yet.")];
  }
}

async function fetchRules(lang, key) {
  try {
    const response = await fetch(`/rules/${lang}/${key}.html`, { cache: "no-cache" });
    const type = response.headers.get("content-type") || "";
    if (response.ok && type.includes("html")) return await response.text();
  } catch {
    /* fall through */
  }
  return null;
}

export async function mount(main, params) {
  const key = params.variant;
  const section = h("section", { class: "page rules-page" });
  main.append(section);
  const nav = h("nav", { class: "rules-nav", "aria-label": t("Variants") },
    h("ul", null, VARIANT_KEYS.map((k) => h("li", null,
      h("a", { href: `#/rules/${k}`, "aria-current": k === key ? "page" : null, "data-testid": `rules-${k}` }, variantName(k))))));
  if (!key || !VARIANT_KEYS.includes(key)) {
    replace(section,
      h("h1", null, t("Rules")),
      h("p", { class: "lead" }, t("Choose a game to read its rules.")),
      nav);
    return;
  }
  const lang = currentLanguage();
  const body = h("div", { class: "rules-body card-panel", "data-testid": "rules-body" }, h("p", { class: "muted" }, "…"));
  replace(section, h("h1", null, t("Rules: {variant}", { variant: variantName(key) })), nav, body);
  let html = await fetchRules(lang, key);
  let usedLang = lang;
  if (!html && lang !== "en") {
    html = await fetchRules("en", key);
    usedLang = "en";
  }
  if (html) {
    body.innerHTML = html;
    if (usedLang !== lang) {
      body.prepend(h("p", { class: "notice small" }, t("These rules are not translated yet; here they are in English.")));
    }
    body.setAttribute("lang", usedLang);
  } else {
    replace(body,
      h("p", { class: "notice small", "data-testid": "rules-fallback" }, t("The full rules of this game are not written yet. Here is a short overview.")),
      overview(key).map((para) => h("p", null, para)));
  }
  body.append(h("p", { class: "small muted" },
    h("a", { href: `/rules/${lang}/${key}.html`, target: "_blank", rel: "noopener" }, t("Open the rules as a page"))));
}
