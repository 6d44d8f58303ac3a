// The page: header, hash routes, and the views they mount.
import { h, replace } from "./dom.js";
import { config, loadConfig } from "./config.js";
import { currentLanguage, initI18n, onLanguageChange, setLanguage, t } from "./i18n.js";
import { fourColour, onAppearanceChange } from "./cards.js";
import { loadMe, navigate, onMeChange, session, signOut } from "./session.js";
import { loadVariants } from "./variants.js";

const views = {
  signin: () => import("./signin.js"),
  lobby: () => import("./lobby.js"),
  table: () => import("./table.js"),
  invite: () => import("./invite.js"),
  games: () => import("./games.js"),
  game: () => import("./games.js"),
  profile: () => import("./profile.js"),
  rules: () => import("./rules.js"),
  leaderboard: () => import("./leaderboard.js"),
  player: () => import("./profile.js"),
};

// path pattern -> [view, needs sign-in]
function parse(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const [head, arg] = parts;
  switch (head) {
    case undefined:
    case "lobby": return { view: "lobby", auth: true, params: {} };
    case "signin": return { view: "signin", auth: false, params: {} };
    case "table": return { view: "table", auth: false, params: { id: arg } };
    case "invite": return { view: "invite", auth: true, params: { code: arg } };
    case "games": return arg ? { view: "game", auth: true, params: { id: arg } } : { view: "games", auth: true, params: {} };
    case "profile": return { view: "profile", auth: true, params: {} };
    case "rules": return { view: "rules", auth: false, params: { variant: arg } };
    case "leaderboard": return { view: "leaderboard", auth: false, params: { variant: arg } };
    case "players": return { view: "player", auth: false, params: { id: arg } };
    default: return { view: "lobby", auth: true, params: {} };
  }
}

let mounted = null; // {unmount, relabel} of the current view
let routeToken = 0;

async function route() {
  const token = ++routeToken;
  const main = document.getElementById("main");
  const target = parse(location.hash);
  if (mounted && mounted.unmount) {
    try {
      mounted.unmount();
    } catch (err) {
      console.error(err);
    }
  }
  mounted = null;
  let view = target.view;
  let params = target.params;
  if (target.auth && !session.me) {
    params = { next: location.hash || "#/lobby" };
    view = "signin";
  }
  const module = await views[view]();
  if (token !== routeToken) return;
  replace(main);
  main.dataset.view = view;
  const mountFn = view === "game" ? module.mountGame : module.mount;
  const result = await mountFn(main, params);
  mounted = typeof result === "function" ? { unmount: result } : result || null;
  updateNav();
  const heading = main.querySelector("h1");
  if (heading && document.activeElement === document.body) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
}

// ------------------------------------------------------------------ header
function renderHeader() {
  const header = document.getElementById("site-header");
  const me = session.me;
  const link = (hash, text, name) =>
    h("a", { href: hash, class: "nav-link", "data-nav": name }, text);
  const languageSelect = h(
    "select",
    {
      id: "language",
      class: "language-switcher",
      "data-testid": "language-switcher",
      "aria-label": t("Language"),
      onchange: async (e) => {
        await setLanguage(e.target.value);
      },
    },
    config.languages.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === currentLanguage() }, l.name)),
  );
  replace(
    header,
    // (the name is hidden on a phone; the link keeps it for a screen reader)
    h("a", { class: "brand", href: "#/lobby", "aria-label": t("Whist Club") },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♥"),
      h("span", { class: "brand-name" }, t("Whist Club"))),
    h("nav", { class: "site-nav", "aria-label": t("Main") },
      me ? [
        link("#/lobby", t("Lobby"), "lobby"),
        link("#/games", t("My games"), "games"),
        link("#/profile", t("Profile"), "profile"),
      ] : null,
      link("#/leaderboard", t("Leaderboard"), "leaderboard"),
      link("#/rules", t("Rules"), "rules")),
    h("div", { class: "header-tools" },
      h("label", { class: "language-label" },
        h("span", { class: "sr-only" }, t("Language")),
        languageSelect),
      me
        ? [
          h("span", { class: "who", "data-testid": "who" }, me.nickname,
            h("span", { class: "who-level" }, t("Level {n}", { n: me.level }))),
          h("button", {
            type: "button", class: "btn btn-small btn-ghost", "data-testid": "sign-out",
            onclick: async () => {
              await signOut();
              navigate("#/signin");
            },
          }, t("Sign out")),
        ]
        : h("a", { href: "#/signin", class: "btn btn-small" }, t("Sign in"))),
  );
  updateNav();
  const skip = document.querySelector("[data-skip]");
  if (skip) skip.textContent = t("Skip to content");
  document.title = t("Whist Club");
}

function updateNav() {
  const current = parse(location.hash).view;
  for (const a of document.querySelectorAll(".nav-link")) {
    const on = a.dataset.nav === current || (current === "game" && a.dataset.nav === "games");
    if (on) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

async function safeRoute() {
  try {
    await route();
  } catch (err) {
    console.error(err);
    const main = document.getElementById("main");
    replace(main, h("section", { class: "page" },
      h("h1", null, t("Something went wrong")),
      h("p", { class: "form-error" }, t("The page could not be shown. Please reload.")),
      h("button", { type: "button", class: "btn", onclick: () => location.reload() }, t("Reload"))));
  }
}

// -------------------------------------------------------------------- boot
function applyDeckClass() {
  document.documentElement.classList.toggle("four-colour", fourColour());
}

async function boot() {
  applyDeckClass();
  onAppearanceChange(applyDeckClass);
  // The club's set-up first: the languages, tracks and levels every view reads.
  await loadConfig();
  await initI18n(config.languages);
  await Promise.all([loadMe(), loadVariants().catch(() => null)]);
  renderHeader();
  onMeChange(renderHeader);
  onLanguageChange(() => {
    renderHeader();
    // A view that can relabel itself keeps its state (the table keeps its socket).
    if (mounted && mounted.relabel) mounted.relabel();
    else safeRoute();
  });
  window.addEventListener("hashchange", safeRoute);
  await safeRoute();
}

boot().catch((err) => {
  console.error(err);
  const main = document.getElementById("main");
  replace(main, h("p", { class: "error" }, t("The page could not start. Please reload.")));
});
