// Mausoleum on the page: the table's piles by touch. Uses el, api, toast, state from app.js.
"use strict";

const maus = {
  card: null,       // the card being played (a number), after drawing
  grave: null,      // the shop grave being bought
  heirs: [],        // morgue heirs chosen to pay for it
  moving: null,     // an incident's effect: the public card tapped, waiting for where it goes
  moves: [],        // an incident's effect so far
  editing: false,   // the card list panel is open
};

function mausReset() { Object.assign(maus, { card: null, grave: null, heirs: [], moving: null, moves: [] }); }

function mausSend(command) {
  return api("/api/command", command).then((done) => { if (done) { mausReset(); renderMausoleum(state); } return done; });
}

function mausCard(c, attrs = {}) {
  const value = c.value === undefined ? "" : ` $${c.value}m${c.checked ? "" : "?"}`;
  return el("button", { class: `card ${c.kind}`, "data-card": c.card, ...attrs }, el("b", {}, `#${c.card}`), el("span", { class: "name" }, ` ${c.name}`), value);
}

function mausTapPublic(s, c) {
  const card = maus.card && s.cards[maus.card - 1];
  if (card && card.kind === "accident" && c.kind === "heir") return mausSend({ type: "play", card: maus.card, heir: c.card });
  if (card && card.kind === "incident") { maus.moving = c.card; return renderMausoleum(s); }
  if (s.phase === "start" && c.kind === "heir" && s.players[s.current].morgue.some((h) => h.card === c.card)) {
    maus.heirs = maus.heirs.includes(c.card) ? maus.heirs.filter((h) => h !== c.card) : [...maus.heirs, c.card];
    return renderMausoleum(s);
  }
  return null;
}

function mausPlayers(s) {
  const row = el("div", { class: "row maus-players", "data-testid": "maus-players" });
  s.players.forEach((p, i) => {
    const pile = (title, cards, total) => el("div", { class: "pile" }, el("span", { class: "dim" }, title + (total === undefined ? "" : ` $${total}m`)),
      el("div", { class: "cards" }, cards.length ? cards.map((c) => mausCard(c, {
        class: `card ${c.kind} ${maus.heirs.includes(c.card) ? "chosen" : ""}`, onclick: () => mausTapPublic(s, c) })) : el("span", { class: "dim" }, "—")));
    row.append(el("div", { class: `grave ${i === s.current ? "current" : ""}`, "data-player": p.name },
      el("div", {}, el("strong", {}, p.name), el("span", { class: "dim" }, ` · ${p.hand} in hand · `),
        el("span", { class: "total" }, `Mausoleum $${p.mausoleum_total}m`)),
      pile("Party", p.party), pile("Morgue", p.morgue, p.morgue_total), pile("Mausoleum", p.mausoleum, p.mausoleum_total),
      p.kept.length ? pile("In play", p.kept) : ""));
  });
  return row;
}

function mausCentre(s) {
  const shop = el("div", { class: "cards", "data-testid": "shop" }, s.shop.map((c) => mausCard(c, {
    class: `card grave ${maus.grave === c.card ? "chosen" : ""}`,
    onclick: () => { if (maus.card) return mausTapPublic(s, c); maus.grave = maus.grave === c.card ? null : c.card; renderMausoleum(s); } })));
  const top = s.discard_top ? ` (top: #${s.discard_top.card} ${s.discard_top.name})` : "";
  return el("div", { class: "centre" }, el("div", { class: "dim", "data-testid": "piles" }, `Shop · deck ${s.deck} · discard ${s.discard}${top}`), shop);
}

function mausActions(s) {
  const box = el("div", { class: "maus-actions", "data-testid": "maus-actions" });
  const me = s.players[s.current];
  if (s.phase === "played" || s.phase === "bought") {
    box.append(el("p", { class: "next" }, `${s.last}. ${me.name}: end your turn.`),
      el("button", { class: "big go", "data-next": "", onclick: () => mausSend({ type: "next_turn" }) }, "End turn"));
    return box;
  }
  if (s.phase === "start") {
    if (maus.grave) {
      const grave = s.cards[maus.grave - 1];
      const paid = maus.heirs.reduce((sum, h) => sum + (s.cards[h - 1].value || 0), 0);
      box.append(el("p", { class: "next" }, `Buy #${grave.card} ($${grave.value}m): tap the heirs in your morgue that pay ($${paid}m chosen).`),
        el("button", { class: "big go", "data-next": "", onclick: () => mausSend({ type: "buy", grave: maus.grave, heirs: maus.heirs }) }, "Buy and Bury"),
        el("button", { onclick: () => { mausReset(); renderMausoleum(s); } }, "Cancel"));
      return box;
    }
    box.append(el("p", { class: "next" }, `${me.name}: draw, or tap a grave in the shop to buy it.`),
      el("div", { class: "row" }, el("button", { class: "big go", "data-next": "", onclick: () => mausSend({ type: "draw", from: "deck" }) }, "Draw from the deck"),
        s.discard_top ? el("button", { class: "big", onclick: () => mausSend({ type: "draw", from: "discard" }) }, `Take #${s.discard_top.card}`) : ""));
    return box;
  }
  // drew: which card is played
  if (!maus.card) {
    box.append(el("p", { class: "next" }, `${me.name}: tap the card you play.`),
      el("div", { class: "cards pick", "data-testid": "playable", "data-next": "" }, s.playable.map((n) => mausCard(s.cards[n - 1], {
        onclick: () => { maus.card = n; renderMausoleum(s); } }))));
    return box;
  }
  const card = s.cards[maus.card - 1];
  box.append(el("p", {}, "Playing ", mausCard(card), " ", el("button", { onclick: () => { mausReset(); renderMausoleum(s); } }, "Another card")));
  if (card.kind === "heir") {
    box.append(el("p", { class: "next" }, "Invite to whose party?"), el("div", { class: "row", "data-next": "" },
      s.players.map((p) => el("button", { class: "big", onclick: () => mausSend({ type: "play", card: card.card, to: p.name }) }, p.name))));
  } else if (card.kind === "accident") {
    box.append(el("p", { class: "next" }, "Tap the heir it offs (at any party)."));
  } else if (card.kind === "incident") {
    if (maus.moving) {
      const places = ["discard", "shop", ...s.players.flatMap((p) => ["party", "morgue", "mausoleum", "hand"].map((k) => `${k}:${p.name}`))];
      box.append(el("p", { class: "next" }, `Move #${maus.moving} to:`), el("div", { class: "row" }, places.map((to) =>
        el("button", { onclick: () => { maus.moves.push({ card: maus.moving, to }); maus.moving = null; renderMausoleum(s); } }, to.replace(":", " of ")))));
    } else {
      box.append(el("p", { class: "next" }, `Its effect: tap each card it moves (${maus.moves.length} so far), then:`),
        el("div", { class: "row" }, el("button", { class: "big go", "data-next": "", onclick: () => mausSend({ type: "play", card: card.card, moves: maus.moves }) }, "Done: discard it"),
          el("button", { onclick: () => mausSend({ type: "play", card: card.card, moves: maus.moves, keep: true }) }, "Done: keep it in play")));
    }
  }
  box.append(el("button", { onclick: () => mausSend({ type: "discard", card: card.card }) }, "Discard it instead"));
  return box;
}

function mausCards(s) {
  const rows = s.cards.filter((c) => c.value !== undefined).map((c) => {
    const name = el("input", { value: c.name, size: 16, "aria-label": `name of #${c.card}` });
    const value = el("input", { value: c.value, type: "number", min: 0, max: 20, size: 3, "aria-label": `value of #${c.card}` });
    return el("tr", {}, el("td", {}, `#${c.card}`), el("td", {}, name), el("td", {}, value, " $m"),
      el("td", { class: c.checked ? "" : "flag" }, c.checked ? "checked" : "to check"),
      el("td", {}, el("button", { onclick: () => api("/api/mausoleum/correct", { card: c.card, name: name.value, value: Number(value.value) }) }, "Save")));
  });
  const fold = el("details", { class: "cards-list", ...(maus.editing ? { open: "" } : {}) },
    el("summary", {}, "Card values"), el("div", { class: "cards-table" }, el("table", {}, rows)));
  fold.addEventListener("toggle", () => { maus.editing = fold.open; });
  return fold;
}

function renderMausoleum(s) {
  const root = $("#mausoleum");
  root.replaceChildren();
  if (s.over) root.append(el("p", { class: "winner" }, `${s.winner} wins! ${s.last}`));
  else root.append(el("h2", {}, `${s.player}'s turn`, el("span", { class: "dim" }, ` · a mausoleum of $${s.win_at}m wins`)));
  // the players' piles beside what to do now, the shop and the piles
  root.append(el("div", { class: "maus-grid" }, el("div", { class: "maus-left" }, mausPlayers(s), mausCards(s)),
    el("div", { class: "maus-side" }, s.over ? "" : mausActions(s), mausCentre(s))));
}

$("#new-mausoleum").addEventListener("submit", (e) => {
  e.preventDefault();
  const players = $("#maus-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  mausReset();
  startGame("mausoleum", { players });
});
