// Crypt Companion page: one state snapshot from the server, redrawn on every live event.
"use strict";

const $ = (sel) => document.querySelector(sel);
let csrf = "";
let lastAccess = {};
let livePort = null;       // the live server's port (/api/state says), or null: /events on this port
let state = null;
let payMode = [];          // indexes of loose dice chosen to pay with
let tombD20s = "";  // d20s typed for the next Stage turn
let tombBrush = ".";
let paying = false;     // tapping dice chooses them to pay instead of laying them
let forcedFace = null;     // Rolling Bones: the die chosen to go in a wrong slot, waiting for its slot
let picked = null;         // Dark Tomb editor: a piece tapped, waiting for the cell to move it to
const KIOSK = document.body.classList.contains("kiosk");  // the table's screen (its header also holds the buttons)

const SHORT = (face) => face.replace("left-", "L ").replace("right-", "R ").replace("upper-arm", "upper arm")
  .replace("lower-leg", "lower leg");
const KIND = (face) => face.startsWith("left-") ? "left" : face.startsWith("right-") ? "right" : "center";
// Where each slot sits in a 7x7 picture of the skeleton (its right is on our left).
const SLOT_AT = {
  "skull": [0, 3], "right-hand": [1, 0], "right-forearm": [1, 1], "right-upper-arm": [1, 2], "ribcage": [1, 3],
  "left-upper-arm": [1, 4], "left-forearm": [1, 5], "left-hand": [1, 6], "spine": [2, 3], "pelvis": [3, 3],
  "right-thigh": [4, 2], "left-thigh": [4, 4], "right-lower-leg": [5, 2], "left-lower-leg": [5, 4],
  "right-foot": [6, 2], "left-foot": [6, 4],
};
const TITLES = { "rolling-bones": "Rolling Bones", "dark-tomb": "Dark Tomb", sepulchre: "Sepulchre",
  ghosts: "Ghosts in the Graveyard", mausoleum: "Mausoleum" };
const TERRAIN = { ".": "#5b5346", "#": "#1b1b1b", "O": "#7a6a4f", "~": "#2f6690", "G": "#8b3a3a", "g": "#c9a227", "?": "#3b3f46" };

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({ error: `server answered ${response.status}` }));
  if (!response.ok) { toast(data.error || `server answered ${response.status}`); return null; }
  if (data.game !== undefined) render(data);
  return data;
}

function toast(message) {
  const t = $("#toast");
  t.textContent = message; t.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// -- the common frame -------------------------------------------------------------------------

function render(s) {
  state = s;
  const ref = s.referee || {};
  $("#status").className = `pill ${ref.status || "ready"}`;
  $("#status").textContent = { ready: "ready", busy: "busy", look: KIOSK ? "check" : "needs a look", error: "error" }[ref.status] || "ready";
  $("#notice").textContent = ref.notice || "";
  if (s.access) lastAccess = s.access;  // the live server's snapshots are the same for every page: no access
  const access = lastAccess;
  $("#pinbar").hidden = access.may_change && !(access.on_pi && !access.pin_set);
  $("#login").hidden = access.may_change;
  $("#setpin").hidden = !(access.on_pi && !access.pin_set);
  const inert = s.inert || {};
  for (const b of document.querySelectorAll("#buttons button")) {
    b.disabled = !access.may_change;
    b.classList.toggle("inert", b.dataset.button in inert);  // still pressable: the answer is the hint
    b.title = inert[b.dataset.button] || "";
  }
  $("#title").textContent = (KIOSK && s.game === "ghosts" ? "Ghosts" : TITLES[s.game]) || "Crypt Companion";
  $("#mausoleum").hidden = s.game !== "mausoleum";
  if (s.game === "mausoleum" && typeof renderMausoleum === "function") renderMausoleum(s);
  $("#ghosts").hidden = s.game !== "ghosts";
  if (s.game === "ghosts" && typeof renderGhosts === "function") renderGhosts(s);
  $("#sepulchre").hidden = s.game !== "sepulchre";
  if (s.game === "sepulchre") renderSepulchre(s);
  $("#bones").hidden = s.game !== "rolling-bones";
  $("#tomb").hidden = s.game !== "dark-tomb";
  if (!s.game) $("#setup-details").open = true;
  if (s.game === "rolling-bones") renderBones(s);
  if (s.game === "dark-tomb") renderTomb(s);
  if (sheet.open) sheet.redraw();
  document.body.classList.toggle("menu", menuOpen || !s.game);
  $("#menu") && ($("#menu").textContent = menuOpen && s.game ? "Back" : "Games");
}

// The kiosk's Games menu: the setup in place of the game, one tab at a time (nothing below the fold).
let menuOpen = false;
function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("go", b.dataset.tab === name);
  for (const t of document.querySelectorAll("#setup-details > form, #teach, #teach-pieces, #phones")) t.hidden = t.id !== name;
  if (name === "teach") teachStatus(null);
  if (name === "teach-pieces") teachPiecesStatus(null);
}

// -- Rolling Bones ----------------------------------------------------------------------------

function renderBones(s) {
  const turn = s.turn;
  const root = $("#bones");
  root.replaceChildren();
  // three columns on a landscape kiosk: the table's scores and advice, the skeleton, the dice and what to do
  const left = el("div", { class: "col" });
  const middle = el("div", { class: "col" });
  const right = el("div", { class: "col" });
  root.append(el("div", { class: "bones-grid" }, left, middle, right));

  if (s.winner) left.append(el("p", { class: "winner" }, `${s.winner} wins!`));
  const table = el("table", { class: "scores" });
  s.players.forEach((p, i) => table.append(el("tr", { class: i === s.current ? "current" : "" },
    el("td", {}, p), el("td", {}, s.scores[i]))));
  left.append(el("h2", {}, `Scores (to ${s.target})`), table, chart(s));

  const sk = el("div", { class: "skeleton", "data-testid": "skeleton" });
  const cells = Array.from({ length: 49 }, () => el("div"));
  for (const [slot, [r, c]] of Object.entries(SLOT_AT)) {
    const face = turn.layout.slots[slot];
    const cls = face ? (face === slot ? "correct" : "wrong") : "";
    const hat = slot === "skull" && turn.layout.hat ? " hat" : "";
    const picture = [facePicture(face || slot, 30)];  // an empty slot shows its own bone, dimmed
    if (hat) picture.push(facePicture("hat", 22));  // the hat sits on the skull: drawn, not an emoji
    cells[r * 7 + c] = el("div", { class: `slot ${cls}${hat}`, title: slot, "aria-label": face ? `${face} in ${slot}` : `${slot}: empty` }, ...picture);
  }
  sk.append(...cells);
  middle.append(el("h2", {}, `${s.player}: ${turn.score} point${turn.score === 1 ? "" : "s"}`), sk);

  const info = el("p", { class: "next-step" }, turn.phase === "over" ? `${turn.why}.`
    : turn.phase === "throw" ? (turn.post_ops ? `Throw the ${diceLeft(turn)} dice left (post-op roll ${turn.post_ops}).`
      : "Throw all 18 dice, then press UNDERTAKER.")
      : `Tap a green die to lay it. Next post-op roll costs ${turn.next_cost}.`);
  right.append(info);
  if (turn.phase === "over" && !s.winner) right.append(el("button", { class: "big go", "data-next": "",
    onclick: () => api("/api/button/turn") }, "Next player (TURN)"));

  if (turn.phase === "lay") {
    const legal = new Set(turn.legal.map((m) => m.face));
    const dice = el("div", { class: "dice", "data-testid": "loose-dice" });
    turn.loose.forEach((face, i) => {
      const chosen = payMode.includes(i);
      dice.append(el("button", {
        class: `die ${KIND(face)} ${legal.has(face) ? "legal" : ""} ${chosen ? "pay" : ""}`, title: face, "aria-label": face,
        onclick: () => tapDie(face, i, turn),
      }, facePicture(face, 34), el("small", {}, SHORT(face))));
    });
    right.append(dice);
    const forced = turn.legal.length && turn.legal.every(wrongBone);
    if (forced) {
      info.replaceWith(el("p", { class: "flag", "data-testid": "forced" },
        "Nothing fits: one bone must go in a wrong slot (-5). Tap a die, then the slot."));
      const slots = turn.legal.filter((m) => m.face === forcedFace);
      if (slots.length) right.append(el("div", { class: "row", "data-testid": "forced-slots" }, slots.map((m) =>
        el("button", { class: "big go", "data-next": "", onclick: () => api("/api/command", { type: "lay", face: m.face, slot: m.slot })
          .then(() => { forcedFace = null; }) }, `${SHORT(m.face)} in ${SHORT(m.slot)}`))));
      else dice.setAttribute("data-next", "");
    } else {
      forcedFace = null;
      if (!turn.can_bury && legal.size) dice.setAttribute("data-next", "");
    }
    const row = el("div", { class: "row" });
    if (turn.can_bury) row.append(el("button", { class: "big go", "data-next": "", onclick: () => api("/api/command", { type: "bury" }) }, `Bury (${turn.score})`));
    if (turn.layout.hat) row.append(el("button", { onclick: () => api("/api/command", { type: "take_hat" }) }, "Take the hat back"));
    // paying is two taps: Pay chooses, the dice tapped are the ones paid, Pay again rolls
    const pay = () => {
      if (!paying) { paying = true; payMode = []; return render(state); }
      if (payMode.length !== turn.next_cost) return toast(`Tap ${turn.next_cost} dice to pay, then Pay`);
      api("/api/command", { type: "pay", dice: payMode.map((i) => turn.loose[i]) }).then(() => { payMode = []; paying = false; });
    };
    row.append(el("button", { ...(!turn.can_bury && !legal.size ? { "data-next": "", class: "big" } : {}), onclick: pay },
      paying ? `Pay ${payMode.length}/${turn.next_cost} and roll again` : `Pay ${turn.next_cost} and roll again…`));
    if (paying) row.append(el("button", { onclick: () => { paying = false; payMode = []; render(state); } }, "Not paying"));
    right.append(row);
    adviceHint(left);
    bestHint(left);
  }
  if (turn.phase === "throw" && !s.winner) {
    right.append(el("button", { class: "big go", "data-next": "", onclick: () => api("/api/button/undertaker") }, "Read the photo"),
      el("div", { class: "row" }, el("button", { onclick: () => api("/api/bones/throw") }, "Throw for me"),
        el("button", { "data-testid": "throw-by-touch-open", onclick: () => openSheet(throwByTouch) }, "Enter by touch")));
  }
  const reading = (s.referee || {}).reading;
  if (reading && reading.photo) {
    const photo = readingPhoto(reading);
    if (reading.unreadable.length) {
      right.append(el("p", { class: "flag" }, `${reading.unreadable.length} dice not readable: `,
        el("button", { class: "big go", "data-next": "", "data-testid": "name-dice", onclick: () => openSheet(() => namingSheet()) },
          "Name them on the photo")));
    } else middle.append(el("div", { class: "photo thumb" }, photo));
  }
}

// The photo of the latest throw, each unreadable die marked where it lies: tap the mark to name it.
function readingPhoto(reading, onPick) {
  const box = el("div", { class: "photo-marks" }, el("img", { src: `/photos/${reading.photo}`, alt: "the latest throw, dice outlined" }));
  const img = box.firstChild;
  const place = () => {
    if (!img.naturalWidth) return;
    box.querySelectorAll(".mark").forEach((m) => m.remove());
    reading.unreadable.forEach((die, i) => box.append(el("button", {
      class: `mark ${i === namingDie ? "chosen" : ""}`, "aria-label": `unreadable die ${i + 1}: ${die.why}`, title: die.why,
      style: `left:${100 * die.center[0] / img.naturalWidth}%;top:${100 * die.center[1] / img.naturalHeight}%`,
      onclick: () => onPick && onPick(i) }, `?${i + 1}`)));
  };
  img.addEventListener("load", place);
  if (img.complete) place();
  return box;
}

// Naming the dice the camera could not read, right on the photo: tap a ringed die, then its face.
let namingDie = 0;
function namingSheet() {
  const reading = ((state || {}).referee || {}).reading;
  if (!reading || !reading.unreadable || !reading.unreadable.length) { closeSheet(); return []; }
  namingDie = Math.min(namingDie, reading.unreadable.length - 1);
  const die = reading.unreadable[namingDie];
  const likely = (die.could_be || []).filter((f) => FACES.includes(f));  // the faces the reader could not choose between: offered first
  const faces = [...likely, ...FACES.filter((f) => !likely.includes(f))];
  return [el("h2", {}, `Die ?${namingDie + 1}: ${die.why}. Tap its face.`),
    el("div", { class: "naming" }, readingPhoto(reading, (i) => { namingDie = i; sheet.redraw(); }),
      el("div", { class: "dice", "data-testid": "name-faces", "data-next": "" }, faces.map((f) => el("button", { class: `die ${KIND(f)}${likely.includes(f) ? " likely" : ""}`, title: `it is ${f}`,
        "aria-label": `it is ${f}`, onclick: () => api("/api/bones/name-die", { index: namingDie, face: f }) }, facePicture(f, 30)))))];
}

// One panel over the game for a step that needs the room (the throw by touch, naming dice, counting graves).
const sheet = { open: false, draw: null, redraw() {
  const box = $("#sheet");
  const body = this.draw();
  if (!this.open) return;
  box.replaceChildren(el("div", { class: "row sheet-bar" }, el("button", { class: "close", onclick: closeSheet }, "Close")), ...body);
} };
function openSheet(draw) { sheet.open = true; sheet.draw = draw; $("#sheet").hidden = false; document.body.classList.add("sheet-open"); sheet.redraw(); }
function closeSheet() { sheet.open = false; $("#sheet").hidden = true; $("#sheet").replaceChildren(); document.body.classList.remove("sheet-open"); }

const FACES = ["left-upper-arm", "left-forearm", "left-hand", "left-thigh", "left-lower-leg", "left-foot",
  "right-upper-arm", "right-forearm", "right-hand", "right-thigh", "right-lower-leg", "right-foot",
  "hat", "skull", "ribcage", "spine", "pelvis", "gravestone"];

// The camera's touch fallback: the throw tapped in, die by die, checked against the dice there are to throw.
let tapped = [];

function throwByTouch() {
  if (!state || state.game !== "rolling-bones" || state.turn.phase !== "throw") { closeSheet(); return []; }
  const need = Object.fromEntries(state.turn.to_throw || []);
  const have = { left: 0, right: 0, center: 0 };
  for (const f of tapped) have[KIND(f)] += 1;
  const counts = Object.keys(need).map((k) => `${have[k]}/${need[k]} ${k}`).join(" · ");
  return [el("div", { class: "by-touch", "data-testid": "throw-by-touch" },
    el("p", {}, `Tap each die's face (${counts}); tap a chosen die to take it out.`),
    el("div", { class: "dice" }, FACES.map((f) => el("button", { class: `die ${KIND(f)}`, title: `add ${f}`, "aria-label": `add ${f}`,
      onclick: () => { if (have[KIND(f)] < (need[KIND(f)] || 0)) tapped = [...tapped, f]; else toast(`all the ${KIND(f)} dice are in`); sheet.redraw(); } },
    facePicture(f, 30)))),
    el("strong", {}, tapped.length ? "Thrown:" : "Thrown: none yet"),
    el("div", { class: "dice tapped", "data-testid": "tapped" }, tapped.map((f, i) => el("button", { class: `die ${KIND(f)} pay`, title: `take out ${f}`,
      "aria-label": `take out ${f}`, onclick: () => { tapped = tapped.filter((_, j) => j !== i); sheet.redraw(); } }, facePicture(f, 30)))),
    el("button", { class: "big go", "data-next": "", onclick: () => api("/api/command", { type: "roll", faces: tapped }).then((d) => { if (d) tapped = []; }) },
      `Record this throw (${tapped.length} dice)`))];
}

const wrongBone = (m) => Boolean(m.slot) && m.slot !== m.face && m.face !== "hat";  // the hat's slot is the skull

function diceLeft(turn) { return Object.values(Object.fromEntries(turn.to_throw || [])).reduce((a, b) => a + b, 0) || ""; }

function tapDie(face, i, turn) {
  if (paying) {
    payMode = payMode.includes(i) ? payMode.filter((j) => j !== i) : [...payMode, i];
    render(state);
    return;
  }
  const moves = turn.legal.filter((m) => m.face === face);
  if (!moves.length) return toast(`${face} cannot be laid now`);
  if (face === "gravestone") return api("/api/command", { type: "bury" });
  if (moves.length === 1 && !wrongBone(moves[0])) return api("/api/command", { type: "lay", face, slot: moves[0].slot });
  forcedFace = face;  // a wrong bone (-5): the page offers its slots as buttons, however few
  render(state);
}

async function bestHint(parent) {
  const hint = el("p", { class: "hint", "data-testid": "best" });
  parent.append(hint);
  const data = await (await fetch("/api/bones/best")).json();
  if (!data.best) return;
  const now = state.turn.layout.slots;
  const lay = Object.keys(data.best.layout.slots).filter((s) => !(s in now));
  const hat = data.best.layout.hat && !state.turn.layout.hat ? " + hat" : "";
  hint.textContent = `Best now: ${data.best.score} points` + (lay.length || hat ? ` (lay ${lay.map(SHORT).join(", ")}${hat})` : "")
    + (data.best.can_bury ? " — a gravestone shows: you may bury" : "");
}

// The points play first (from the remembered search, at once), then the line again with the
// chance to win added. The page stays live and fills this in when each answers.
let adviceAsked = "";
async function adviceHint(parent) {
  const hint = el("p", { class: "hint advice", "data-testid": "advice" }, "Advisor: thinking…");
  parent.append(hint);
  const asked = JSON.stringify([state.turn.layout, state.turn.loose, state.turn.post_ops, state.turn.laid_this_roll]);
  adviceAsked = asked;
  for (const url of ["/api/bones/advice?win=0", "/api/bones/advice"]) {
    const data = await (await fetch(url)).json();
    if (adviceAsked !== asked) { hint.remove(); return; }
    if (data.busy) {  // an earlier search still runs: ask again shortly while this roll is on the table
      hint.textContent = "Advisor: still thinking about an earlier roll…";
      setTimeout(() => { if (adviceAsked === asked && hint.isConnected) { hint.remove(); adviceHint(parent); } }, 3000);
      return;
    }
    if (!data.advice) { hint.remove(); return; }
    hint.textContent = "Advisor: " + data.advice.summary + (data.advice.exact ? "" : " (estimate)");
  }
}

function chart(s) {
  const w = 300, h = 120, pad = 18;
  const totals = s.players.map(() => [0]);
  for (const [player, points] of s.history) {
    const i = s.players.indexOf(player);
    totals.forEach((t, j) => t.push(t[t.length - 1] + (j === i ? points : 0)));
  }
  const n = Math.max(1, totals[0].length - 1);
  const top = Math.max(s.target, ...totals.flat());
  const x = (k) => pad + (k / n) * (w - 2 * pad), y = (v) => h - pad - (v / top) * (h - 2 * pad);
  const colours = ["#58a6ff", "#f7768e", "#3fb950", "#e3a008", "#bb9af7", "#7dcfff"];
  const g = svg("svg", { viewBox: `0 0 ${w} ${h}`, "data-testid": "chart", role: "img", "aria-label": "score history" },
    svg("line", { x1: pad, x2: w - pad, y1: y(s.target), y2: y(s.target), stroke: "#555", "stroke-dasharray": "4" }));
  // names at their lines' ends, one under another where scores are level (at the start all are)
  const ends = totals.map((t, i) => ({ i, y: y(t[t.length - 1]) - 3 })).sort((a, b) => a.y - b.y);
  ends.forEach((e, k) => { if (k && e.y - ends[k - 1].y < 11) e.y = ends[k - 1].y + 11; });
  ends.forEach(({ i, y: labelY }) => g.append(svg("polyline", { fill: "none", stroke: colours[i % 6], "stroke-width": 2.5,
    points: totals[i].map((v, k) => `${x(k)},${y(v)}`).join(" ") }),
    svg("text", { x: x(totals[i].length - 1) + 2, y: labelY, "font-size": 10, style: `fill:${colours[i % 6]}` }, s.players[i])));
  return g;
}

// -- Dark Tomb --------------------------------------------------------------------------------

function renderTomb(s) {
  const root = $("#tomb");
  root.replaceChildren();
  const mapBox = el("div", { class: "map" });
  const side = el("div", { class: "col tomb-side" });
  root.append(el("div", { class: "tomb-grid" }, mapBox, side));
  const sc = s.scenario, W = s.width, H = s.height, C = 40, M = 32;  // M: the margin the coordinates are written in
  const head = (id, colour) => svg("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" },
    svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
  const picture = svg("svg", { viewBox: `${-M} ${-M} ${W * C + M} ${H * C + M}`, "data-testid": "map" },
    svg("defs", {}, head("arrow", "#f85149"), head("flee", "#e3a008")));
  // the reasons name cells [x, y]: the map writes x along the top and y down the side
  for (let x = 0; x < W; x++) picture.append(svg("text", { x: x * C + C / 2, y: -5, "text-anchor": "middle", "font-size": 25, class: "coord" }, x));
  for (let y = 0; y < H; y++) picture.append(svg("text", { x: -4, y: y * C + C / 2 + 9, "text-anchor": "end", "font-size": 25, class: "coord" }, y));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const t = (sc.map[y] || "")[x] || "?";
      picture.append(svg("rect", { x: x * C, y: y * C, width: C - 1, height: C - 1, fill: TERRAIN[t], "data-cell": `${x},${y}`,
        style: "cursor:pointer" }));
    }
  }
  picture.addEventListener("click", (e) => {
    const cell = e.target.getAttribute && e.target.getAttribute("data-cell");
    if (!cell) return;
    const [x, y] = cell.split(",").map(Number);
    const here = (sc.map[y] || "")[x] || "?";
    if (tombBrush === "move") {
      const piece = [...sc.characters, ...sc.monsters].find((p) => p.hp >= 1 && p.pos[0] === x && p.pos[1] === y);
      if (piece) { picked = piece.id; toast(`${piece.id}: now tap where it goes`); return; }
      if (picked) { api("/api/command", { type: "move", id: picked, pos: [x, y] }); picked = null; }
      return;
    }
    if (tombBrush === "reveal") api("/api/command", { type: "reveal", cell: [x, y], terrain: "." });
    else if (here !== tombBrush) api("/api/command", { type: "paint", cell: [x, y], terrain: tombBrush });
  });
  // a piece dragged to a cell moves there (as tapping it, then the cell, does)
  picture.addEventListener("pointerdown", (e) => {
    const cell = e.target.tagName === "circle" && e.target.getAttribute("data-cell");
    const [x, y] = cell ? cell.split(",").map(Number) : [];
    const piece = cell && [...sc.characters, ...sc.monsters].find((p) => p.hp >= 1 && p.pos[0] === x && p.pos[1] === y);
    if (piece) { dragged = { id: piece.id, from: cell }; e.preventDefault(); }
  });
  const centre = (p) => [p[0] * C + C / 2, p[1] * C + C / 2];
  const short = (x1, y1, x2, y2) => {  // an arrow stops at the piece's edge, so its head shows
    const d = Math.hypot(x2 - x1, y2 - y1) || 1, back = C * 0.42;
    return { x1, y1, x2: x2 - (x2 - x1) * back / d, y2: y2 - (y2 - y1) * back / d };
  };
  const last = s.last_turn;
  const earlier = last && last.round !== s.round;  // a later round's heading: the last Stage turn's arrows, faded
  if (last) {
    const arrows = svg("g", { class: earlier ? "earlier" : "", opacity: earlier ? 0.45 : 1 });
    picture.append(arrows);
    for (const a of last.activations) {
      const [x1, y1] = centre(a.from), [x2, y2] = centre(a.to);
      if (x1 !== x2 || y1 !== y2) {
        arrows.append(svg("circle", { cx: x1, cy: y1, r: C * 0.3, fill: "none", stroke: "#f85149", "stroke-dasharray": "3" }));
        arrows.append(svg("line", { ...short(x1, y1, x2, y2), stroke: "#f85149", "stroke-width": 3, "marker-end": "url(#arrow)", class: "move" }));
      }
      if (a.fled_to) {  // a flee: amber dots, its own head, from where the monster stood
        const [x3, y3] = centre(a.fled_to);
        arrows.append(svg("line", { ...short(x2, y2, x3, y3), stroke: "#e3a008", "stroke-width": 3, "stroke-dasharray": "2 5",
          "stroke-linecap": "round", "marker-end": "url(#flee)", class: "flee" }));
      }
    }
  }
  const label = shortNames([...sc.characters, ...sc.monsters].map((p) => p.id));
  const piece = (p, colour) => {
    if (p.hp < 1) return;
    const [cx, cy] = centre(p.pos);
    picture.append(svg("circle", { cx, cy, r: C * 0.38, fill: colour, stroke: "#000", "data-cell": `${p.pos[0]},${p.pos[1]}`,
      style: "cursor:grab; touch-action:none" }),
      svg("text", { x: cx, y: cy + 9, "text-anchor": "middle", "font-size": 25, "font-weight": 700, style: "fill:#000",
        "pointer-events": "none" }, label[p.id]));
  };
  sc.characters.forEach((c) => piece(c, "#58a6ff"));
  sc.monsters.forEach((m) => piece(m, "#f85149"));
  mapBox.append(picture);

  // the brushes are the legend: each terrain's swatch and name, then what the pieces and arrows mean
  const swatch = (colour) => el("span", { class: "swatch", style: `background:${colour}` });
  const brush = ([t, name]) => el("label", {}, el("input", { type: "radio", name: "brush", value: t, ...(tombBrush === t ? { checked: "" } : {}),
    onchange: () => { tombBrush = t; } }), t in TERRAIN ? swatch(TERRAIN[t]) : "", name);
  mapBox.append(el("div", { class: "palette legend row", "data-testid": "legend" }, "Tap:",
    ...[[".", "ground"], ["#", "wall"], ["O", "obstacle"], ["~", "water"], ["G", "gate"], ["g", "open gate"], ["?", "face-down"],
      ["reveal", "reveal"], ["move", "move a piece"]].map(brush),
    el("span", {}, swatch("#58a6ff"), " character"), el("span", {}, swatch("#f85149"), " monster"),
    el("span", { style: "color:#f85149" }, "→ moved"), el("span", { style: "color:#e3a008" }, "··› fled")));

  side.append(el("h2", {}, s.whose_turn === "stage" ? `Round ${s.round}: the Stage turn` : `Round ${s.round}: ${s.whose_turn}'s turn`));
  if (last && last.stage_complete) side.append(el("p", { class: "winner" }, "Stage complete!"));
  else if (last && last.party_defeated) side.append(el("p", { class: "winner", style: "color:var(--red)" }, "The party is defeated."));
  else if (s.whose_turn === "stage" && !s.stage_done) {
    // The page is redrawn on every update: what was typed lives outside the input, or a redraw would drop it.
    const rolls = el("input", { id: "d20s", placeholder: "d20s rolled, e.g. 7 14 3", size: 12,
      value: tombD20s, oninput: (e) => { tombD20s = e.target.value; } });
    side.append(el("button", { class: "big go", "data-next": "", onclick: () => {
      const entered = tombD20s.split(/[\s,]+/).filter(Boolean).map(Number);
      api("/api/command", { type: "stage_turn", rolls: entered }).then((done) => { if (done) tombD20s = ""; });
    } }, "Run the Stage turn"), el("div", { class: "row" }, rolls, el("span", { class: "dim" }, "(or leave it to me)")));
  } else {
    side.append(el("p", { class: "next" }, s.stage_done ? "Move the minis on the table as the map shows, then press TURN."
      : `${s.whose_turn}: play your turn on the table, then press TURN.`),
      el("button", { class: "big go", "data-next": "", onclick: () => api("/api/button/turn") }, "Next turn (TURN)"));
  }
  const hp = el("ul", { class: "hp" });
  sc.characters.forEach((c) => hp.append(el("li", {}, `${c.id} (${label[c.id]}): ${c.hp < 1 ? "defeated" : `${c.hp}/${c.max_hp} HP`}`)));
  sc.monsters.forEach((m) => hp.append(el("li", {}, `${m.id} (${label[m.id]}): ${m.hp < 1 ? "defeated" : `${m.hp} HP`}`)));
  side.append(hp);
  if (last) {
    side.append(el("strong", {}, `The Stage turn of round ${last.round}${earlier ? " (faded on the map)" : ""}:`));
    const list = el("ol", { class: "why", "data-testid": "why" });
    list.append(el("li", {}, `Seismic d20: ${last.seismic.roll}${last.seismic.quake ? " — QUAKE! every character −1 HP" : ""}`));
    for (const a of last.activations) {
      const rolls = a.attacks.map((r) => el("span", { class: r.hit ? "hit" : "miss" }, ` [${r.target}: ${r.roll}→${r.total} ${r.hit ? `hit −${r.damage}` : "miss"}]`));
      list.append(el("li", {}, el("strong", {}, a.monster), `: ${a.why}`, ...rolls));
    }
    side.append(list);
  }
}

let dragged = null;  // Dark Tomb: the piece being dragged, and the cell it left
window.addEventListener("pointerup", (e) => {
  if (!dragged) return;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const cell = under && under.getAttribute && under.getAttribute("data-cell");
  if (cell && cell !== dragged.from) api("/api/command", { type: "move", id: dragged.id, pos: cell.split(",").map(Number) });
  dragged = null;
});

// The shortest start of each name that no other name shares (a piece's label on the map).
function shortNames(names) {
  const out = {};
  for (const n of names) {
    let k = 1;
    while (k < n.length && names.some((m) => m !== n && m.startsWith(n.slice(0, k)))) k += 1;
    out[n] = n.slice(0, k);
  }
  return out;
}

// -- Sepulchre ---------------------------------------------------------------------------------

const PIECES = ["skull", "ribs", "pelvis", "arm", "leg"];

function renderSepulchre(s) {
  const root = $("#sepulchre");
  root.replaceChildren();
  const left = el("div", { class: "col" });
  const right = el("div", { class: "col" });
  root.append(el("div", { class: "sepulchre-grid" }, left, right));
  if (s.winner) left.append(el("p", { class: "winner" }, s.over ? `${s.winner} wins!` : `${s.finished.join(", ")} finished — the game goes on`));
  left.append(el("h2", {}, `${s.player}'s turn · ${s.cards_left} Decay/Cemetery card${s.cards_left === 1 ? "" : "s"} left`));
  const row = el("div", { class: "row", "data-testid": "graves" });
  for (const name of s.players) {
    const g = s.graves[name];
    const card = el("div", { class: `grave ${name === s.player ? "current" : ""}` },
      el("div", {}, el("strong", {}, name), `: ${g.complete} complete skeleton${g.complete === 1 ? "" : "s"}`),
      el("div", { class: "dim" }, "in progress: " + (PIECES.filter((p) => g.in_progress[p]).map((p) => `${g.in_progress[p]} ${p}`).join(", ") || "nothing")));
    row.append(card);
  }
  left.append(row);
  left.append(el("p", {}, "Ossuary: " + PIECES.map((p) => `${s.ossuary[p]} ${p}`).join(" · ")));
  if (s.last_change.length) left.append(el("p", { class: "hint" }, "Last change: " + s.last_change.join("; ")));
  if (s.overrides.length) left.append(el("p", { class: "dim" }, "Overrides: " + s.overrides.join(" | ")));
  const ref = s.referee || {};
  if (ref.graves_photo) right.append(el("div", { class: "photo" },
    el("img", { src: `/photos/${ref.graves_photo}`, alt: "the graves, unreadable pieces ringed" })));
  if (ref.flagged_graves) {
    const reason = el("input", { placeholder: "why (recorded)", size: 14 });
    right.append(el("p", { class: "flag" }, ref.notice), el("div", { class: "row" },
      reason, el("button", { onclick: () => api("/api/sepulchre/override", { reason: reason.value }) }, "Override")));
  }
  const counting = !s.over;
  if (counting && !ref.flagged_graves) right.append(el("button", { class: "big go", "data-next": "", onclick: () => api("/api/button/undertaker") },
    "Read the graves (UNDERTAKER)"));
  if (counting) right.append(el("button", { class: ref.flagged_graves ? "big go" : "", ...(ref.flagged_graves ? { "data-next": "" } : {}),
    "data-testid": "graves-by-touch-open", onclick: () => openSheet(sepulchreByTouch) }, "Count the graves by touch"));
}

// Every camera step has a touch fallback: the graves counted by hand, through the same Undertaker checks.
let sepEntry = null;     // {grave: {piece: n}} as tapped, from the graves recorded
let sepRefused = false;  // the last counts were refused by a rule: offer the override

function sepulchreByTouch() {
  const s = state;
  if (!s || s.game !== "sepulchre") { closeSheet(); return []; }
  const recorded = JSON.stringify(Object.fromEntries(s.players.map((n) => [n, s.graves[n].pieces])));
  if (!sepEntry || sepEntry.from !== recorded) sepEntry = { from: recorded, graves: JSON.parse(recorded) };
  const graves = sepEntry.graves;
  // a grid: a row a piece type, a column a grave, each count between its - and + buttons
  const grid = el("div", { class: "counts", style: `grid-template-columns: auto repeat(${s.players.length}, auto)` }, el("span"),
    ...s.players.map((name) => el("strong", { "data-grave": name }, name)));
  for (const piece of PIECES) {
    grid.append(el("span", {}, piece));
    for (const name of s.players) {
      const step = (by) => () => { graves[name][piece] = Math.max(0, graves[name][piece] + by); sepRefused = false; sheet.redraw(); };
      grid.append(el("span", { class: "stepper" }, el("button", { "aria-label": `one ${piece} less in ${name}`, onclick: step(-1) }, "−"),
        el("span", { class: "count" }, graves[name][piece]), el("button", { "aria-label": `one ${piece} more in ${name}`, onclick: step(1) }, "+")));
    }
  }
  const box = el("div", { class: "by-touch", "data-testid": "graves-by-touch" }, el("h2", {}, "The pieces in each grave"), grid);
  const record = (command) => api("/api/command", command).then((done) => {
    sepRefused = !done;
    if (done) { sepEntry = null; closeSheet(); } else sheet.redraw();
  });
  const actions = el("div", { class: "row" },
    el("button", { class: "big go", "data-next": "", onclick: () => record({ type: "observe", graves }) }, "Record these counts"),
    el("button", { onclick: () => { sepEntry = null; sepRefused = false; sheet.redraw(); } }, "Start again"));
  if (sepRefused) actions.append(el("button", { onclick: () => record({ type: "override", graves, reason: "counted by touch: the table agrees" }) },
    "Record anyway (override: the table agrees)"));
  box.append(actions);
  return [box];
}

// -- wiring -----------------------------------------------------------------------------------

function startGame(game, setup) {
  // a game in progress is replaced only when the table says so (and UNDO brings it back)
  const go = () => api("/api/new-game", { game, setup }).then((d) => {
    if (d) { if (!KIOSK) $("#setup-details").open = false; menuOpen = false; render(state); }
    return d;
  });
  if (!state || !state.game || !state.actions || state.over || state.winner) return go();
  const bar = $("#confirm");
  bar.replaceChildren(el("span", {}, `Replace the ${TITLES[state.game] || state.game} game in progress? UNDO brings it back.`),
    el("button", { class: "go", onclick: () => { bar.hidden = true; go(); } }, "Replace it"),
    el("button", { onclick: () => { bar.hidden = true; } }, "Keep playing"));
  bar.hidden = false;
  return Promise.resolve(null);
}

document.querySelectorAll("#buttons button").forEach((b) =>
  b.addEventListener("click", () => api(`/api/button/${b.dataset.button}`)));
$("#new-bones").addEventListener("submit", (e) => {
  e.preventDefault();
  const players = $("#players").value.split(",").map((p) => p.trim()).filter(Boolean);
  startGame("rolling-bones", { players, target: Number($("#target").value) });
});
$("#new-sepulchre").addEventListener("submit", (e) => {
  e.preventDefault();
  const players = $("#sep-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  startGame("sepulchre", { players, sets: Number($("#sep-sets").value),
    alternate: $("#sep-alternate").checked, long_play: $("#sep-long").checked });
});
if ($("#menu")) {
  $("#menu").addEventListener("click", () => { menuOpen = !menuOpen; if (state) render(state); });
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  showTab("new-bones");
}
$("#tomb-demo").addEventListener("click", async () => {
  startGame("dark-tomb", { scenario: await (await fetch("/api/tomb/demo-stage")).json() });
});
$("#tomb-room").addEventListener("click", async () => {
  // an empty room of the size asked, walls round it, the demo's party and monsters along its floor
  const demo = await (await fetch("/api/tomb/demo-stage")).json();
  const w = Number($("#tomb-width").value), h = Number($("#tomb-height").value);
  if (!(w >= 3 && w <= 32 && h >= 3 && h <= 32)) return toast("a room is 3 to 32 cells each way");
  const map = Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) =>
    (x === 0 || y === 0 || x === w - 1 || y === h - 1) ? "#" : ".").join(""));
  const floor = [];
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) floor.push([x, y]);
  const pieces = [...demo.characters, ...demo.monsters];
  if (pieces.length > floor.length) return toast(`a room that small has no floor for ${pieces.length} pieces`);
  const spread = (i) => floor[Math.floor(i * floor.length / pieces.length)];
  let k = 0;
  const place = (p) => ({ ...p, pos: spread(k++) });
  startGame("dark-tomb", { scenario: { ...demo, map, characters: demo.characters.map(place), monsters: demo.monsters.map(place) } });
});
$("#demo-stage").addEventListener("click", async () => {
  $("#scenario").value = JSON.stringify(await (await fetch("/api/tomb/demo-stage")).json(), null, 1);
});
$("#new-tomb").addEventListener("submit", (e) => {
  e.preventDefault();
  let scenario;
  try { scenario = JSON.parse($("#scenario").value); } catch (err) { return toast(`scenario is not valid JSON: ${err.message}`); }
  startGame("dark-tomb", { scenario });
});
async function teachStatus(d) {
  if (!d) d = await (await fetch("/api/dice/teach")).json();  // refused: the toast says why; show where things are
  let text = `${d.photos} of ${d.needed} photos taken`;
  if (d.learned) {
    const faces = Object.keys(d.learned).length;
    text = `learned ${faces} faces (die ${d.die_side} px) as set "${d.set}": the table reads them now`;
    if (d.left_out.length) text += `; not used: ${d.left_out.join("; ")}`;
    if (d.warning) text += `; ${d.warning}`;
  }
  $("#teach-status").textContent = text;
}
$("#teach").addEventListener("toggle", () => { if ($("#teach").open) teachStatus(null); });
$("#teach-photo").addEventListener("click", () => {
  $("#teach-status").textContent = "taking a photo…";
  api("/api/dice/teach/photo").then(teachStatus);
});
$("#teach-learn").addEventListener("click", () => {
  $("#teach-status").textContent = "learning the dice…";
  api("/api/dice/teach/learn").then(teachStatus);
});
$("#teach-clear").addEventListener("click", () => api("/api/dice/teach/clear").then(teachStatus));
const PIECE_NAMES = { skull: "Skull", ribs: "Rib comb", pelvis: "Pelvis", arm: "Arm", leg: "Leg" };
async function teachPiecesStatus(d) {
  if (!d) d = await (await fetch("/api/pieces/teach")).json();  // refused: the toast says why; show where things are
  for (const b of document.querySelectorAll("#teach-pieces-types button")) {
    b.textContent = `${PIECE_NAMES[b.dataset.piece]} ${d.photos[b.dataset.piece]} of ${d.needed}`;
  }
  const short = Object.keys(d.photos).filter((k) => d.photos[k] < d.needed).map((k) => PIECE_NAMES[k].toLowerCase());
  let text = short.length ? `more photos of: ${short.join(", ")}` : "every type photographed: learn the pieces";
  if (d.learned) text = `learned ${d.learned} photos as set "${d.set}": the table reads the graves with them now`;
  $("#teach-pieces-status").textContent = text;
}
$("#teach-pieces").addEventListener("toggle", () => { if ($("#teach-pieces").open) teachPiecesStatus(null); });
for (const b of document.querySelectorAll("#teach-pieces-types button")) {
  b.addEventListener("click", () => {
    $("#teach-pieces-status").textContent = "taking a photo…";
    api("/api/pieces/teach/photo", { type: b.dataset.piece }).then(teachPiecesStatus);
  });
}
$("#teach-pieces-learn").addEventListener("click", () => {
  $("#teach-pieces-status").textContent = "learning the pieces…";
  api("/api/pieces/teach/learn").then(teachPiecesStatus);
});
$("#teach-pieces-undo").addEventListener("click", () => api("/api/pieces/teach/undo").then(teachPiecesStatus));
$("#teach-pieces-clear").addEventListener("click", () => api("/api/pieces/teach/clear").then(teachPiecesStatus));
$("#login").addEventListener("submit", (e) => { e.preventDefault(); api("/api/login", { pin: $("#pin").value }).then(refresh); });
$("#setpin").addEventListener("submit", (e) => { e.preventDefault(); api("/api/pin", { pin: $("#newpin").value }).then(refresh); });

async function refresh() {
  const data = await (await fetch("/api/state")).json();
  csrf = data.csrf;
  livePort = data.live_port || null;
  render(data);
}

function connect(sameOrigin = false) {
  const url = livePort && !sameOrigin ? `${location.protocol}//${location.hostname}:${livePort}/events` : "/events";
  const source = new EventSource(url);
  let opened = false;
  // a live port that never answers (a firewall dropping packets says no error for a long while): this port's stream
  const wait = url !== "/events" ? setTimeout(() => { if (!opened) { source.close(); connect(true); } }, 4000) : null;
  source.onopen = () => { opened = true; clearTimeout(wait); $("#live").className = "live on"; };
  source.onmessage = (e) => render(JSON.parse(e.data));
  source.onerror = () => {
    $("#live").className = "live off";  // a dropped stream reconnects by itself
    if (!opened && url !== "/events") { clearTimeout(wait); source.close(); return connect(true); }  // live port unreachable: this port's stream
    if (source.readyState === EventSource.CLOSED) pollThenReconnect();  // refused (the server is full): poll a while
  };
}

function pollThenReconnect() {
  const poll = setInterval(() => refresh().catch(() => {}), 3000);
  setTimeout(() => { clearInterval(poll); connect(); }, 15000);
}

// The kiosk's browser can start before the server answers, or a first answer can be lost: try again, a little
// later each time, until the page has the state; only then open the live stream (it needs the live port).
async function start() {
  for (let wait = 500; ; wait = Math.min(wait * 2, 8000)) {
    try {
      await refresh();
      return connect();
    } catch (error) {
      console.error("the table's state did not load; trying again:", error);
      $("#live").className = "live off";
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

start();
