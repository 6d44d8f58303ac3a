// Sign in: as a guest, with an account, or by creating one.
import { post } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./labels.js";
import { navigate, session, setMe } from "./session.js";

function field(label, input, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, hint ? h("span", { class: "field-hint" }, hint) : null);
}

function form(title, testid, fields, submitText, onsubmit) {
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn btn-primary" }, submitText);
  const el = h("form", {
    class: "card-panel auth-form",
    "data-testid": testid,
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      submit.disabled = true;
      try {
        await onsubmit();
      } catch (err) {
        error.textContent = errorText(err.code, err.message);
      } finally {
        submit.disabled = false;
      }
    },
  }, h("h2", null, title), fields, error, submit);
  return el;
}

export function mount(main, params) {
  const next = params.next && params.next !== "#/signin" ? params.next : "#/lobby";
  const done = (me) => {
    setMe(me);
    navigate(next);
  };
  const guestName = h("input", { name: "nickname", required: true, maxlength: 40, autocomplete: "nickname", value: "" });
  const loginName = h("input", { name: "login", required: true, maxlength: 40, autocomplete: "username" });
  const loginPassword = h("input", { name: "password", type: "password", required: true, maxlength: 200, autocomplete: "current-password" });
  const regLogin = h("input", { name: "login", required: true, minlength: 3, maxlength: 40, pattern: "[A-Za-z0-9_.\\-]+", autocomplete: "username" });
  const regPassword = h("input", { name: "password", type: "password", required: true, minlength: 8, maxlength: 200, autocomplete: "new-password" });
  const regNick = h("input", { name: "nickname", maxlength: 40, autocomplete: "nickname" });

  main.append(
    h("section", { class: "page signin-page" },
      h("h1", null, t("Welcome to the Whist Club")),
      h("p", { class: "lead" }, t("Play whist with friends and computer players: Classic, German, Plockwhist, Japanese, Minnesota and Swedish Whist.")),
      session.me ? h("p", { class: "notice" }, t("You are signed in as {name}.", { name: session.me.nickname })) : null,
      h("div", { class: "auth-grid" },
        form(t("Play as a guest"), "guest-form",
          [field(t("Nickname"), guestName, t("Guest progress is kept for 7 days on this device."))],
          t("Play as a guest"),
          async () => done(await post("/api/guest", { nickname: guestName.value.trim() }))),
        form(t("Sign in"), "login-form",
          [field(t("Login"), loginName), field(t("Password"), loginPassword)],
          t("Sign in"),
          async () => done(await post("/api/login", { login: loginName.value.trim(), password: loginPassword.value }))),
        form(t("Create an account"), "register-form",
          [
            field(t("Login"), regLogin, t("3–40 letters, digits, dots, dashes or underscores.")),
            field(t("Password"), regPassword, t("At least 8 characters.")),
            field(t("Nickname (optional)"), regNick),
          ],
          t("Create an account"),
          async () => {
            const body = { login: regLogin.value.trim(), password: regPassword.value };
            if (regNick.value.trim()) body.nickname = regNick.value.trim();
            done(await post("/api/register", body));
          }))),
  );
}
