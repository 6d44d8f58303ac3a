// Profile: XP and level, card backs and faces (choose yours), four-colour deck, statistics,
// ratings per variant with their history charts. Another player's profile (#/players/{id},
// from a leaderboard) shows their name, level and ratings.
import { get, put } from "./api.js";
import { backImg, backName, cardImg, faceName, fourColour, setFourColour } from "./cards.js";
import { config, levelProgress } from "./config.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./labels.js";
import { formatRating, ratingChartSVG } from "./rating_chart.js";
import { navigate, session, setMe, signOut, toast } from "./session.js";
import { settingsButton } from "./settings_dialog.js";
import { statistics } from "./games.js";
import { variantName } from "./variants.js";

const LOCK_SVG =
  '<svg viewBox="0 0 24 24" width="30" height="30"><rect x="4" y="10" width="16" height="12" rx="2" fill="#3a3a3a"/>' +
  '<path d="M8 10V7a4 4 0 0 1 8 0v3" fill="none" stroke="#3a3a3a" stroke-width="2.5"/>' +
  '<circle cx="12" cy="16" r="2" fill="#f2c94c"/></svg>';

export async function mount(main, { id } = {}) {
  if (id !== undefined && Number(id) !== session.me?.id) return mountPlayer(main, id);
  const section = h("section", { class: "page profile-page" });
  main.append(section);
  const galleries = h("div");
  const ratingsBox = h("section", { class: "card-panel ratings-panel", "data-testid": "ratings" }, h("h2", null, t("Ratings")), h("p", { class: "muted" }, "…"));
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
    const { low, high, fraction } = levelProgress(me.xp, level, config.xp.level_at);
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
          h("span", { class: "xp-fill", style: { width: `${Math.round(fraction * 100)}%` } })),
        high === null ? null : h("p", { class: "small muted" }, t("{n} XP to level {level}. A won match gives {win} XP.", { n: high - me.xp, level: level + 1, win: config.xp.win })),
        h("button", { type: "button", class: "btn btn-small", onclick: async () => { await signOut(); navigate("#/signin"); } }, t("Sign out"))),
      ratingsBox,
      h("section", { class: "card-panel" },
        h("h2", null, t("Card backs")),
        h("ul", { class: "choice-grid", "data-testid": "card-backs" },
          Object.entries(config.unlocks.card_backs).map(([name, need]) =>
            tile("back", name, need, me.unlocked.card_backs.includes(name), me.card_back === name, backImg(name), backName(name))))),
      h("section", { class: "card-panel" },
        h("h2", null, t("Card faces")),
        h("ul", { class: "choice-grid", "data-testid": "card-faces" },
          Object.entries(config.unlocks.card_faces).map(([name, need]) =>
            tile("face", name, need, me.unlocked.card_faces.includes(name), me.card_face === name,
              h("span", { class: "face-pair" }, cardImg("QH", { face: name }), cardImg("9C", { face: name })), faceName(name))))),
      h("section", { class: "card-panel" },
        h("div", { class: "panel-head" }, h("h2", null, t("Settings")), settingsButton()),
        h("div", { class: "field-check" }, four, h("label", { for: "four-colour" }, t("Four-colour deck: spades black, hearts red, diamonds blue, clubs green"))),
        h("div", { class: "face-pair preview" }, ["AS", "KH", "QD", "JC"].map((c) => cardImg(c)))),
      statsBox,
      galleries);
  };
  draw();

  loadRatings(ratingsBox, session.me.id);

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

async function mountPlayer(main, id) {
  const heading = h("h1", null, t("Player"));
  const about = h("p", { class: "muted" });
  const box = h("section", { class: "card-panel ratings-panel", "data-testid": "ratings" }, h("p", { class: "muted" }, "…"));
  main.append(h("section", { class: "page profile-page", "data-testid": "player-page" }, heading, about, box));
  const profile = await loadRatings(box, id);
  if (!profile) return;
  heading.textContent = profile.nickname;
  about.textContent = `${profile.registered ? t("Member") : t("Guest")} · ${t("Level {n}", { n: profile.level })}`;
}

// The player's rating, rated matches and wins per variant, each with its history chart.
// Returns the profile (null when it could not be read).
async function loadRatings(box, playerId) {
  const heading = h("div", { class: "panel-head" }, h("h2", null, t("Ratings")),
    h("a", { href: "#/leaderboard", class: "btn btn-small btn-ghost" }, t("Leaderboards")));
  let profile;
  try {
    profile = await get(`/api/players/${playerId}/profile`);
  } catch (err) {
    replace(box, heading, h("p", { class: "form-error" }, errorText(err.code, err.message)));
    return null;
  }
  if (!profile.variants.length) {
    replace(box, heading, h("p", { class: "muted" }, t("No rated matches yet: finish a match to get a rating.")));
    return profile;
  }
  const outcome = { win: t("won"), loss: t("lost"), draw: t("drawn") };
  // Each point with its match's number; when the history holds every rated match, the
  // chart starts where every player starts, at 0.
  const chartOf = (v) => {
    const first = v.matches - v.history.length + 1;
    const played = v.history.map((p, i) => ({ ...p, n: first + i }));
    return first === 1 ? [{ rating: 0, outcome: "start" }, ...played] : played;
  };
  replace(box, heading,
    h("table", { class: "mini-table ratings-table" },
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, t("Variant")),
        h("th", { scope: "col", class: "num" }, t("Rating")),
        h("th", { scope: "col", class: "num" }, t("Rated matches")),
        h("th", { scope: "col", class: "num" }, t("Wins")))),
      h("tbody", null, profile.variants.map((v) =>
        h("tr", { "data-variant": v.variant },
          h("th", { scope: "row" }, h("a", { href: `#/leaderboard/${encodeURIComponent(v.variant)}` }, variantName(v.variant))),
          h("td", { class: "num rating" }, formatRating(v.rating)),
          h("td", { class: "num" }, v.matches),
          h("td", { class: "num" }, v.wins))))),
    h("div", { class: "rating-charts" }, profile.variants.map((v) =>
      h("figure", { class: "rating-figure", "data-testid": `rating-chart-${v.variant}` },
        h("figcaption", null, variantName(v.variant), " · ", formatRating(v.rating)),
        h("div", {
          class: "chart-box",
          html: ratingChartSVG(chartOf(v), {
            label: t("Rating history: {variant}", { variant: variantName(v.variant) }),
            pointTitle: (p) => (p.outcome === "start"
              ? t("Start: rating {rating}", { rating: formatRating(p.rating) })
              : t("Match {n}: {result}, rating {rating}", { n: p.n, result: outcome[p.outcome], rating: formatRating(p.rating) })),
          }),
        })))),
    h("p", { class: "small muted" }, t("A rating starts at 0 and grows as your finished matches show your strength. Leaving a match counts as a loss.")));
  return profile;
}
