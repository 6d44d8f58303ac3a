// The rules of each variant, written for players.
//
// The full texts live in /rules/<lang>/<variant>.html (HTML fragments); a language
// without its own text falls back to English, and a variant without any text says so.
// The variants are the catalogue's (GET /api/variants).
import { h, replace } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { loadVariants, variantInfo, variantList, variantName } from "./variants.js";

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
  await loadVariants();
  const key = params.variant;
  const section = h("section", { class: "page rules-page" });
  main.append(section);
  const nav = h("nav", { class: "rules-nav", "aria-label": t("Variants") },
    h("ul", null, variantList().map(({ key: k }) => h("li", null,
      h("a", { href: `#/rules/${k}`, "aria-current": k === key ? "page" : null, "data-testid": `rules-${k}` }, variantName(k))))));
  if (!variantInfo(key)) {
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
    replace(body, h("p", { class: "notice small", "data-testid": "rules-fallback" }, t("There are no rules for this game yet.")));
  }
  body.append(h("p", { class: "small muted" },
    h("a", { href: `/rules/${lang}/${key}.html`, target: "_blank", rel: "noopener" }, t("Open the rules as a page"))));
}
