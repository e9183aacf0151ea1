// Samarkand in the browser: the map drawn from the game's map data (SVG, pan by scrolling, zoom by buttons),
// the families, the players, your hand with each card's worth now, the sale offer, and the final scores.
import { h, seatName } from "/static/dom.js";

const MAP = await (await fetch("/games/samarkand/data/map.json")).json();
const SVG = "http://www.w3.org/2000/svg";
const R = 30; // hexagon radius in SVG units
const COLOURS = {
  purple: "#7b3fa0", white: "#f4f4f4", orange: "#f08a24", yellow: "#f2c81e", black: "#262626",
  brown: "#8b5a2b", red: "#d0302a", green: "#2e8b57", blue: "#2a62c9", pink: "#ec6fb0",
};
const DARK = new Set(["purple", "black", "brown", "red", "green", "blue"]);

// what survives a redraw: the family chosen for expanding, the zoom, where the map was scrolled to, and
// whether the family was just chosen (its spaces are then brought into view: Expand sits below the map)
// and the sale offer whose Sell button was given the focus (once per offer)
const ui = { family: null, zoom: 1, scroll: [0, 0], reveal: false, offerFocused: null };
let term = (word) => word; // names in the reader's language, set by render

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// where a space's parts sit, below its centre in SVG units (its flat top and bottom edges are 26 away): the
// name under the top edge, the good or city in the middle, the camels (their letters 10 px) in the lower band
const LAYOUT = { id: -17, good: -3, name: 6, city: -1, camel: 15.5, camelRadius: 7.5 };

function centre(space) {
  return [R + 1.5 * R * space.x + 6, R + Math.sqrt(3) * R * space.y + 6];
}

function hexPoints(cx, cy) {
  return Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 3) * i;
    return `${(cx + R * Math.cos(a)).toFixed(1)},${(cy + R * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

// a family's mark on its camels, from its name in the reader's language (a German map read "K" for
// Choresmien, from the English Khwarezm): its initial, or, among the names sharing an initial, the initial
// and the letter at the first place where all of those names differ ("Ca" Caucasus, "Ch" China; "Co"
// Choresmien, "Ci" China); terminal.py's `marks` marks them alike
// a letter as the eye tells it apart at a glance: "Ä" is "A", "É" is "E" (German marked Ägypten "Ä" and
// Arabien "A", two tokens hard to tell apart on a camel)
const plain = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

export function marks(names) {
  return names.map((name) => {
    const group = names.filter((o) => plain(o.slice(0, 1)) === plain(name.slice(0, 1)));
    if (group.length === 1) return name.slice(0, 1);
    const shortest = Math.min(...group.map((g) => g.length));
    let at = 1;
    for (let i = 1; i < shortest; i++) {
      if (new Set(group.map((g) => plain(g[i]))).size === group.length) { at = i; break; }
    }
    return name.slice(0, 1) + name.slice(at, at + 1);
  });
}
let MARKS = marks(MAP.families.map((f) => f.name));

function familyIndex(name) {
  return MAP.families.findIndex((f) => f.name.toLowerCase() === name.toLowerCase());
}

// a family's colour with its letter; `name` (where no name is written beside it) is what a screen reader
// reads and a pointer's tooltip shows: a row of letters alone read as one word ("CaLAI")
function swatch(colour, letter, name = null) {
  const named = name ? { role: "img", title: name, "aria-label": name } : {};
  return h("span", { class: `sk-swatch${DARK.has(colour) ? " dark" : ""}`, style: `background:${COLOURS[colour]}`, ...named }, letter);
}

// Moves by kind, from the legal move texts: {marry: Set(family), expand: Map(family -> Set(space)), ...}
function readMoves(legal) {
  const moves = { marry: new Set(), expand: new Map(), camel: new Set(), discard: new Set(), sell: new Set(), other: new Set() };
  for (const text of legal) {
    const [verb, a, b] = text.split(" ");
    if (verb === "marry") moves.marry.add(a);
    else if (verb === "expand") { if (!moves.expand.has(a)) moves.expand.set(a, new Set()); moves.expand.get(a).add(b); }
    else if (verb === "camel") moves.camel.add(a);
    else if (verb === "discard") moves.discard.add(Number(a));
    else if (verb === "sell") moves.sell.add(Number(a));
    else moves.other.add(verb);
  }
  return moves;
}

function drawMap(view, targets, onSpace, t, tr) {
  const spaces = MAP.spaces;
  const width = Math.max(...spaces.map((s) => centre(s)[0])) + R + 6;
  const height = Math.max(...spaces.map((s) => centre(s)[1])) + R + 6;
  const nodes = spaces.map((space, index) => {
    const [cx, cy] = centre(space);
    const camels = view.camels[index];
    const names = camels.map((f) => tr.term(MAP.families[f].name));
    const family = space.family ? MAP.families[familyIndex(space.family)] : null;
    const target = targets.has(space.id);
    const fill = space.kind === "water" ? "#9cc9e8" : space.kind === "goods" ? "#f7e6b5" : space.kind === "start" ? COLOURS[family.colour] : "#e9dcc0";
    // the hover text: the space's name, then what it is and what stands on it ("K2 · land · camels: China")
    const label = space.kind === "goods" ? t("goodsSpace", { good: space.good, name: tr.term(MAP.goods[space.good - 1].name) })
      : space.kind === "start" ? t("start", named(tr, "family", family.name))
      : space.kind === "water" ? t("water") : t("land");
    const tip = [space.id, label, camels.length ? t("camelsHere", { families: tr.join(names) }) : ""].filter(Boolean).join(" · ");
    const children = [
      svg("title", {}, tip),
      svg("polygon", { points: hexPoints(cx, cy), fill, class: target ? "sk-hex sk-target" : "sk-hex", "fill-opacity": space.kind === "start" ? 0.45 : 1 }),
    ];
    // Three bands, none over another: the space's name as a label under its top edge, what the space is in
    // the middle (a good's number and name, a city's name, water), its camels in the lower band
    children.push(svg("text", { x: cx, y: cy + LAYOUT.id, class: "sk-space-id" }, space.id));
    if (space.kind === "goods") {
      children.push(svg("text", { x: cx, y: cy + LAYOUT.good, class: "sk-good" }, String(space.good)));
      children.push(svg("text", { x: cx, y: cy + LAYOUT.name, class: "sk-good-name" }, tr.term(MAP.goods[space.good - 1].name)));
    } else if (space.kind === "start") {
      children.push(svg("text", { x: cx, y: cy + LAYOUT.city, class: "sk-city" }, tr.term(family.name)));
    } else if (space.kind === "water") {
      children.push(svg("text", { x: cx, y: cy + LAYOUT.city, class: "sk-water" }, "≈ ≈"));
    }
    camels.forEach((f, i) => {
      const x = cx + (camels.length === 2 ? (i ? 9 : -9) : 0);
      const colour = MAP.families[f].colour;
      children.push(svg("circle", { cx: x, cy: cy + LAYOUT.camel, r: LAYOUT.camelRadius, fill: COLOURS[colour], class: "sk-camel" }));
      children.push(svg("text", { x, y: cy + LAYOUT.camel + 3.5, class: `sk-camel-letter${DARK.has(colour) ? " dark" : ""}` }, MARKS[f]));
    });
    return svg("g", { "data-space": space.id, class: target ? "sk-space target" : "sk-space", onclick: target ? () => onSpace(space.id) : null }, children);
  });
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, style: mapWidth(), role: "img", "aria-label": t("map") }, nodes);
}

// the map's width over its height, from its data: zoom 1 fits the whole map in the frame's height too
const MAP_ASPECT = (() => {
  const xs = MAP.spaces.map((s) => centre(s)[0]);
  const ys = MAP.spaces.map((s) => centre(s)[1]);
  return (Math.max(...xs) + R + 6) / (Math.max(...ys) + R + 6);
})();

// zoom 1 fits the frame, the whole map in view on a desktop (at most 820 px wide and the frame's 70vh
// high), yet never narrower than 560 px, so that a phone pans a readable map; zooming in widens it further
function mapWidth() {
  return `width: calc(${ui.zoom} * max(min(100%, 820px, ${(0.69 * MAP_ASPECT * 100).toFixed(1)}vh), 560px))`;
}

// The spaces a family just chosen may expand to, all in view: the map zooms out until they fit the part of
// its frame the window shows and the frame scrolls to them. The page itself is scrolled only when the window
// shows too little of the map to hold them (a phone, whose Expand buttons lie in the families table below
// it), and then just far enough. Only when the person chose the family.
function revealTargets(root) {
  if (!ui.reveal) return;
  ui.reveal = false;
  setTimeout(() => {  // after the frame restored its own scroll (mapFrame)
    const frame = root.querySelector(".sk-map-frame");
    const targets = [...root.querySelectorAll(".sk-space.target")];
    if (!frame || !targets.length) return;
    if (shownOf(frame).bottom - shownOf(frame).top < Math.min(frame.clientHeight, 0.5 * window.innerHeight)) {
      frame.scrollIntoView({ block: "nearest" });
    }
    fitTo(frame, targets);
  }, 0);
}

// the part of a frame's view the window shows, in the window's coordinates
function shownOf(frame) {
  const box = frame.getBoundingClientRect();
  const left = box.left + frame.clientLeft, top = box.top + frame.clientTop;
  return { left: Math.max(left, 0), right: Math.min(left + frame.clientWidth, window.innerWidth),
    top: Math.max(top, 0), bottom: Math.min(top + frame.clientHeight, window.innerHeight) };
}

function around(rects) {
  return { left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
    top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
}

// The frame's view fitted to some spaces: zoomed out (never in: the person's zoom otherwise stays) until
// their box fits what the window shows of the frame, then scrolled to centre them if any lies outside it
function fitTo(frame, spaces) {
  const room = 0.9;  // a margin round them, so a ring's glow shows whole
  let shown = shownOf(frame);
  let wanted = around(spaces.map((space) => space.getBoundingClientRect()));
  const scale = Math.min(1, (room * (shown.right - shown.left)) / (wanted.right - wanted.left),
    (room * (shown.bottom - shown.top)) / (wanted.bottom - wanted.top));
  if (scale < 1 && ui.zoom > 0.5) {
    ui.zoom = Math.max(0.5, ui.zoom * scale);
    frame.querySelector("svg").setAttribute("style", mapWidth());
    shown = shownOf(frame);
    wanted = around(spaces.map((space) => space.getBoundingClientRect()));
  }
  const inside = wanted.left >= shown.left && wanted.right <= shown.right && wanted.top >= shown.top && wanted.bottom <= shown.bottom;
  if (inside) return;
  frame.scrollLeft += (wanted.left + wanted.right) / 2 - (shown.left + shown.right) / 2;
  frame.scrollTop += (wanted.top + wanted.bottom) / 2 - (shown.top + shown.bottom) / 2;
  ui.scroll = [frame.scrollLeft, frame.scrollTop];
}

function mapFrame(view, targets, onSpace, t, tr) {
  const frame = h("div", { class: "sk-map-frame", tabindex: "0", "aria-label": t("map"), onscroll: () => { ui.scroll = [frame.scrollLeft, frame.scrollTop]; } },
    drawMap(view, targets, onSpace, t, tr));
  setTimeout(() => { frame.scrollLeft = ui.scroll[0]; frame.scrollTop = ui.scroll[1]; }, 0);
  const zoom = (factor) => () => {
    ui.zoom = Math.min(3, Math.max(0.5, ui.zoom * factor));
    frame.querySelector("svg").setAttribute("style", mapWidth());
  };
  // the zoom buttons on a line of their own above the map, never over it (on a phone they covered the
  // spaces in the map's top right corner, China's start city among them)
  return h("div", { class: "sk-map-block" },
    h("div", { class: "sk-zoom" },
      h("button", { onclick: zoom(1.25), "aria-label": t("zoomIn"), title: t("zoomIn") }, "+"),
      h("button", { onclick: zoom(0.8), "aria-label": t("zoomOut"), title: t("zoomOut") }, "−")),
    scrollCue(frame, h("div", { class: "sk-map" }, frame), t("swipeMap")));
}

// a table in its own sideways-scrolling box, which says so when it is wider than the screen
function scrolling(table, t) {
  const box = h("div", { class: "sk-scroll" }, table);
  return scrollCue(box, h("div", { class: "sk-scroll-holder" }, box), t("swipeTable"));
}

// A part wider than the screen (the map, a table on a phone) says so: a shadow on each edge that hides more,
// and a line above it saying to swipe, so that nothing is cut off unnoticed. `box` is what scrolls, `part`
// what the shadows lie over, which does not scroll itself (the map with its zoom buttons, a table's holder):
// a shadow inside the scrolling box would scroll away with its content
function scrollCue(box, part, hint) {
  const area = h("div", { class: "sk-cue-area" }, h("p", { class: "sk-cue-hint", "aria-hidden": "true" }, hint), part);
  part.classList.add("sk-cue");
  const update = () => {
    const hidden = box.scrollWidth - box.clientWidth;
    area.classList.toggle("overflows", hidden > 1);
    area.classList.toggle("more-left", hidden > 1 && box.scrollLeft > 1);
    area.classList.toggle("more-right", hidden > 1 && box.scrollLeft < hidden - 1);
  };
  box.addEventListener("scroll", update, { passive: true });
  const watcher = new ResizeObserver(() => (box.isConnected ? update() : watcher.disconnect()));
  watcher.observe(box);
  if (box.firstElementChild) watcher.observe(box.firstElementChild);  // the map widened by a zoom
  return area;
}

function prompt(view, seat, moves, table, t, tr) {
  const offer = view.offer;
  const who = (s) => seatName(table, s);
  if (view.over) return null;
  if (offer) {
    const name = tr.term(offer.name);
    return moves.sell.size ? t("promptOffer", { good: offer.good, name }) : t("promptOfferWait", { good: offer.good, name });
  }
  // a seat with no move is waiting, its own turn too: a replay from its point of view said "your turn"
  const mine = seat !== null && view.current === seat && Object.values(moves).some((kind) => kind.size);
  if (!mine) {
    const key = view.phase === "discard" ? "waitingDiscard" : view.phase === "second" ? "waitingSecond" : "waitingTurn";
    return t(key, { seat: who(view.current) });
  }
  if (view.phase === "discard") {
    return moves.other.has("done") ? t("promptDiscard", { left: 2 - view.discarded, limit: view.hand_limit }) : t("promptDiscardMust", { limit: view.hand_limit });
  }
  if (view.phase === "second") return t("promptSecond", named(tr, "family", view.expanding || ""));
  if (moves.other.has("pass")) return t("promptPass");
  if (ui.family && moves.expand.has(ui.family)) return t("promptChooseFamily", named(tr, "family", MAP.families[familyIndex(ui.family)].name));
  return t("promptAct");
}

// A sale offer (SK-G1) stands out above everything on the board, and stays in sight while the page scrolls
// (it is sticky): it interrupts someone's turn, and a holder who missed it kept the whole table waiting. To
// the holder it says what the card is worth in hand now, beside Sell and Keep, and Sell takes the keyboard's
// focus the first time the offer shows; to everyone else it says that the table waits for the holder
export function offerPanel(view, moves, act, text, t, tr, table = {}) {
  const offer = view.offer;
  if (!offer || view.over) return null;
  const answering = moves.sell.size > 0;
  const card = answering ? (view.hand || []).find((c) => c.good === offer.good) : null;
  const panel = h("div", { class: `sk-offer${answering ? " answering" : ""}`, role: answering ? "alert" : "status" },
    h("strong", { class: "sk-offer-title" }, t(answering ? "offerTitle" : "offerWaitTitle")),
    h("div", { class: "sk-prompt" }, text),
    card ? h("div", { class: "sk-offer-worth" }, t("offerWorth", { count: card.points })) : null,
    // the offer's deadline, counted down by the platform (table.decision_deadline): a holder who looks away
    // sees how long is left before a bot answers for them, everyone else how long the table may wait
    h("div", { class: `sk-offer-deadline decision-countdown ${answering ? "for-you" : "for-table"}`, role: "timer" }),
    // and why there is a deadline at all, said from the start: at a table without a clock the countdown came
    // unexplained (the server answers for whoever has not answered, table.decision_seconds after the offer)
    table.decision_seconds ? h("div", { class: "sk-offer-rule muted" },
      t(table.turn_seconds || table.total_seconds ? "offerDeadlineRule" : "offerDeadlineRuleNoClock", { seconds: table.decision_seconds })) : null,
    answering ? h("div", { class: "sk-actions" },
      [...moves.sell].map((g) => h("button", { class: "primary", "data-move": `sell ${g}`, onclick: () => act(`sell ${g}`) }, `${t("sell")}${t("colon")}${g} ${tr.term(MAP.goods[g - 1].name)}`)),
      h("button", { "data-move": "keep", onclick: () => act("keep") }, t("keep"))) : null);
  // focus once per offer, never scrolling the page (it never scrolls by itself: the panel is in sight), and
  // taken only from the board or from nowhere: not from a guided first game's panel, nor from Keep
  const key = `${offer.good}:${(view.log || []).length}`;
  if (answering && ui.offerFocused !== key) {
    ui.offerFocused = key;
    setTimeout(() => {
      const here = document.activeElement;
      const free = !here || here === document.body || (here.closest(".samarkand") && !panel.contains(here));
      if (free && panel.isConnected) panel.querySelector("[data-move^='sell ']")?.focus({ preventScroll: true });
    }, 0);
  }
  return panel;
}

// SK-E1 in sight before it strikes: the game ends at once when a family's last relationship marker goes (a
// newcomer's own camel ended a game they lost by a point, unwarned) or when every family has had a relationship
const MARKERS_PER_FAMILY = 5;  // SK-C2
function endNear(view, t, tr) {
  if (view.phase === "over") return null;
  const names = (families) => tr.join(families.map((f) => tr.term(f.name)));
  const last = view.families.filter((f) => f.markers_left === 1);
  const unmet = view.families.filter((f) => f.markers_left === MARKERS_PER_FAMILY);
  const lines = [];
  if (last.length) lines.push(t("endNearLastMarker", { count: last.length, families: names(last) }));
  if (unmet.length && unmet.length <= 2) lines.push(t("endNearUnmet", { count: unmet.length, families: names(unmet) }));
  return lines.length ? h("div", { class: "banner sk-end-near", role: "note" }, lines.map((line) => h("div", {}, line))) : null;
}

function familiesTable(view, moves, act, t, tr, table) {
  const head = [["family", ""], ["cost", "cost"], ["treasury", "treasury"], ["camelsLeft", "camelsLeft"], ["tilesLeft", "tilesLeft"], ["markersLeft", "markersLeft"], ["marriedTo", ""], ["met", ""]];
  return scrolling(h("table", { class: "scores sk-families" },
    h("caption", {}, t("families")),
    // the column of Marry and Expand says what it is for (its heading stood empty over the buttons)
    h("thead", {}, h("tr", {}, head.slice(0, 1).map(([key]) => h("th", { title: t(key) }, t(key))), h("th", { class: "sk-act" }, t("familyMove")),
      head.slice(1).map(([key]) => h("th", { title: t(key) }, t(key))))),
    h("tbody", {}, view.families.map((family) => {
      const word = family.name.toLowerCase();
      const chosen = ui.family === word;
      // Marry and Expand right after the family's name: on a phone they show without scrolling the table
      return h("tr", { class: chosen ? "current-row" : "" },
        h("th", {}, h("span", { class: "nowrap" }, swatch(family.colour, MARKS[familyIndex(family.name)]), " ", tr.term(family.name))),
        h("td", { class: "sk-act" },
          moves.marry.has(word) ? h("button", { class: "primary", "data-move": `marry ${word}`, onclick: () => act(`marry ${word}`) }, `${t("marry")} (${family.cost})`) : null,
          moves.expand.has(word) ? h("button", { class: chosen ? "primary" : "", "data-expand": word, onclick: () => { ui.family = word; ui.reveal = true; act.redraw(); } }, t("expand")) : null),
        h("td", { class: "num" }, String(family.cost)),
        h("td", { class: "num" }, String(family.treasury)),
        h("td", { class: "num" }, String(family.camels_left)),
        h("td", { class: "num" }, String(family.domain_tiles)),
        h("td", { class: "num" }, String(family.markers_left)),
        h("td", {}, tr.join(family.held_by.map((s) => seatName(table, s).split(" ")[0])) || "–"),
        h("td", { class: "sk-met" }, tr.join(family.met.map((name) => tr.term(name))) || "–"));
    }))), t);
}

function playersTable(view, seat, table, t, tr) {
  const columns = ["dirhams", "cards", "soldCards", "tiles", "goodsMarkers", "relationMarkers"];
  return scrolling(h("table", { class: "scores" },
    h("caption", {}, t("players")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), columns.map((key) => h("th", { title: t(key) }, t(key))))),
    h("tbody", {}, view.seats.map((row) => h("tr", { class: `${row.seat === view.current ? "current-row" : ""}${row.seat === seat ? " me" : ""}` },
      h("th", {}, seatName(table, row.seat), row.seat === seat ? ` (${t("you")})` : ""),
      h("td", { class: "num" }, String(row.money)),
      h("td", { class: "num" }, `${row.hand_size}`),
      h("td", {}, tr.join(row.sold.map((g) => `${g} ${tr.term(MAP.goods[g - 1].name)}`)) || "–"),
      h("td", {}, row.tiles.flatMap((name, i) => [i ? " " : null, swatch(MAP.families[familyIndex(name)].colour, MARKS[familyIndex(name)], tr.term(name))])),
      h("td", { class: "num" }, String(row.goods_markers)),
      h("td", { class: "num" }, String(row.relation_markers)))))), t);
}

function handPanel(view, moves, act, t, tr) {
  if (!view.hand || view.over) return null;  // once over, every hand shows with the final table
  const limit = t("handLimit", { limit: view.hand_limit });
  return h("div", { class: "mine" },
    h("div", { class: "group-title", title: t("cardWorth") }, `${t("yourHand")} (${view.hand.length}) · ${limit}`),
    // written out, not only a tooltip: a phone has no pointer to hover with (issue 32, fifteenth pass)
    h("div", { class: "muted sk-worth" }, t("cardWorth")),
    h("div", { class: "cards" }, view.hand.map((card) => {
      const canDiscard = moves.discard.has(card.good);
      const body = [h("span", { class: "card-value" }, String(card.good)), h("span", { class: "card-kind" }, tr.term(card.name)),
        h("span", { class: "sk-points" }, t("pointsNow", { count: card.points }))];
      return canDiscard
        ? h("button", { class: "card sk-card", "data-move": `discard ${card.good}`, title: `${t("discard")} ${card.good}`, onclick: () => act(`discard ${card.good}`) }, body)
        : h("div", { class: "card sk-card", title: t("cardWorth") }, body);
    })));
}

function finalTable(view, table, t) {
  if (!view.over) return null;
  const order = [...view.breakdown.keys()].sort((a, b) => view.breakdown[b].total - view.breakdown[a].total);
  const best = view.breakdown[order[0]].total;
  // the total right after the name: on a phone it shows without scrolling the table sideways
  const columns = [["total", "total"], ["goods_cards", "goodsCards"], ["goods_markers", "goodsMarkers"], ["relation_markers", "relationMarkers"], ["money", "dirhams"]];
  // within its own scrolling box: a phone page never widens (the headings wrap, the figures do not)
  return h("div", {}, scrolling(h("table", { class: "scores sk-final" },
    h("caption", {}, t("finalScores")),
    h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("player")), columns.map(([, key]) => h("th", {}, t(key))))),
    h("tbody", {}, order.map((s) => h("tr", { class: view.breakdown[s].total === best ? "current-row" : "" },
      h("td", { class: "num" }, String(1 + order.filter((o) => view.breakdown[o].total > view.breakdown[s].total).length)),
      h("th", {}, seatName(table, s)),
      columns.map(([field]) => h("td", { class: "num" }, String(view.breakdown[s][field]))))))), t),
    finalHands(view, table, t));
}

// SK-E2: at the end every hand is laid face up, each card with what it scored, so the table can be checked
function finalHands(view, table, t) {
  return h("div", { class: "sk-final-hands" }, view.seats.filter((row) => row.hand).map((row) => h("div", { class: "sk-final-hand", "data-seat": row.seat },
    h("strong", {}, `${seatName(table, row.seat)}${t("colon")}`),
    row.hand.length ? row.hand.map((card, i) => h("span", { class: "sk-hand-card", "data-good": card.good }, i ? ", " : "", `${card.good} ${term(card.name)} (${t("cardScored", { count: card.points })})`))
      : h("span", { class: "muted" }, "—"))));
}

// a move of the moves panel's list as it is typed, with the card it names: `discard 10` and `sell 2` said
// only a number (the platform calls this for a label; the notation stays what is sent and typed)
export function label(move, tr) {
  const card = /^(discard|sell) (\d+)$/.exec(move);
  const good = card ? MAP.goods[Number(card[2]) - 1] : null;
  return good ? `${move} (${tr.term(good.name)})` : move;
}

// a family's name as a template's values, with the forms its language bends it into ("von der Levante": the
// catalogue's termOf) where the translator has them
function named(tr, name, key) {
  return tr.named ? tr.named(name, key) : { [name]: tr.term(key) };
}

export function render(payload, send, t, tr = { term: (w) => w, join: (items) => items.join(", ") }) {
  const { view, legal, seat, table } = payload;
  term = tr.term;
  MARKS = marks(MAP.families.map((f) => tr.term(f.name)));
  const moves = readMoves(legal);
  let root = null;
  const act = (move) => { ui.family = null; send(move); };
  act.redraw = () => root.replaceWith(render(payload, send, t, tr));
  // a sale offer for a card you do not hold is answered for you by the server, after the same pause as
  // everyone's answer, so that nobody's timing tells who holds the card (docs/samarkand.md, "Timing")
  if (ui.family && !moves.expand.has(ui.family)) ui.family = null;
  if (!ui.family && moves.expand.size === 1 && !moves.marry.size) ui.family = [...moves.expand.keys()][0];
  const targets = view.phase === "second" ? moves.camel : ui.family ? moves.expand.get(ui.family) : new Set();
  const onSpace = (id) => act(view.phase === "second" ? `camel ${id}` : `expand ${ui.family} ${id}`);
  const buttons = [];
  for (const verb of ["done", "pass"]) {
    if (moves.other.has(verb)) buttons.push(h("button", { class: "primary", "data-move": verb, onclick: () => act(verb) }, t(verb)));
  }
  const text = prompt(view, seat, moves, table, t, tr);
  const offer = offerPanel(view, moves, act, text, t, tr, table);
  root = h("section", { class: "samarkand" },
    offer,
    text && !offer ? h("div", { class: "banner sk-prompt", role: "status" }, text) : null,
    buttons.length ? h("div", { class: "sk-actions" }, buttons) : null,
    finalTable(view, table, t),
    handPanel(view, moves, act, t, tr),
    mapFrame(view, targets || new Set(), onSpace, t, tr),
    h("div", { class: "status-line" }, `${t("deck")}${t("colon")}${view.deck_size} · ${t("discardPile")}${t("colon")}${view.discard_size}`
      + (view.players === 2 ? ` · ${t("bag")}${t("colon")}${view.bag_size}` : "")),
    endNear(view, t, tr),
    familiesTable(view, moves, act, t, tr, table),
    playersTable(view, seat, table, t, tr));
  revealTargets(root);
  return root;
}
