// Text in the rulebooks' languages, from i18next-style JSON catalogues: one for the platform
// (/locales/<lang>.json) and one per game (/games/<game>/locales/<lang>.json). Placeholders are
// {{name}}; a key with a {{count}} has plural forms key_one, key_other, ... chosen by Intl.PluralRules.
export const LANGUAGES = { en: "English", pt: "Português", de: "Deutsch", fr: "Français" };

const loaded = new Map(); // url -> catalogue (or {} when missing)

async function fetchCatalogue(url) {
  if (!loaded.has(url)) {
    const response = await fetch(url);
    loaded.set(url, response.ok ? await response.json() : {});
  }
  return loaded.get(url);
}

// "?lang=de" in a page's address (a table's, the lobby's, a rules page's): that language, ahead of the one
// chosen before, so an address shared in German opens in German
export function addressLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  return asked && LANGUAGES[asked] ? asked : null;
}

// A page keeps the language it opened in (or was switched to in it): the choice is stored for the pages
// opened next, and a switch in another tab of the same browser changed a German table's words half-way (its
// frame German, a hint's steps in French)
let pageLanguage = null;

export function language() {
  if (!pageLanguage) pageLanguage = chosenLanguage();
  return addressLanguage() || pageLanguage;
}

function chosenLanguage() {
  const chosen = localStorage.getItem("merchantry:lang");
  if (chosen && LANGUAGES[chosen]) return chosen;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGUAGES[browser] ? browser : "en";
}

// A number with `digits` decimals as the reader's language writes it ("0,50" in de, fr, pt), "+" before a
// positive one when `signed`
// A negative number is written with the minus sign "−" (U+2212), not the hyphen Intl writes ("-0.04")
export function decimal(x, digits, signed = false) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits,
    signDisplay: signed ? "exceptZero" : "auto" }).format(x).replace("-", "\u2212");
}

// Each game's title in the reader's language (/api/games' `titles`, from the game's catalogue: a subtitle
// is translated), else the title the server sends
const titles = new Map();
export function knowTitles(games) {
  for (const g of games) titles.set(g.name, g.titles || {});
}
export function gameTitle(name, fallback) {
  return titles.get(name)?.[language()] ?? fallback;
}

export function setLanguage(lang) {
  localStorage.setItem("merchantry:lang", lang);
  pageLanguage = lang;
}

function lookup(catalogue, path) {
  return path.split(".").reduce((node, part) => (node && typeof node === "object" ? node[part] : undefined), catalogue);
}

// The locale whose plural rules a language's words follow, where its bare code names another variety:
// "pt" alone is Brazilian Portuguese, where 0 is singular; the words are European Portuguese, where only 1
// is ("0 cartas"). merchantry/i18n.py keeps the same table.
const PLURAL_LOCALE = { pt: "pt-PT" };

function pick(catalogues, key, vars, lang) {
  const count = vars.count;
  const keys = typeof count === "number"
    ? [...(count === 0 ? [`${key}_zero`] : []), `${key}_${new Intl.PluralRules(PLURAL_LOCALE[lang] || lang).select(count)}`, `${key}_other`, key]
    : [key];
  for (const catalogue of catalogues) {
    for (const k of keys) {
      const text = lookup(catalogue, k);
      if (typeof text === "string") return text;
    }
  }
  return undefined;
}

export function interpolate(text, vars) {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => (vars[name] ?? "").toString());
}

// Catalogues in the order they are searched: the current language, then English.
async function chain(base) {
  const lang = language();
  const urls = [`${base}/${lang}.json`, ...(lang === "en" ? [] : [`${base}/en.json`])];
  return Promise.all(urls.map(fetchCatalogue));
}

let platform = [];

// Load the platform catalogue of the current language; call before drawing anything.
export async function loadLanguage() {
  platform = await chain("/locales");
}

// The platform's interface words: t("lobby"), t("waitingFor", { who: "P2" }).
export function t(key, vars = {}) {
  const text = pick(platform, `ui.${key}`, vars, language());
  return text === undefined ? key : interpolate(text, vars);
}

// Names or cards as the language lists them, "P2, P3 and P4" / "P2, P3 und P4": the page's lists read as
// the log's (joinList), never the bare ", " between them all.
export function listOf(items) {
  return joinList(items, platform, language());
}

// Others' moves in the order played, grouped by seat (the first to play first): [[seat, [played, ...]], ...].
// A turning point spanning two rounds named a seat once per move ("P2 (…), P3 (…) and P2 (…)")
export function playsBySeat(moves) {
  const grouped = new Map();
  for (const { seat, played } of moves) grouped.set(seat, [...(grouped.get(seat) || []), played]);
  return [...grouped.entries()];
}

// A game's translator: its own catalogue first, then the platform's. `tr.ui(key)` for interface words,
// `tr.term(word)` for a card, good or gem name (the word itself if the catalogue has none), and
// `tr.named(name, key)` for a name as a template's values with its forms (termOf...), `tr.event(event, seatName)` for a log event, `tr.move(text)` for a move's notation in words, `tr.join(items)`
// for a list as the language lists it, `tr.reason(why, english, seatName)` for why a move was refused.
export async function gameTranslator(game) {
  const own = await chain(`/games/${game}/locales`);
  const catalogues = [...own, ...platform];
  const lang = language();
  const ui = (key, vars = {}) => {
    const text = pick(catalogues, `ui.${key}`, vars, lang);
    return text === undefined ? key : interpolate(text, vars);
  };
  const term = (word) => pick(catalogues, `term.${word}`, {}, lang) ?? word;
  const event = (ev, seatName = (s) => `P${s + 1}`) => {
    const vars = {};
    for (const [name, value] of Object.entries(ev)) {
      if (name === "type" || name === "audience" || name === "others" || name === "new_round") continue;
      vars[name] = describe(name, value, { ui, term, seatName, join: (items) => join(items) });
      if (typeof value === "string") Object.assign(vars, forms(name, value, vars[name]));
    }
    // a list with its own words, singular or plural by its length, as merchantry/i18n.py's Translator.event:
    // the template `<type>__<name>` ("Paid: P2, 3 coins" but "Paid: P1 and P3, 3 coins each")
    for (const [name, value] of Object.entries(ev)) {
      if (!Array.isArray(value) || !(name in vars)) continue;
      const phrase = pick(catalogues, `event.${ev.type}__${name}`, { count: value.length }, lang);
      if (phrase !== undefined) vars[name] = interpolate(phrase, vars);
    }
    const template = pick(catalogues, `event.${ev.type}`, { count: ev.count }, lang);
    return template === undefined ? `${ev.type} ${JSON.stringify(vars)}` : interpolate(template, vars);
  };
  // a move's notation in words, as merchantry/i18n.py's Translator.move says it (the catalogue's `move`
  // section: the template `verb_args` (take_right), else `verb`; {{args}}, {{a1}}, {{a2}}...); the notation
  // itself when the catalogue has no template for it
  const move = (text) => {
    const [verb = "", ...args] = text.split(/\s+/).filter(Boolean);
    const keys = args.map((arg) => termKey(arg));
    const words = keys.map((key) => term(key));
    const vars = { args: words.join(", "), ...Object.fromEntries(words.map((w, i) => [`a${i + 1}`, w])) };
    keys.forEach((key, i) => Object.assign(vars, forms(`a${i + 1}`, key, words[i])));
    for (const key of [`${verb}_${args.join("_")}`.toLowerCase(), verb.toLowerCase()]) {
      const template = pick(catalogues, `move.${key}`, {}, lang);
      if (template !== undefined) return interpolate(template, vars);
    }
    return text;
  };
  // a run of steps of one verb said once, their arguments listed as the language lists them, where the
  // catalogue's `moves` section has the words ("put these three cards into the bid"); else undefined
  const moves = (verb, args) => {
    const template = pick(catalogues, `moves.${verb.toLowerCase()}`, {}, lang);
    return template === undefined ? undefined : interpolate(template, { args: join(args.map(termOf)) });
  };
  // a notation word as its name is keyed: as written, or capitalised (levant -> Levant)
  const termKey = (word) => {
    for (const candidate of [word, word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(), word.toUpperCase()]) {
      if (pick(catalogues, `term.${candidate}`, {}, lang) !== undefined) return candidate;
    }
    return word;
  };
  const termOf = (word) => term(termKey(word));
  // a name's forms, as merchantry/i18n.py's Translator._forms: {{placeholder_form}} for each form of the
  // language's own catalogues (sections termOf, termInto...: "d'Italie" for termOf.Italy in French), else
  // the name as it is; never another language's form
  const ownForms = {};
  for (const catalogue of [platform[0] || {}, own[0] || {}]) {
    for (const [section, names] of Object.entries(catalogue)) {
      const found = /^term([A-Z]\w*)$/.exec(section);
      if (found) ownForms[found[1].toLowerCase()] = { ...ownForms[found[1].toLowerCase()], ...names };
    }
  }
  const forms = (placeholder, key, word) =>
    Object.fromEntries(Object.entries(ownForms).map(([form, names]) => [`${placeholder}_${form}`, names[key] ?? word]));
  // why the rules refused a move (the server's "why": a key, its values, the clauses it cites), as
  // merchantry/i18n.py's Translator.refusal says it: the catalogue's `reason` section, its values read as an
  // event's; `english`, the server's own sentence, when the catalogue cannot say it. In words only: the
  // clause ids are the developers' (a newcomer read "merchants cannot be bid (XX-A4)")
  const reason = (why, english, seatName = (s) => `P${s + 1}`) => {
    const template = why && why.key ? pick(catalogues, `reason.${why.key}`, {}, lang) : undefined;
    if (template === undefined) return withoutClauses(english, why);
    const vars = {};
    for (const [name, value] of Object.entries(why.params || {})) {
      vars[name] = describe(name, value, { ui, term, seatName, join: (items) => join(items) });
      if (typeof value === "string") Object.assign(vars, forms(name, value, vars[name]));
    }
    return interpolate(template, vars);
  };
  // a game option's name in words (section `option`), else its own name with spaces
  const option = (name) => pick(catalogues, `option.${name}`, {}, lang) ?? name.replace(/_/g, " ");
  // what a game option's standard value means, where its bare value would not say (section `optionDefault`:
  // an empty choice that the rules fill by the player count), else undefined
  const optionDefault = (name) => pick(catalogues, `optionDefault.${name}`, {}, lang);
  const join = (items) => joinList(items, catalogues, lang);
  // a name as a template's values: {name: the term, name_of: its form...}, for the page's own sentences
  const named = (name, key) => ({ [name]: term(key), ...forms(name, key, term(key)) });
  return { ui, term, named, event, move, moves, option, optionDefault, join, reason };
}

// a whole move (its steps separated by ", ") as a sentence in the reader's language: a run of steps of one
// verb with one argument each is said once where the game has the words (`tr.moves`), "put three cards into
// the bid, then seal the bid" naming each, not a sentence per card (a newcomer read key moments as long lists)
export function moveInWords(text, tr) {
  const runs = [];
  for (const step of text.split(", ")) {
    const [verb, ...args] = step.split(/\s+/);
    const last = runs[runs.length - 1];
    if (last && last.verb === verb && args.length === 1 && last.args.length === last.steps.length) {
      last.args.push(args[0]);
      last.steps.push(step);
    } else runs.push({ verb, args: args.length === 1 ? [args[0]] : [], steps: [step] });
  }
  const said = (run) => (run.steps.length > 1 && tr.moves?.(run.verb, run.args)) || run.steps.map((step) => tr.move(step)).join(t("stepSeparator"));
  return runs.map(said).join(t("stepSeparator"));
}

// The server's English sentence for a refusal without the clause ids it ends with, "(XX-A4, XX-B1)" (the
// server's `why` names them): a player reads the reason, the logs keep the ids for developers
export function withoutClauses(english, why) {
  const clauses = (why && why.clauses) || [];
  const suffix = clauses.length ? ` (${clauses.join(", ")})` : "";
  return suffix && english.endsWith(suffix) ? english.slice(0, -suffix.length) : english;
}

// Items as the language lists them, as merchantry/i18n.py's Translator.join: "tea, myrrh and olives"
// (the catalogue's listSeparator between them, its list.last before the last one), in every game
function joinList(items, catalogues, lang) {
  if (items.length < 2) return items.join("");
  const last = pick(catalogues, "list.last", {}, lang) ?? ", ";
  return items.slice(0, -1).join(pick(catalogues, "ui.listSeparator", {}, lang) ?? ", ") + last + items[items.length - 1];
}

// How an event's argument reads, as merchantry/i18n.py reads it: seats by name, lists as the language
// lists them (joinList), words through the catalogue's terms.
function describe(name, value, { ui, term, seatName, join }) {
  if (name === "seat" || name.endsWith("_seat")) return seatName(value);
  if (name.endsWith("_seats")) return join(value.map(seatName));
  if (name === "scores") return join(value.map((v, s) => `${seatName(s)} ${v}`));
  if (Array.isArray(value)) {
    if (!value.length) return ui("nothing");
    return join(value.map((v) => (typeof v === "string" ? term(v) : String(v))));
  }
  // a hyphen that starts a figure ("+1 -1 0") reads as the minus sign, as i18n.py's with_minus_signs
  if (typeof value === "string") return term(value).replace(/(?<![\w-])-(?=\d)/g, "\u2212");
  return value;
}
