// Translations. Every user-visible string goes through t("English text", {params}).
//
// The English text is the msgid (stable: change it only together with the catalogues).
// A catalogue is /i18n/<lang>.json: {"English text": "Translated text", ...}; "{name}"
// placeholders are filled from params after translation. A missing catalogue or entry
// falls back to the English text.

// The club's languages come from GET /api/config (initI18n); English until then.
const STORAGE_KEY = "whist.lang";

let codes = ["en"];

let language = "en";
let catalogue = {};
const listeners = new Set();

export function t(msgid, params) {
  let text = catalogue[msgid];
  if (typeof text !== "string" || text === "") text = msgid;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
    );
  }
  return text;
}

export function currentLanguage() {
  return language;
}

export function detectLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  if (stored && codes.includes(stored)) return stored;
  const wanted = navigator.languages && navigator.languages.length
    ? navigator.languages
    : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "no" || base === "nn") return "nb"; // Norwegian: the bokmål catalogue
    if (codes.includes(base)) return base;
  }
  return "en";
}

// The newest setLanguage call: a catalogue that arrives after a later choice's is dropped (two
// quick choices, the first one's fetch the slower: the page must end in the language chosen
// last).
let choice = 0;

export async function setLanguage(code, { remember = true } = {}) {
  if (!codes.includes(code)) code = "en";
  const mine = ++choice;
  let loaded = {};
  try {
    const response = await fetch(`/i18n/${code}.json`, { cache: "no-cache" });
    if (response.ok) {
      const data = await response.json();
      if (data && typeof data === "object") loaded = data;
    }
  } catch {
    loaded = {};
  }
  if (mine !== choice) return;
  language = code;
  catalogue = loaded;
  document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
  }
  for (const listener of listeners) listener(code);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// `languages`: [{code, name}] of GET /api/config.
export function initI18n(languages) {
  codes = languages.map((l) => l.code);
  return setLanguage(detectLanguage(), { remember: false });
}
