// Accounts, optional (server/accounts.py): the bar's "Log in" or "name · Log out", the account page, and
// the CSRF header every change sends (the server asks for it only when the session cookie is there).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { fetchTurns, turnsSection, watchTurns } from "./turns.js";

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
    slot.replaceChildren(h("a", { href: "/account", id: "account-link" }, t("logIn")));
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

export async function accountPage(main, toast, navigate) {
  const account = await currentAccount();
  if (account) {
    const { seats } = await call("/api/account/seats");
    const { turns } = (await fetchTurns()) || { turns: [] };
    main.replaceChildren(
      h("h1", {}, t("loggedInAs", { name: account.name })),
      h("p", {}, h("a", { href: `/player/${encodeURIComponent(account.name)}`, id: "my-profile" }, t("profile"))),
      turnsSection(turns),
      h("h2", {}, t("yourSeats")),
      h("ul", { id: "account-seats" }, seats.map((s) =>
        h("li", {}, h("a", { href: `/table/${s.table_id}` }, `${s.game} · ${s.table_id} · P${s.seat + 1}`), ` (${s.status})`))),
    );
    return;
  }
  const name = h("input", { id: "account-name", maxlength: 40, required: true, autocomplete: "username" });
  const password = h("input", { id: "account-password", type: "password", minlength: 8, maxlength: 256, required: true, autocomplete: "current-password" });
  async function submit(path) {
    try {
      const { account } = await call(path, { name: name.value.trim(), password: password.value });
      localStorage.setItem("merchantry:name", account.name);  // the name the forms start with
      const kept = await keepSeats();
      if (kept) toast(t("seatsKept", { count: kept }), "info");
      navigate();
    } catch (error) {
      toast(error.message);
    }
  }
  const form = h("form", { class: "panel", id: "account-form", onsubmit: (e) => { e.preventDefault(); submit("/api/account/login"); } },
    h("label", {}, t("accountName"), " ", name),
    h("label", {}, t("password"), " ", password, h("small", {}, ` ${t("passwordHelp")}`)),
    h("div", {},
      h("button", { type: "submit", id: "log-in" }, t("logIn")),
      " ",
      h("button", { type: "button", id: "sign-up", onclick: () => form.reportValidity() && submit("/api/account/signup") }, t("signUp"))),
  );
  main.replaceChildren(h("h1", {}, t("account")), h("p", {}, t("accountHelp")), form);
}
