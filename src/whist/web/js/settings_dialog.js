// The settings dialog (the gear on the table's toolbar and on the profile page): sound,
// animation speed, card size, hand order, auto-play of a forced card, pre-selection. Saved on
// the server for the player (settings.js); a refusal is shown in the dialog and nothing changes.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./labels.js";
import { toast } from "./session.js";
import { CHOICES, loadSettings, saveSettings, settings } from "./settings.js";

function choiceName(key, value) {
  switch (`${key}:${value}`) {
    case "animation:off": return t("Off");
    case "animation:fast": return t("Fast");
    case "animation:normal": return t("Normal");
    case "animation:slow": return t("Slow");
    case "card_size:small": return t("Small");
    case "card_size:normal": return t("Normal");
    case "card_size:large": return t("Large");
    case "hand_order:alternate": return t("Colours alternating (♠ ♥ ♣ ♦), high to low");
    case "hand_order:suits": return t("Suits in order (♣ ♦ ♥ ♠), low to high");
    case "hand_order:suits_desc": return t("Suits in order (♠ ♥ ♦ ♣), high to low");
    default: return value;
  }
}

let box = null;

function select(key, label) {
  return h("div", { class: "field" },
    h("label", { for: `setting-${key}` }, label),
    h("select", { id: `setting-${key}`, name: key, "data-testid": `setting-${key}` },
      CHOICES[key].map((value) => h("option", { value, selected: settings[key] === value }, choiceName(key, value)))));
}

function check(key, label, hint) {
  return h("div", { class: "field-check setting-check" },
    h("input", { type: "checkbox", id: `setting-${key}`, name: key, checked: settings[key], "data-testid": `setting-${key}`, "aria-describedby": `setting-${key}-hint` }),
    h("label", { for: `setting-${key}` }, label),
    h("span", { id: `setting-${key}-hint`, class: "small muted setting-hint" }, hint));
}

function fill() {
  const error = h("p", { class: "form-error", role: "alert", "data-testid": "settings-error" });
  const form = h("form", {
    method: "dialog",
    onsubmit: async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const chosen = {
        sound: data.has("sound"), auto_play: data.has("auto_play"), preselect: data.has("preselect"),
        animation: data.get("animation"), card_size: data.get("card_size"), hand_order: data.get("hand_order"),
      };
      try {
        await saveSettings(chosen);
        box.close();
        toast(t("Your settings are saved."));
      } catch (err) {
        error.textContent = errorText(err.code, err.message);
      }
    },
  },
  check("sound", t("Sound"), t("A short sound for a card played, a trick won and your turn.")),
  select("animation", t("Animation speed")),
  select("card_size", t("Card size")),
  select("hand_order", t("Hand order")),
  check("auto_play", t("Play a forced card by itself"), t("When only one card may be played, it is played after a short pause.")),
  check("preselect", t("Pre-select your card"), t("Click a card before your turn: it is played when your turn comes, if it still may be. Click it again to cancel.")),
  error,
  h("div", { class: "button-row" },
    h("button", { type: "button", class: "btn", onclick: () => box.close() }, t("Cancel")),
    h("button", { type: "submit", class: "btn btn-primary", "data-testid": "settings-save" }, t("Save"))));
  replace(box, h("div", { class: "dialog-body" }, h("h2", { id: "settings-title" }, t("Settings")), form));
}

export async function openSettings() {
  if (!box) {
    box = h("dialog", { class: "dialog settings-dialog", "data-testid": "settings-dialog", "aria-labelledby": "settings-title" });
    document.body.append(box);
  }
  await loadSettings();
  fill();
  if (!box.open) box.showModal();
}

// The gear that opens the dialog.
export function settingsButton() {
  return h("button", {
    type: "button", class: "btn btn-small settings-btn", "data-testid": "settings-button",
    "aria-haspopup": "dialog", onclick: () => openSettings(),
  }, h("span", { "aria-hidden": "true" }, "⚙ "), t("Settings"));
}
