// Ghosts in the Graveyard on the page: the shared graveyard, entered by touch. Uses el, svg, api, toast from app.js.
"use strict";

const ghosts = {
  picked: null,      // the tombstone tapped: the card played (search) or the one guessed
  mode: null,        // "search" | "guess" | "reveal" (tap the guesser's secret) | "discard" (tap their hand)
  light: null,       // "flood N".."flood W" or a flashlight name
  turnAt: 0,         // which legal placement of a flashlight is shown
  raven: false,
  discard: [],
  advice: null,      // the helper's answer for the picked tombstone
  mine: null,        // phone only: { player, hand } for a private view
  private: null,     // the helper's answer with that hand
  shape: new Set(),  // the flashlight editor's open squares, "r,c"
  open: new Set(),   // which of the folding panels are open (kept across redraws)
};
const GHOST_SIZE = { w: 64, h: 56 };

function ghostsReset() {
  Object.assign(ghosts, { picked: null, mode: null, light: null, turnAt: 0, raven: false, discard: [], advice: null });
}

function ghostsSend(command) {
  return api("/api/command", command).then((done) => { if (done) ghostsReset(); if (done) renderGhosts(state); return done; });
}

async function ghostsPick(n, s) {
  if (ghosts.mode === "reveal") return ghostsGuess(s, "no", { reveal: n });
  if (ghosts.mode === "discard") {
    ghosts.discard = ghosts.discard.includes(n) ? ghosts.discard.filter((d) => d !== n) : [...ghosts.discard, n];
    return renderGhosts(s);
  }
  if (s.board[n - 1].crossed) return toast(`${n} is crossed out`);
  ghostsReset();
  ghosts.picked = n;
  renderGhosts(s);
  const response = await fetch(`/api/ghosts/advice?over=${n}`);
  if (response.ok && ghosts.picked === n) { ghosts.advice = await response.json(); renderGhosts(state); }
}

function ghostsArea(s) {
  // the cells the chosen light asks about, for the picked tombstone
  if (!ghosts.advice || !ghosts.light) return null;
  const laid = ghostsPlacements();
  return laid.length ? laid[ghosts.turnAt % laid.length].asked : null;
}

function ghostsPlacements() {
  if (!ghosts.advice || !ghosts.light) return [];
  return ghosts.advice.searches.filter((o) => o.light === ghosts.light)
    .sort((a, b) => a.turn - b.turn || a.origin[0] - b.origin[0] || a.origin[1] - b.origin[1]);
}

function ghostsBoard(s) {
  const { w, h } = GHOST_SIZE;
  const chances = ghosts.private ? ghosts.private.haunt : (s.chances ? s.chances.haunt : {});
  const top = Math.max(0.0001, ...Object.values(chances));
  const asked = new Set(ghostsArea(s) || []);
  const last = s.last && s.last.kind === "asked" ? s.last : null;
  const lastAsked = new Set(last ? last.asked : []);
  const board = svg("svg", { viewBox: `-4 -4 ${10 * w + 36} ${5 * h + 8}`, "data-testid": "graveyard", role: "grid" },
    svg("text", { x: 10 * w + 16, y: 24, "text-anchor": "middle", "font-size": 29, "font-weight": 700 }, "N"),
    svg("path", { d: `M${10 * w + 16} 30 l-7 14 h14 Z`, fill: "#eceae4" }));
  for (const t of s.board) {
    const n = t.tombstone, r = Math.floor((n - 1) / 10), c = (n - 1) % 10, x = c * w, y = r * h;
    const p = chances[String(n)] || 0;
    const fill = t.revealed_by ? "#5a2a2a" : t.crossed ? "#16181a" : `rgba(88,166,255,${(0.08 + 0.6 * p / top).toFixed(3)})`;
    const g = svg("g", { class: "stone", "data-tombstone": n, role: "gridcell" });
    g.addEventListener("click", () => ghostsPick(n, state));
    g.append(svg("path", { d: `M${x + 5} ${y + h - 4} V${y + 18} Q${x + w / 2} ${y - 6} ${x + w - 5} ${y + 18} V${y + h - 4} Z`,
      fill, stroke: lastAsked.has(n) ? (last.answer ? "#3fb950" : "#e3a008") : "#444c56", "stroke-width": lastAsked.has(n) ? 4 : 1.5 }));
    g.append(svg("text", { x: x + w / 2, y: y + h / 2 + 9, "text-anchor": "middle", "font-size": 29, "font-weight": 700,
      class: t.crossed ? "crossed" : "" }, String(n).padStart(2, "0")));
    if (t.crossed) g.append(svg("path", { d: `M${x + 12} ${y + 14} L${x + w - 12} ${y + h - 8} M${x + w - 12} ${y + 14} L${x + 12} ${y + h - 8}`,
      stroke: t.revealed_by ? "#f85149" : "#9aa0a6", "stroke-width": 3 }));
    else if (p > 0) g.append(svg("text", { x: x + w / 2, y: y + h - 8, "text-anchor": "middle", "font-size": 14, class: "chance" },
      `${Math.round(p * 100)}%`));
    if (asked.has(n)) g.append(svg("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 6, fill: "none",
      stroke: "#3fb950", "stroke-width": 3, "stroke-dasharray": "6 4", class: "asked" }));
    if (s.over && s.last && s.last.answer === "haunt" && s.last.tombstone === n) g.append(svg("rect", { x: x + 1, y: y + 1,
      width: w - 2, height: h - 2, rx: 8, fill: "none", stroke: "#c9a227", "stroke-width": 5, class: "haunt" }));
    if (n === ghosts.picked || ghosts.discard.includes(n)) g.append(svg("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 8,
      fill: "none", stroke: "#eceae4", "stroke-width": 4, class: "picked" }));
    board.append(g);
  }
  return board;
}

function ghostsPlayers(s) {
  // a row a player: secrets held, shown, the abilities left (used ones struck through), its flashlight
  const table = el("table", { class: "scores ghost-players", "data-testid": "ghost-players" },
    el("tr", { class: "dim" }, el("td", {}, ""), el("td", {}, "held"), el("td", {}, "shown"), el("td", {}, "abilities"), el("td", { class: "light" }, "light")));
  s.players.forEach((p, i) => {
    const used = (on, label) => el("span", { class: on ? "used" : "ready" }, label);
    table.append(el("tr", { class: `${i === s.current ? "current" : ""} ${p.out ? "out" : ""}`, title: p.out ? "out of turns: still answers" : "" },
      el("td", {}, p.name), el("td", {}, p.held), el("td", {}, p.revealed.join(", ") || "–"),
      el("td", { class: "abilities" }, used(p.vanish, "Vanish"), " ", used(p.raven, "Raven"), " ",
        used(p.hands >= 2, p.hands >= 2 ? "Hands" : `${2 - p.hands} Hand${p.hands ? "" : "s"}`),
        p.out ? el("span", { class: "flag" }, " out") : ""),
      el("td", { class: "light" }, p.flashlight)));
  });
  return table;
}

function ghostsGuess(s, answer, extra = {}) {
  const me = s.players[s.current];
  const command = { type: "guess", tombstone: ghosts.picked, answer, raven: ghosts.raven, ...extra };
  if (answer === "no" && !ghosts.raven && command.reveal === undefined && command.discard === undefined) {
    if (me.held > 1) { ghosts.mode = "reveal"; return renderGhosts(s); }
    if (s.players.length > 2) { ghosts.mode = "discard"; ghosts.discard = []; return renderGhosts(s); }
  }
  return ghostsSend(command);
}

function ghostsActions(s) {
  const box = el("div", { class: "ghost-actions", "data-testid": "ghost-actions" });
  const me = s.players[s.current];
  if (ghosts.mode === "reveal") {
    box.append(el("p", { class: "next" }, `Not a secret. ${me.name}: tap the secret you reveal.`),
      el("button", { onclick: () => { ghosts.mode = "guess"; renderGhosts(s); } }, "Back"));
    return box;
  }
  if (ghosts.mode === "discard") {
    box.append(el("p", { class: "next" }, `${me.name} had only the haunt left: tap the cards in your hand, then Done.`),
      el("button", { class: "go big", "data-next": "", onclick: () => ghostsGuess(s, "no", { discard: ghosts.discard }) }, `Done (${ghosts.discard.length})`));
    return box;
  }
  if (!ghosts.picked) {
    box.append(el("p", { class: "next" }, `${me.name}: tap the tombstone you play (Search) or guess.`));
    if (!me.vanish) box.append(el("button", { onclick: () => ghostsSend({ type: "vanish" }) }, "Vanish (swap haunt)"));
    return box;
  }
  const n = ghosts.picked;
  box.append(el("div", { class: "row", ...(ghosts.mode ? {} : { "data-next": "" }) },
    el("button", { class: ghosts.mode === "search" ? "go" : ghosts.mode ? "" : "big", onclick: () => { ghosts.mode = "search"; renderGhosts(s); } }, `Search from ${n}`),
    el("button", { class: ghosts.mode === "guess" ? "go" : ghosts.mode ? "" : "big", onclick: () => { ghosts.mode = "guess"; renderGhosts(s); } }, `Guess ${n}`)));
  if (ghosts.mode === "search") {
    const lights = el("div", { class: "row lights", ...(ghostsArea(s) ? {} : { "data-next": "" }) }, "Flood:");
    for (const d of ["N", "E", "S", "W"]) {
      const name = `flood ${d}`;
      lights.append(el("button", { class: ghosts.light === name ? "go" : "", "aria-label": `Flood ${d}`, onclick: () => { ghosts.light = name; renderGhosts(s); } }, d));
    }
    for (const name of s.lights.filter((l) => l !== "flood")) {
      const borrowed = name !== me.flashlight;
      lights.append(el("button", { class: ghosts.light === name ? "go" : "", onclick: () => { ghosts.light = name; ghosts.turnAt = 0; renderGhosts(s); } },
        borrowed ? `${name} (a Hand)` : name));
    }
    const laid = ghostsPlacements();
    if (ghostsArea(s)) {
      const answer = (yes) => {
        const chosen = laid[ghosts.turnAt % laid.length];
        const command = { type: "search", played: n, answer: yes };
        if (ghosts.light.startsWith("flood")) Object.assign(command, { light: "flood", direction: ghosts.light.split(" ")[1] });
        else Object.assign(command, { light: ghosts.light, turn: chosen.turn, origin: chosen.origin });
        ghostsSend(command);
      };
      box.append(el("p", { class: "next" }, `${s.opponent}, a secret under the light?`),
        el("div", { class: "row", "data-next": "" }, el("button", { class: "big go", onclick: () => answer(true) }, "Yes"),
          el("button", { class: "big", onclick: () => answer(false) }, "No")));
    }
    box.append(lights);
    if (laid.length > 1) box.append(el("button", { onclick: () => { ghosts.turnAt += 1; renderGhosts(s); } },
      `Turn / move (${(ghosts.turnAt % laid.length) + 1} of ${laid.length})`));
    if (ghosts.advice) {
      const best = ghosts.advice.searches[0];
      box.append(el("p", { class: "hint advice" }, ghosts.advice.why, " ",
        el("button", { onclick: () => { ghosts.light = best.light; ghosts.turnAt = ghostsPlacements().indexOf(best); renderGhosts(s); } }, "Use it")));
      ghosts.turnAt = Math.max(0, ghosts.turnAt);
    }
  }
  if (ghosts.mode === "guess") {
    box.append(el("p", { class: "next" }, `${s.opponent}, is ${n} one of your secrets?`));
    const row = el("div", { class: "row", "data-next": "" },
      el("button", { class: "big go", onclick: () => ghostsGuess(s, "haunt") }, "My haunt!"),
      el("button", { class: "big", onclick: () => ghostsGuess(s, "decoy") }, "A decoy"),
      el("button", { class: "big", onclick: () => ghostsGuess(s, "no") }, "Not a secret"));
    if (!me.raven) row.prepend(el("label", {}, el("input", { type: "checkbox", ...(ghosts.raven ? { checked: "" } : {}),
      onchange: (e) => { ghosts.raven = e.target.checked; } }), " Raven"));
    box.append(row);
  }
  return box;
}

function ghostsMyView(s) {
  const me = el("select", {}, ...s.players.map((p) => el("option", p.name === (ghosts.mine || {}).player ? { selected: "" } : {}, p.name)));
  const hand = el("input", { placeholder: "my hand: 7, 31", size: 12, value: (ghosts.mine || {}).hand || "" });
  const show = async () => {
    ghosts.mine = { player: me.value, hand: hand.value };
    const query = new URLSearchParams({ player: me.value, hand: hand.value.replace(/\s/g, "") });
    const response = await fetch(`/api/ghosts/advice?${query}`);
    const data = await response.json();
    if (!response.ok) return toast(data.error);
    ghosts.private = data;
    renderGhosts(state);
  };
  return ghostsFold("mine", "My view (private, this phone only)",
    el("div", { class: "row" }, el("label", {}, "I am ", me), hand, el("button", { onclick: show }, "Show"),
      el("button", { onclick: () => { ghosts.private = null; ghosts.mine = null; renderGhosts(state); } }, "Hide")),
    ghosts.private ? el("p", { class: "hint" }, ghosts.private.why) : "");
}

function ghostsEditor(s) {
  const grid = svg("svg", { viewBox: "0 0 150 150", class: "shape-editor", "data-testid": "shape-editor" });
  for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) {
    const key = `${r},${c}`;
    const cell = svg("rect", { x: c * 30 + 2, y: r * 30 + 2, width: 26, height: 26, rx: 4,
      fill: ghosts.shape.has(key) ? "#e0c48a" : "#2b3035", "data-cell": key });
    cell.addEventListener("click", () => { ghosts.shape.has(key) ? ghosts.shape.delete(key) : ghosts.shape.add(key); renderGhosts(state); });
    grid.append(cell);
  }
  const name = el("input", { placeholder: "name, e.g. candle", size: 12 });
  const who = el("select", {}, ...s.players.map((p) => el("option", {}, p.name)));
  const save = () => ghostsSend({ type: "flashlight", name: name.value, player: who.value,
    cells: [...ghosts.shape].map((k) => k.split(",").map(Number)) }).then((done) => { if (done) ghosts.shape.clear(); });
  return ghostsFold("shapes", "Flashlights",
    el("p", { class: "dim" }, Object.entries(s.flashlights).map(([n, cells]) => `${n}: ${cells.length} squares`).join(" · ")),
    el("div", { class: "row" }, grid, el("div", {}, el("p", {}, "Tap the open squares of a flashlight card."),
      el("div", { class: "row" }, name, el("label", {}, "for ", who), el("button", { onclick: save }, "Save flashlight")))));
}

function ghostsFold(name, title, ...children) {
  const fold = el("details", { class: name, ...(ghosts.open.has(name) ? { open: "" } : {}) }, el("summary", {}, title), ...children);
  fold.addEventListener("toggle", () => { if (fold.open) ghosts.open.add(name); else ghosts.open.delete(name); });
  return fold;
}

function renderGhosts(s) {
  const root = $("#ghosts");
  root.replaceChildren();
  if (s.over) root.append(el("p", { class: "winner" }, s.winner ? `${s.winner} wins! ${s.ended}` : s.ended));
  else root.append(el("h2", {}, `${s.player}'s turn: asking ${s.opponent}`,
    s.chances ? el("span", { class: "dim" }, ` · likeliest haunt ${s.chances.best_guess} (${Math.round(s.chances.haunt[s.chances.best_guess] * 100)}%)`) : ""));
  const board = ghostsBoard(s);
  if (!s.over && (!ghosts.picked || ghosts.mode === "reveal" || ghosts.mode === "discard")) board.setAttribute("data-next", "");
  const layout = el("div", { class: "ghosts-grid" }, el("div", { class: "board" }, board, ghostsPlayers(s)),
    el("div", {}, s.last ? el("p", { class: "dim", "data-testid": "last-said" }, ghostsSaid(s, s.last)) : "",
      s.over ? "" : ghostsActions(s)));
  root.append(layout, ghostsMyView(s), ghostsEditor(s));
}

function ghostsSaid(s, e) {
  const name = (i) => s.players[i].name;
  if (e.kind === "asked") return `Last: ${name(e.by)} played ${e.over}, ${e.light}: ${name(e.of)} said ${e.answer ? "yes" : "no"}.`;
  if (e.kind === "guess") return `Last: ${name(e.by)} guessed ${e.tombstone}: ${{ haunt: "the haunt!", decoy: "a decoy.", no: "not a secret." }[e.answer]}`;
  return `Last: ${name(e.of)} revealed ${e.tombstone}.`;
}

$("#new-ghosts").addEventListener("submit", (e) => {
  e.preventDefault();
  const players = $("#ghost-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  const first = $("#ghost-first").value.split(",").map((p) => p.trim()).filter(Boolean).map(Number);
  ghostsReset();
  startGame("ghosts", { players, ...(first.length ? { first_cards: first } : {}) });
});
