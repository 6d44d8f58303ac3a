// Profile: XP and level, card backs and faces (choose yours), four-colour deck, statistics.
import { get, put } from "./api.js";
import { CARD_BACKS, CARD_FACES, backImg, backName, cardImg, faceName, fourColour, setFourColour } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, variantName } from "./labels.js";
import { navigate, session, setMe, signOut, toast } from "./session.js";
import { statistics } from "./games.js";

const LOCK_SVG =
  '<svg viewBox="0 0 24 24" width="30" height="30"><rect x="4" y="10" width="16" height="12" rx="2" fill="#3a3a3a"/>' +
  '<path d="M8 10V7a4 4 0 0 1 8 0v3" fill="none" stroke="#3a3a3a" stroke-width="2.5"/>' +
  '<circle cx="12" cy="16" r="2" fill="#f2c94c"/></svg>';

// Level n is reached at 100·n·(n−1)/2 XP (src/whist/server/progress.py).
export function xpForLevel(level) {
  return (100 * level * (level - 1)) / 2;
}

export async function mount(main) {
  const section = h("section", { class: "page profile-page" });
  main.append(section);
  const galleries = h("div");
  const statsBox = h("section", { class: "card-panel", "data-testid": "stats" }, h("h2", null, t("Statistics")), h("p", { class: "muted" }, "…"));

  const choose = async (back, face) => {
    try {
      setMe(await put("/api/me/appearance", { card_back: back, card_face: face }));
      toast(t("Your cards are saved."));
      draw();
    } catch (err) {
      toast(errorText(err.code, err.message), "error");
    }
  };

  const tile = (kind, name, level, unlocked, selected, image, label) =>
    h("li", { class: `choice-tile${selected ? " selected" : ""}${unlocked ? "" : " locked"}` },
      h("button", {
        type: "button",
        class: "choice-btn",
        "data-testid": `${kind}-${name}`,
        "data-locked": String(!unlocked),
        "aria-pressed": String(selected),
        "aria-disabled": String(!unlocked),
        onclick: () => {
          if (!unlocked) {
            toast(t("Unlocks at level {n}.", { n: level }));
            return;
          }
          const me = session.me;
          if (kind === "back") choose(name, me.card_face);
          else choose(me.card_back, name);
        },
      },
      h("span", { class: "tile-image" }, image,
        unlocked ? null : h("span", { class: "lock", "aria-hidden": "true", html: LOCK_SVG })),
      h("span", { class: "tile-name" }, label),
      h("span", { class: "tile-state small" },
        selected ? t("In use") : unlocked ? t("Unlocked") : t("Locked: level {n}", { n: level }))));

  const draw = () => {
    const me = session.me;
    const level = me.level;
    const low = xpForLevel(level);
    const high = xpForLevel(level + 1);
    const progress = Math.max(0, Math.min(1, (me.xp - low) / (high - low)));
    const four = h("input", {
      type: "checkbox", id: "four-colour", checked: fourColour(), "data-testid": "four-colour",
      onchange: (e) => {
        setFourColour(e.target.checked);
        draw();
      },
    });
    replace(section,
      h("h1", null, t("Profile")),
      h("section", { class: "card-panel profile-head" },
        h("h2", null, me.nickname),
        h("p", null, me.registered ? t("Account: {login}", { login: me.login }) : t("Guest")),
        h("p", { class: "level", "data-testid": "level" }, t("Level {n}", { n: level }), " · ", t("{xp} XP", { xp: me.xp })),
        h("div", { class: "xp-bar", role: "progressbar", "aria-valuemin": low, "aria-valuemax": high, "aria-valuenow": me.xp, "aria-label": t("Progress to the next level") },
          h("span", { class: "xp-fill", style: { width: `${Math.round(progress * 100)}%` } })),
        h("p", { class: "small muted" }, t("{n} XP to level {level}. A won match gives 100 XP.", { n: high - me.xp, level: level + 1 })),
        h("button", { type: "button", class: "btn btn-small", onclick: async () => { await signOut(); navigate("#/signin"); } }, t("Sign out"))),
      h("section", { class: "card-panel" },
        h("h2", null, t("Card backs")),
        h("ul", { class: "choice-grid", "data-testid": "card-backs" },
          Object.entries(CARD_BACKS).map(([name, need]) =>
            tile("back", name, need, me.unlocked.card_backs.includes(name), me.card_back === name, backImg(name), backName(name))))),
      h("section", { class: "card-panel" },
        h("h2", null, t("Card faces")),
        h("ul", { class: "choice-grid", "data-testid": "card-faces" },
          Object.entries(CARD_FACES).map(([name, need]) =>
            tile("face", name, need, me.unlocked.card_faces.includes(name), me.card_face === name,
              h("span", { class: "face-pair" }, cardImg("QH", { face: name }), cardImg("9C", { face: name })), faceName(name))))),
      h("section", { class: "card-panel" },
        h("h2", null, t("Settings")),
        h("div", { class: "field-check" }, four, h("label", { for: "four-colour" }, t("Four-colour deck: spades black, hearts red, diamonds blue, clubs green"))),
        h("div", { class: "face-pair preview" }, ["AS", "KH", "QD", "JC"].map((c) => cardImg(c)))),
      statsBox,
      galleries);
  };
  draw();

  try {
    const stats = statistics(await get("/api/games"));
    replace(statsBox,
      h("h2", null, t("Statistics")),
      h("p", { "data-testid": "stats-total" }, t("Games played: {n}", { n: stats.played }), " · ", t("Games won: {n}", { n: stats.won }),
        stats.played ? ` · ${t("{p}% won", { p: Math.round((100 * stats.won) / stats.played) })}` : ""),
      Object.keys(stats.perVariant).length
        ? h("table", { class: "mini-table" },
          h("thead", null, h("tr", null, h("th", { scope: "col" }, t("Variant")), h("th", { scope: "col" }, t("Played")), h("th", { scope: "col" }, t("Won")))),
          h("tbody", null, Object.entries(stats.perVariant).map(([key, s]) =>
            h("tr", null, h("th", { scope: "row" }, variantName(key)), h("td", null, s.played), h("td", null, s.won)))))
        : h("p", { class: "muted" }, t("No finished games yet.")));
  } catch (err) {
    replace(statsBox, h("h2", null, t("Statistics")), h("p", { class: "form-error" }, errorText(err.code, err.message)));
  }

}
