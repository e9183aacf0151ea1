// Accounts, optional (server/accounts.py): the bar's "Log in" or "name · Log out", the account page, and
// the CSRF header every change sends (the server asks for it only when the session cookie is there).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { fetchTurns, turnsSection, watchTurns } from "./turns.js";
import { outcome, tableSummary } from "./ratings.js";

const CSRF_COOKIE = "merchantry_csrf";

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
}

// the header for fetch(): the readable cookie the server set, repeated (another site cannot read it)
export function csrfHeader() {
  const token = cookie(CSRF_COOKIE);
  return token ? { "X-CSRF-Token": token } : {};
}

async function call(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", ...csrfHeader() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const reason = answer.error || (Array.isArray(answer.detail) ? answer.detail.map((d) => d.msg).join("; ") : "");
    throw new Error(reason || response.statusText);
  }
  return answer;
}

// who is logged in (null: a guest); also hands a new browser the CSRF cookie that logging in repeats
export async function currentAccount() {
  try {
    return (await call("/api/account")).account;
  } catch {
    return null;
  }
}

// the seats this browser holds (localStorage, as a guest) made the account's
async function keepSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const match = key && key.match(/^merchantry:table:([\w-]+)$/);
    if (!match) continue;
    const token = JSON.parse(localStorage.getItem(key) || "{}").token;
    if (token) seats.push({ table_id: match[1], token });
  }
  if (!seats.length) return 0;
  return (await call("/api/account/seats", { seats: seats.slice(0, 200) })).linked.length;
}

export async function accountBar(slot, navigate) {
  const account = await currentAccount();
  if (!account) {
    slot.replaceChildren(h("a", { href: "/account", id: "account-link" }, t("logIn")), " ",
      h("a", { href: "/account?tab=signup", id: "signup-link" }, t("signUp")));
    return;
  }
  async function logOut() {
    await call("/api/account/logout", {});
    navigate();
  }
  watchTurns();  // the "your turn" count in the title, and notifications
  slot.replaceChildren(
    h("a", { href: "/account", id: "account-link" }, account.name),
    h("button", { type: "button", id: "log-out", onclick: logOut }, t("logOut")),
  );
}

// The account page: a logged-in person's turns and seats; a guest's two forms, to log in or to sign up
export async function accountPage(main, toast, navigate) {
  const account = await currentAccount();
  if (account) {
    const [{ seats }, games] = await Promise.all([call("/api/account/seats"), call("/api/games")]);
    const { turns } = (await fetchTurns()) || { turns: [] };
    main.replaceChildren(
      h("h1", {}, t("loggedInAs", { name: account.name })),
      h("p", {}, h("a", { href: `/player/${encodeURIComponent(account.name)}`, id: "my-profile" }, t("profile"))),
      turnsSection(turns),
      h("h2", {}, t("yourSeats")),
      h("ul", { id: "account-seats" }, seats.map((seat) => seatLine(seat, games))),
      passwordForm(toast),
    );
    return;
  }
  const tab = new URLSearchParams(location.search).get("tab") === "signup" ? "signup" : "login";
  const show = (which) => {
    history.replaceState({}, "", which === "signup" ? "/account?tab=signup" : "/account");
    accountPage(main, toast, navigate);
  };
  const tabs = h("div", { role: "tablist", class: "account-tabs", "aria-label": t("accountTabs") },
    [["login", t("logIn")], ["signup", t("signUp")]].map(([which, label]) => h("button", {
      type: "button", role: "tab", id: `tab-${which}`, "aria-selected": String(which === tab), "aria-controls": which === tab ? `${which}-form` : null,
      class: which === tab ? "primary" : "", onclick: () => which !== tab && show(which) }, label)));
  main.replaceChildren(h("h1", {}, t("account")), tabs,
    tab === "signup" ? signUpForm(main, toast) : logInForm(toast, navigate));
}

// a seat as a person reads it: the game, the day, who played, how it ended, and where to look at it
function seatLine(seat, games) {
  const { title, day, who } = tableSummary({ ...seat, when: seat.created_at }, games);
  const ended = seat.status === "finished" && seat.winners;
  const status = t(`status_${seat.status}`) + (ended ? `, ${outcome(seat.winners.includes(seat.seat))}` : "");
  return h("li", {}, h("a", { href: `/table/${seat.table_id}` }, title), ` · ${day} · ${who} · ${status}`,
    seat.status === "finished" ? [" · ", h("a", { href: `/replay/${seat.table_id}` }, t("replay"))] : null);
}

function credentials(prefix, newPassword) {
  const name = h("input", { id: `${prefix}-name`, maxlength: 40, required: true, autocomplete: "username" });
  const password = h("input", { id: `${prefix}-password`, type: "password", minlength: 8, maxlength: 256, required: true,
    autocomplete: newPassword ? "new-password" : "current-password" });
  return { name, password };
}

async function enter(path, name, password) {
  const { account } = await call(path, { name: name.value.trim(), password: password.value });
  localStorage.setItem("merchantry:name", account.name);  // the name the forms start with
  const kept = await keepSeats();
  return { account, kept };
}

function logInForm(toast, navigate) {
  const { name, password } = credentials("account", false);
  async function submit(event) {
    event.preventDefault();
    try {
      const { kept } = await enter("/api/account/login", name, password);
      if (kept) toast(t("seatsKept", { count: kept }), "info");
      navigate();
    } catch (error) { toast(error.message); }
  }
  return h("form", { class: "panel", id: "login-form", role: "tabpanel", "aria-labelledby": "tab-login", onsubmit: submit },
    h("p", {}, t("accountHelp")),
    h("label", {}, t("accountName"), " ", name),
    h("label", {}, t("password"), " ", password),
    h("div", {}, h("button", { type: "submit", id: "log-in", class: "primary" }, t("logIn"))));
}

function signUpForm(main, toast) {
  const { name, password } = credentials("signup", true);
  const again = h("input", { id: "signup-repeat", type: "password", minlength: 8, maxlength: 256, required: true, autocomplete: "new-password" });
  async function submit(event) {
    event.preventDefault();
    if (password.value !== again.value) { toast(t("passwordsDiffer")); again.focus(); return; }
    try {
      const { account, kept } = await enter("/api/account/signup", name, password);
      welcome(main, account, kept);
    } catch (error) { toast(error.message); }
  }
  return h("form", { class: "panel", id: "signup-form", role: "tabpanel", "aria-labelledby": "tab-signup", onsubmit: submit },
    h("p", {}, t("signUpHelp")),
    h("label", {}, t("accountName"), " ", name),
    h("label", {}, t("password"), " ", password, h("small", {}, ` ${t("passwordHelp")}`)),
    h("label", {}, t("repeatPassword"), " ", again),
    h("div", {}, h("button", { type: "submit", id: "create-account", class: "primary" }, t("createAccount"))));
}

// a new password, given the current one (the server ends every other session of the account)
function passwordForm(toast) {
  const field = (id, label) => h("label", {}, label, " ",
    h("input", { id, type: "password", minlength: 8, maxlength: 256, required: true, autocomplete: id === "current-password" ? "current-password" : "new-password" }));
  const form = h("form", { class: "panel", id: "password-form", onsubmit: async (event) => {
    event.preventDefault();
    const value = (id) => form.querySelector(`#${id}`).value;
    if (value("new-password") !== value("new-repeat")) { toast(t("passwordsDiffer")); return; }
    try {
      await call("/api/account/password", { current: value("current-password"), new: value("new-password") });
      form.reset();
      toast(t("passwordChanged"), "info");
    } catch (error) { toast(error.message); }
  } },
  field("current-password", t("currentPassword")), field("new-password", t("newPassword")), field("new-repeat", t("repeatPassword")),
  h("div", {}, h("button", { type: "submit", id: "change-password" }, t("changePassword"))));
  return h("details", { id: "password-change" }, h("summary", {}, t("changePassword")), form);
}

// after signing up: a welcome, what the account gives, and where to go next
function welcome(main, account, kept) {
  const bar = document.getElementById("account");
  if (bar) accountBar(bar, () => { history.pushState({}, "", "/"); window.dispatchEvent(new PopStateEvent("popstate")); });
  main.replaceChildren(h("section", { id: "welcome", class: "panel" },
    h("h1", {}, t("welcome", { name: account.name })),
    h("p", {}, t("welcomeText")),
    kept ? h("p", { id: "seats-kept" }, t("seatsKept", { count: kept })) : null,
    h("p", {}, h("a", { href: "/", id: "to-lobby", class: "button primary" }, t("toLobby")), " · ",
      h("a", { href: "/account" }, t("account")), " · ",
      h("a", { href: `/player/${encodeURIComponent(account.name)}` }, t("profile")))));
}
