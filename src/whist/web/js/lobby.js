// The lobby: quick play, open tables, and the create-table form with every host option.
import { get, post } from "./api.js";
import { config } from "./config.js";
import { $all, h, replace } from "./dom.js";
import { t } from "./i18n.js";
import {
  botLevelName, errorText, optionLabel, optionValueLabel, optionsSummary, presetName,
  relativeName, seatNumber,
} from "./labels.js";
import { navigate, session, toast } from "./session.js";
import { botName } from "./table/names.js";
import { loadVariants, variantName } from "./variants.js";

export function rememberInvite(tableId, code) {
  try {
    sessionStorage.setItem(`whist.invite.${tableId}`, code);
  } catch {
    /* ignore */
  }
}

export function inviteUrl(code) {
  return `${location.origin}/#/invite/${encodeURIComponent(code)}`;
}

// The club's move clock (GET /api/config), in whole seconds.
function clockSeconds() {
  return Math.round(config.clock_seconds);
}

// ------------------------------------------------------------- option input
function optionControl(variant, spec) {
  const id = `opt-${variant.key}-${spec.name}`;
  const label = optionLabel(spec.name, variant.facts);
  // Help texts come in English from GET /api/variants; they are msgids of the catalogue.
  const help = spec.help ? h("span", { class: "field-hint" }, t(spec.help)) : null;
  if (spec.kind === "bool") {
    // A switch with its label beside it: a yes/no option's help only repeats the label.
    const input = h("input", { type: "checkbox", role: "switch", class: "switch-input", id, name: spec.name, checked: !!spec.default, "data-option": spec.name, "data-kind": "bool" });
    return h("div", { class: "field switch-field" }, h("label", { for: id, class: "switch-label" }, label), input);
  }
  if (spec.kind === "count") {
    const input = h("input", { type: "number", id, name: spec.name, min: 1, max: 999, step: 1, value: spec.default, required: true, "data-option": spec.name, "data-kind": "count", inputmode: "numeric" });
    return h("div", { class: "field" }, h("label", { for: id, class: "field-label" }, label), input, help);
  }
  if (spec.kind === "match") {
    const [defaultForm, defaultNumber] = String(spec.default).split(":");
    const number = h("input", { type: "number", min: 1, max: 999, step: 1, value: defaultNumber || 13, "aria-label": t("Number"), class: "match-number", "data-match-number": spec.name, inputmode: "numeric" });
    const select = h("select", { id, name: spec.name, "data-option": spec.name, "data-kind": "match" },
      spec.choices.map((choice) => h("option", { value: choice, selected: choice.split(":")[0] === defaultForm }, optionValueLabel(spec.name, choice))));
    const sync = () => {
      number.hidden = !select.value.endsWith(":N");
    };
    select.addEventListener("change", sync);
    sync();
    return h("div", { class: "field" }, h("label", { for: id, class: "field-label" }, label), h("div", { class: "match-input" }, select, number), help);
  }
  const select = h("select", { id, name: spec.name, "data-option": spec.name, "data-kind": "choice" },
    spec.choices.map((choice) => h("option", { value: choice, selected: choice === spec.default }, optionValueLabel(spec.name, choice))));
  return h("div", { class: "field" }, h("label", { for: id, class: "field-label" }, label), select, help);
}

function setOption(container, name, value) {
  const input = container.querySelector(`[data-option="${name}"]`);
  if (!input) return;
  if (input.dataset.kind === "bool") input.checked = !!value;
  else if (input.dataset.kind === "match") {
    const [form, number] = String(value).split(":");
    const choice = Array.from(input.options).find((o) => o.value.split(":")[0] === form);
    if (choice) input.value = choice.value;
    const numberInput = container.querySelector(`[data-match-number="${name}"]`);
    if (numberInput && number) numberInput.value = number;
    input.dispatchEvent(new Event("change"));
  } else input.value = value;
}

function readOptions(container) {
  const options = {};
  for (const input of $all("[data-option]", container)) {
    const name = input.dataset.option;
    if (input.dataset.kind === "bool") options[name] = input.checked;
    else if (input.dataset.kind === "count") options[name] = Number(input.value);
    else if (input.dataset.kind === "match") {
      const number = container.querySelector(`[data-match-number="${name}"]`);
      options[name] = input.value.endsWith(":N") ? input.value.replace("N", String(Number(number.value) || 1)) : input.value;
    } else options[name] = input.value;
  }
  return options;
}

// ------------------------------------------------------------ create form
function createForm(variants) {
  const playable = variants.variants;
  const variantSelect = h("select", { id: "create-variant", name: "variant", "data-testid": "create-variant" },
    playable.map((v) => h("option", { value: v.key }, `${variantName(v.key)} (${t("{n} players", { n: v.players })})`)),
    Object.entries(variants.unavailable || {}).map(([key, info]) => h("option", { value: key, disabled: true }, `${t(info.title)} — ${t("not available")}`)));
  const optionsBox = h("div", { class: "options-box", "data-testid": "create-options" });
  const seatsBox = h("div", { class: "seats-box" });
  const error = h("p", { class: "form-error", role: "alert" });
  const clockYes = h("input", { type: "radio", name: "clock", value: "on", id: "clock-on", checked: true });
  const clockNo = h("input", { type: "radio", name: "clock", value: "none", id: "clock-none" });
  const pub = h("input", { type: "radio", name: "visibility", value: "public", id: "vis-public", checked: true });
  const priv = h("input", { type: "radio", name: "visibility", value: "private", id: "vis-private", "data-testid": "create-private" });
  // Hints (issue 20): set here or never; they work only while the host is the one person seated.
  const hints = h("input", { type: "checkbox", role: "switch", class: "switch-input", id: "create-hints", "data-testid": "create-hints", "aria-describedby": "create-hints-help" });

  const renderVariant = () => {
    const variant = playable.find((v) => v.key === variantSelect.value) || playable[0];
    const presets = Object.keys(variant.presets || {});
    const presetSelect = presets.length
      ? h("select", { id: "create-preset", "data-testid": "create-preset" },
        h("option", { value: "" }, t("Custom")),
        presets.map((p) => h("option", { value: p }, presetName(p))))
      : null;
    replace(optionsBox,
      presetSelect ? h("div", { class: "field" }, h("label", { for: "create-preset", class: "field-label" }, t("Preset")), presetSelect) : null,
      variant.options.map((spec) => optionControl(variant, spec)));
    if (presetSelect) {
      presetSelect.addEventListener("change", () => {
        for (const spec of variant.options) setOption(optionsBox, spec.name, spec.default);
        const preset = variant.presets[presetSelect.value] || {};
        for (const [name, value] of Object.entries(preset)) setOption(optionsBox, name, value);
      });
    }
    // Seats: where the host sits, and who plays each other seat.
    const n = variant.players;
    const hostSelect = h("select", { id: "create-seat", "data-testid": "create-seat" },
      Array.from({ length: n }, (_, s) => h("option", { value: s }, seatNumber(s))));
    const others = h("div", { class: "other-seats" });
    const renderOthers = () => {
      const host = Number(hostSelect.value);
      replace(others, Array.from({ length: n - 1 }, (_, i) => {
        const seat = (host + i + 1) % n;
        const rel = i + 1;
        const id = `create-bot-${seat}`;
        return h("div", { class: "field" },
          h("label", { for: id, class: "field-label" }, `${relativeName(rel, n)} (${seatNumber(seat)})`),
          h("select", { id, "data-seat": seat, "data-testid": `create-bot-${rel}` },
            h("option", { value: "human" }, t("A person")),
            config.levels.map((level) =>
              h("option", { value: level, selected: level === "medium" }, t("Bot: {level}", { level: botLevelName(level) })))));
      }));
    };
    hostSelect.addEventListener("change", renderOthers);
    renderOthers();
    replace(seatsBox,
      h("div", { class: "field" }, h("label", { for: "create-seat", class: "field-label" }, t("Your seat")), hostSelect),
      others);
  };
  variantSelect.addEventListener("change", renderVariant);
  renderVariant();

  const submit = h("button", { type: "submit", class: "btn btn-primary", "data-testid": "create-submit" }, t("Create the table"));
  const form = h("form", {
    class: "card-panel create-form",
    "data-testid": "create-form",
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      submit.disabled = true;
      try {
        const bots = {};
        for (const select of $all("select[data-seat]", seatsBox)) {
          if (select.value !== "human") bots[select.dataset.seat] = select.value;
        }
        const body = {
          variant: variantSelect.value,
          options: readOptions(optionsBox),
          clock: clockYes.checked,
          private: priv.checked,
          seat: Number(seatsBox.querySelector("#create-seat").value),
          bots,
          hints: hints.checked,
        };
        const info = await post("/api/tables", body);
        if (info.invite) rememberInvite(info.id, info.invite);
        navigate(`#/table/${encodeURIComponent(info.id)}`);
      } catch (err) {
        error.textContent = errorText(err.code, err.message);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h("h2", null, t("Create a table")),
  h("div", { class: "field" }, h("label", { for: "create-variant", class: "field-label" }, t("Variant")), variantSelect,
    h("a", { class: "field-hint", href: "#/rules", onclick: (e) => { e.preventDefault(); navigate(`#/rules/${variantSelect.value}`); } }, t("Read the rules"))),
  h("fieldset", { class: "fieldset" }, h("legend", null, t("Options")), optionsBox),
  h("fieldset", { class: "fieldset" }, h("legend", null, t("Clock")),
    h("div", { class: "field-check" }, clockYes, h("label", { for: "clock-on" }, t("{n} seconds per move", { n: clockSeconds() }))),
    h("div", { class: "field-check" }, clockNo, h("label", { for: "clock-none" }, t("Unlimited time")))),
  h("fieldset", { class: "fieldset" }, h("legend", null, t("Who may join")),
    h("div", { class: "field-check" }, pub, h("label", { for: "vis-public" }, t("Public: listed in the lobby"))),
    h("div", { class: "field-check" }, priv, h("label", { for: "vis-private" }, t("Private: only with the invitation link")))),
  h("fieldset", { class: "fieldset" }, h("legend", null, t("Players")), seatsBox,
    h("div", { class: "field switch-field" }, h("label", { for: "create-hints", class: "switch-label" }, t("Allow hints")), hints),
    h("p", { class: "field-hint", id: "create-hints-help" },
      t("Practice: a Hint button shows MASTER's choice while you are the only person at the table. A match with hints is not rated."))),
  error,
  submit);
  return form;
}

// ------------------------------------------------------------ open tables
function seatText(seat, tableId) {
  if (seat.kind === "empty") return t("free");
  if (seat.kind === "bot") {
    return t("{name} ({level})", { name: botName(tableId, seat.seat), level: botLevelName(seat.bot) });
  }
  return seat.nickname || t("Player");
}

function tableRow(info) {
  const join = async () => {
    try {
      const result = await post(`/api/tables/${encodeURIComponent(info.id)}/join`, { seat: null });
      navigate(`#/table/${encodeURIComponent(result.id)}`);
    } catch (err) {
      toast(errorText(err.code, err.message), "error");
    }
  };
  return h("li", { class: "table-row", "data-testid": "open-table", "data-table": info.id },
    h("div", { class: "table-row-main" },
      h("strong", null, variantName(info.variant)),
      h("span", { class: "muted" }, info.clock ? t("{n} s clock", { n: clockSeconds() }) : t("no clock")),
      h("div", { class: "muted small" }, optionsSummary(info.variant, info.options)),
      h("ul", { class: "seat-list" }, info.seats.map((s) => h("li", { class: `seat-chip seat-${s.kind}` }, `${seatNumber(s.seat)}: ${seatText(s, info.id)}`)))),
    h("div", { class: "table-row-actions" },
      h("button", { type: "button", class: "btn btn-primary", onclick: join, "data-testid": "join-table" }, t("Join")),
      h("a", { class: "btn btn-ghost", href: `#/table/${encodeURIComponent(info.id)}` }, t("Watch"))));
}

export async function mount(main) {
  const variants = await loadVariants();
  const list = h("ul", { class: "table-list", "data-testid": "open-tables", "aria-live": "polite" });
  const quickVariant = h("select", { id: "quick-variant", "data-testid": "quick-variant" },
    h("option", { value: "" }, t("Any variant")),
    variants.variants.map((v) => h("option", { value: v.key }, variantName(v.key))));
  const quickButton = h("button", {
    type: "button", class: "btn btn-primary btn-big", "data-testid": "quick-play",
    onclick: async () => {
      quickButton.disabled = true;
      try {
        const body = quickVariant.value ? { variant: quickVariant.value } : {};
        const result = await post("/api/quickplay", body);
        navigate(`#/table/${encodeURIComponent(result.id)}`);
      } catch (err) {
        toast(errorText(err.code, err.message), "error");
      } finally {
        quickButton.disabled = false;
      }
    },
  }, t("Quick play"));

  let stopped = false;
  const refresh = async () => {
    try {
      const tables = await get("/api/tables");
      if (stopped) return;
      replace(list, tables.length ? tables.map(tableRow) : h("li", { class: "muted empty" }, t("No open tables right now. Create one, or use quick play.")));
    } catch (err) {
      if (!stopped) replace(list, h("li", { class: "form-error" }, errorText(err.code, err.message)));
    }
  };
  await refresh();
  const timer = setInterval(refresh, 5000);

  main.append(
    h("section", { class: "page lobby-page" },
      h("h1", null, t("Lobby")),
      h("p", { class: "lead" }, t("Hello, {name}!", { name: session.me.nickname })),
      h("div", { class: "lobby-grid" },
        h("div", { class: "lobby-col" },
          h("section", { class: "card-panel quick-panel" },
            h("h2", null, t("Quick play")),
            h("p", { class: "muted" }, t("Join a table that is waiting for a player, or start one against computer players.")),
            h("div", { class: "field" }, h("label", { for: "quick-variant", class: "field-label" }, t("Variant")), quickVariant),
            quickButton),
          h("section", { class: "card-panel" },
            h("div", { class: "panel-head" },
              h("h2", null, t("Open tables")),
              h("button", { type: "button", class: "btn btn-small btn-ghost", onclick: refresh }, t("Refresh"))),
            list)),
        h("div", { class: "lobby-col" }, createForm(variants)))),
  );
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
