// node --test: the language switch (i18n.js). Two quick choices whose catalogues arrive in the
// other order leave the page in the language chosen last.
import assert from "node:assert/strict";
import { test } from "node:test";

import { currentLanguage, initI18n, setLanguage, t } from "../../src/whist/web/js/i18n.js";

const CATALOGUES = {
  en: {},
  sv: { Lobby: "Lobbyn" },
  nb: { Lobby: "Lobbyen" },
};

// A fetch whose answers the test releases one by one, in the order it likes.
function slowFetch() {
  const pending = new Map();
  globalThis.fetch = (url) => new Promise((resolve) => {
    const code = url.match(/\/i18n\/(\w+)\.json$/)[1];
    pending.set(code, () => resolve({ ok: true, json: async () => CATALOGUES[code] }));
  });
  return async (code) => {
    pending.get(code)();
    pending.delete(code);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the page takes the answer in
  };
}

const stored = new Map();
globalThis.document = { documentElement: { lang: "" } };
globalThis.localStorage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) };
globalThis.navigator = { languages: ["en-GB"] };

test("the language chosen last wins, whichever catalogue arrives last", async () => {
  const answer = slowFetch();
  const start = initI18n([{ code: "en" }, { code: "sv" }, { code: "nb" }]);
  await answer("en");
  await start;
  const first = setLanguage("sv");
  const second = setLanguage("nb");
  await answer("nb");
  await answer("sv"); // the first choice's catalogue comes last
  await Promise.all([first, second]);
  assert.equal(currentLanguage(), "nb");
  assert.equal(document.documentElement.lang, "nb");
  assert.equal(t("Lobby"), "Lobbyen");
  assert.equal(stored.get("whist.lang"), "nb");
});

test("one choice in its turn applies as before", async () => {
  const answer = slowFetch();
  const choice = setLanguage("sv");
  await answer("sv");
  await choice;
  assert.equal(currentLanguage(), "sv");
  assert.equal(t("Lobby"), "Lobbyn");
  assert.equal(stored.get("whist.lang"), "sv");
});
