// The browser table: one WebSocket, a "state" message after every change, only legal actions offered.
"use strict";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
let state = null;
let socket = null;
let clockTimer = null;
let clockAt = 0;

function cardElement(text) {
  const el = document.createElement("span");
  el.className = "card" + ("dh".includes(text[1]) ? " red" : "");
  el.textContent = text[0].replace("T", "10") + SUITS[text[1]];
  el.dataset.card = text;
  return el;
}

function showCards(el, cards) {
  el.replaceChildren(...cards.map(cardElement));
}

function send(message) {
  $("error").textContent = "";
  socket.send(JSON.stringify(message));
}

function act(action, amount) {
  const message = { type: "act", hand: state.hand, action };
  if (action === "raise") message.amount = amount;
  send(message);
}

function renderSeats() {
  const seats = state.seats.map((seat, number) => {
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = number;
    if (seat === null) {
      el.textContent = `Seat ${number + 1}: empty`;
      return el;
    }
    if (number === state.actor) el.classList.add("actor");
    if (number === state.seat) el.classList.add("me");
    if (seat.folded) el.classList.add("folded");
    if (seat.sitting_out || seat.joining) el.classList.add("out");
    const tags = [
      number === state.button ? "button" : "",
      seat.sitting_out ? "sitting out" : "",
      seat.joining ? "joins next hand" : "",
      seat.leaving ? "leaving" : "",
    ].filter(Boolean).join(", ");
    el.innerHTML = `<div class="name"></div><div class="stack"></div><div class="bet"></div><div class="tags"></div>`;
    el.querySelector(".name").textContent = `${number + 1}. ${seat.name}`;
    el.querySelector(".stack").textContent = `stack ${seat.stack}` + (seat.pending ? ` (+${seat.pending})` : "");
    el.querySelector(".bet").textContent = seat.bet ? `bet ${seat.bet}` : "";
    el.querySelector(".tags").textContent = tags;
    const shown = state.last_hand && state.phase === null ? state.last_hand.shown[number] : null;
    if (shown) {
      const cards = document.createElement("div");
      cards.className = "cards";
      showCards(cards, shown);
      el.append(cards);
    }
    return el;
  });
  $("seats").replaceChildren(...seats);
}

function renderActions() {
  const legal = state.legal;
  for (const button of document.querySelectorAll("#actions [data-action]")) {
    const kind = button.dataset.action;
    button.hidden = !legal || (kind === "fold" && !legal.fold) || (kind === "check" && !legal.check) ||
      (kind === "call" && !legal.call) || (kind === "raise" && !legal.raise);
  }
  const call = document.querySelector('[data-action="call"]');
  if (legal && legal.call) call.textContent = `Call ${legal.call}`;
  $("sizing").hidden = !legal || !legal.raise;
  if (legal && legal.raise) {
    for (const input of [$("amount"), $("amount-box")]) {
      input.min = legal.raise.min;
      input.max = legal.raise.max;
      input.value = legal.raise.min;
    }
    $("raise-to").textContent = legal.raise.min;
  }
  const me = state.seat === null ? null : state.seats[state.seat];
  $("seat-tools").hidden = me === null;
  if (me) {
    $("sit-out").hidden = me.sitting_out;
    $("sit-in").hidden = !me.sitting_out;
  }
}

function setAmount(value) {
  const legal = state.legal;
  if (!legal || !legal.raise) return;
  const amount = Math.max(legal.raise.min, Math.min(legal.raise.max, Math.round(value)));
  $("amount").value = amount;
  $("amount-box").value = amount;
  $("raise-to").textContent = amount;
}

function renderClock() {
  clearInterval(clockTimer);
  const clock = state.clock;
  if (!clock) {
    $("clock").textContent = "";
    return;
  }
  clockAt = performance.now();
  const tick = () => {
    const spent = (performance.now() - clockAt) / 1000;
    const action = Math.max(0, clock.seconds - spent);
    const bank = Math.max(0, clock.bank - Math.max(0, spent - clock.seconds));
    const who = state.seats[clock.seat] ? state.seats[clock.seat].name : `seat ${clock.seat + 1}`;
    $("clock").textContent = action > 0 ? `${who}: ${action.toFixed(0)} s` : `${who}: time bank ${bank.toFixed(0)} s`;
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

function renderLog() {
  const lines = state.log.filter((entry) => entry.kind !== "hole").map((entry) => {
    const li = document.createElement("li");
    const who = entry.seat === null ? "" : (state.seats[entry.seat] || { name: `seat ${entry.seat + 1}` }).name + " ";
    const what = entry.action ? entry.action + (entry.to ? ` to ${entry.to}` : "") : entry.kind;
    const amount = entry.amount !== null && !entry.action ? ` ${entry.amount}` : "";
    li.textContent = `${who}${what}${amount} ${entry.cards.join(" ")}`.trim();
    return li;
  });
  if (state.last_hand) {
    const li = document.createElement("li");
    const won = Object.entries(state.last_hand.won).map(([seat, chips]) =>
      `${(state.seats[seat] || { name: `seat ${Number(seat) + 1}` }).name} won ${chips}`);
    li.textContent = `hand ${state.last_hand.number}: ${won.join(", ")}`;
    lines.unshift(li);
  }
  $("log").replaceChildren(...lines);
}

function render() {
  $("felt").hidden = false;
  const where = state.seat === null ? "watching" : `seat ${state.seat + 1}`;
  $("status").textContent = `table ${state.table}, hand ${state.hand}, ${where}` +
    (state.phase ? `, ${state.phase}` : ", waiting for players");
  showCards($("board"), state.board);
  showCards($("hole"), state.hole);
  $("pot").textContent = state.phase ? `pot ${state.pot}` : "";
  renderSeats();
  renderActions();
  renderClock();
  renderLog();
}

function connect() {
  const query = params.has("token") ? `token=${encodeURIComponent(params.get("token"))}`
    : `table=${encodeURIComponent(params.get("table"))}`;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?${query}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      state = message;
      render();
    } else if (message.type === "error") {
      $("error").textContent = message.message;
    }
  };
  socket.onclose = () => {
    $("status").textContent = "disconnected: reconnecting…";
    setTimeout(connect, 1000);
  };
}

async function listTables() {
  $("join").hidden = false;
  $("status").textContent = "no table chosen";
  const answer = await (await fetch("/api/tables")).json();
  $("tables").replaceChildren(...answer.tables.map((table) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/?table=${encodeURIComponent(table.id)}`;
    link.textContent = `table ${table.id}: ${table.config.small_blind}/${table.config.big_blind}, ` +
      `${table.players.length} playing, ${table.free_seats.length} free seats`;
    li.append(link);
    return li;
  }));
}

for (const button of document.querySelectorAll("#actions [data-action]")) {
  button.addEventListener("click", () => act(button.dataset.action, Number($("amount").value)));
}
for (const button of document.querySelectorAll("[data-preset]")) {
  button.addEventListener("click", () => {
    const legal = state.legal;
    if (!legal || !legal.raise) return;
    const preset = button.dataset.preset;
    // A pot-sized raise: call, then raise by the pot after calling; raise-to totals include the bet.
    const bet = state.seats[state.seat].bet;
    const potAfterCall = state.pot + legal.call;
    setAmount(preset === "max" ? legal.raise.max : bet + legal.call + Number(preset) * potAfterCall);
  });
}
$("amount").addEventListener("input", () => setAmount(Number($("amount").value)));
$("amount-box").addEventListener("change", () => setAmount(Number($("amount-box").value)));
$("sit-out").addEventListener("click", () => send({ type: "sit_out" }));
$("sit-in").addEventListener("click", () => send({ type: "sit_in", post: false }));

if (params.has("token") || params.has("table")) connect();
else listTables();
