// The browser table: one WebSocket, a "state" message after every change, only legal actions offered.
// Seats sit around an oval with the player's own seat at the bottom; the showdown is held on screen
// for a moment before the next hand is drawn. Plain JavaScript: no build step, nothing from a CDN.
"use strict";

const params = new URLSearchParams(location.search);
const tableId = params.get("table");
const stored = (kind) => tableId && localStorage.getItem(`holdem.${kind}.${tableId}`);
// A seat's token: from the address (`?token=`), or kept by this browser when it took a seat by the link.
let seatToken = params.get("token") || stored("seat");
const $ = (id) => document.getElementById(id);
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const SHOWDOWN_MS = 2500; // how long a finished hand stays on screen before the next one is drawn
const RECHECK_MS = 3000; // silence in a hand after which the page asks for the table's state again
let state = null; // the state drawn
let latest = null; // the newest state received (drawn once the showdown pause is over)
let holding = false;
let showdownTimer = null; // the held showdown's timer, cleared when this player leaves the table
let lastSeenHand = null;
let socket = null;
let clockTimer = null;
let heard = Date.now(); // when the last message arrived
const session = []; // this session's finished hands, newest first

function cardElement(text, small) {
  const el = document.createElement("span");
  el.className = `card suit-${text[1]}` + ("dh".includes(text[1]) ? " red" : "") + (small ? " small" : "");
  el.textContent = text[0].replace("T", "10") + SUITS[text[1]];
  el.dataset.card = text;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", `${RANK_NAMES[text[0]]} of ${SUIT_NAMES[text[1]]}`);
  return el;
}

function backElement() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "hidden card");
  return el;
}

function nameOf(seat, st = state) {
  const entry = st && st.seats[seat];
  return entry ? entry.name : `seat ${Number(seat) + 1}`;
}

function send(message) {
  $("error").textContent = "";
  socket.send(JSON.stringify(message));
}

// Ask the server for the table's state again: after a refusal, or a silence in a hand, so that a missed
// state never leaves a player without controls while the clock runs on their turn.
// At most once a second: a refused request for the state must not be asked again at once.
let rechecked = 0;
function recheck() {
  if (!socket || socket.readyState !== WebSocket.OPEN || Date.now() - rechecked < 1000) return;
  rechecked = Date.now();
  socket.send(JSON.stringify({ type: "state" }));
}

const SILENCE_MS = 4000; // a server that sends nothing this long (it says "alive" every half second) is stopped;
// twice the bots' 2 s, for a phone on a slow line

setInterval(() => {
  const live = socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING);
  if (live && Date.now() - heard > SILENCE_MS && !$("status").dataset.left) {
    const dead = socket;  // give it up without waiting for a closing handshake it cannot answer
    dead.onclose = dead.onmessage = null;
    dead.close();
    $("status").textContent = "the server stopped answering: reconnecting…";
    connect();
    return;
  }
  if (latest && latest.phase && Date.now() - heard > RECHECK_MS) {
    heard = Date.now();
    recheck();
  }
}, 1000);

function act(action, amount) {
  // `steps` ties the action to this turn: a second click cannot land on a later one.
  const message = { type: "act", hand: state.hand, steps: state.steps, action };
  if (action === "raise") message.amount = amount;
  send(message);
}

// ------------------------------------------------------------------ the oval
function place(index, count, mine) {
  // Clockwise from the bottom (the player's own seat, or seat 1 for a spectator).
  const angle = Math.PI / 2 + ((index - mine) * 2 * Math.PI) / count;
  return { x: 50 + 41 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

function positioned(el, point, towards = 1) {
  el.style.left = `${50 + (point.x - 50) * towards}%`;
  el.style.top = `${50 + (point.y - 50) * towards}%`;
  return el;
}

function seatElement(st, number, point, showdown) {
  const seat = st.seats[number];
  const el = positioned(document.createElement("div"), point);
  el.className = "seat";
  el.dataset.seat = number;
  el.setAttribute("role", "group");
  const plate = document.createElement("div");
  plate.className = "plate";
  if (seat === null) {
    el.classList.add("empty");
    const asked = st.home && st.home.pending.find((p) => p.seat === number);
    if (asked) {
      plate.textContent = `${asked.name} asks to sit`;
      el.setAttribute("aria-label", `seat ${number + 1}, ${asked.name} asks to sit`);
    } else if (typeof canAsk === "function" && canAsk(st)) {  // a home game's open seat: click to ask (home.js)
      const button = document.createElement("button");
      button.className = "sit";
      button.textContent = `Sit in seat ${number + 1}`;
      button.addEventListener("click", () => openSeatForm(number));
      plate.append(button);
    } else {
      plate.textContent = `Seat ${number + 1}: open`;
      el.setAttribute("aria-label", `seat ${number + 1}, open`);
    }
    el.append(plate);
    return el;
  }
  const cards = document.createElement("div");
  cards.className = "cards";
  cards.dataset.testid = "seat-cards";
  const shown = showdown && showdown.shown[number];
  if (shown) cards.append(...shown.map((c) => cardElement(c, true)));
  else if (number === st.seat && st.hole.length) cards.append(...st.hole.map((c) => cardElement(c, true)));
  else if (seat.in_hand && !seat.folded) cards.append(backElement(), backElement());
  const away = (st.away || []).includes(number);
  const role = [number === st.button ? "dealer" : "", seat.blind || "", away ? "away" : "", seat.sitting_out ? "sitting out" : "",
    seat.joining ? "joins next hand" : "", seat.waiting ? "waiting for the big blind" : "", seat.leaving ? "leaving" : "",
    seat.folded ? "folded" : ""]
    .filter(Boolean).join(" · ");
  plate.innerHTML = '<div class="name"></div><div class="stack"></div><div class="role"></div>';
  plate.querySelector(".name").textContent = seat.name + (number === st.seat ? " (you)" : "");
  plate.querySelector(".name").classList.toggle("long", seat.name.length > 14);
  const allIn = seat.in_hand && !seat.folded && seat.stack === 0 && !showdown;
  plate.querySelector(".stack").textContent = (allIn ? "all-in" : `${seat.stack}`) + (seat.pending ? ` (+${seat.pending})` : "");
  plate.querySelector(".role").textContent = role;
  if (!showdown && number === st.actor) {
    el.classList.add("actor");
    const bar = document.createElement("div");
    bar.className = "clock";
    bar.innerHTML = "<span></span>";
    const seconds = document.createElement("div");
    seconds.className = "seconds";
    seconds.dataset.testid = "clock-seconds";
    if (st.home && st.home.paused) {  // the clock stands still while the host pauses
      bar.classList.add("paused");
      seconds.textContent = "paused";
    }
    plate.append(bar, seconds);
  }
  if (number === st.seat) el.classList.add("me");
  if (seat.folded) el.classList.add("folded");
  if (seat.sitting_out || seat.joining || away) el.classList.add("out");
  if (showdown && showdown.won[number]) el.classList.add("winner");
  el.setAttribute("aria-label", `${seat.name}, ${allIn ? "all-in" : `${seat.stack} chips`}${role ? ", " + role : ""}` +
    (!showdown && number === st.actor ? ", to act" : ""));
  el.append(cards, plate);
  return el;
}

function drawTable(st, showdown, felt = null) {
  // Into the live table, or into `felt` (an element holding .seats, .board, .second-board and .pot).
  const part = (id) => (felt ? felt.querySelector(`.${id}`) : $(id));
  const count = st.seats.length;
  const mine = st.seat === null ? 0 : st.seat;
  const parts = [];
  for (let number = 0; number < count; number++) {
    const point = place(number, count, mine);
    if (st.replay && !st.seats[number]) continue;  // a replay draws the players of its hand alone
    parts.push(seatElement(st, number, point, showdown));
    const seat = st.seats[number];
    if (!showdown && seat && seat.bet) {
      const bet = positioned(document.createElement("div"), point, 0.6);
      bet.className = "bet";
      bet.textContent = seat.bet;
      bet.setAttribute("aria-label", `${seat.name} bets ${seat.bet}`);
      parts.push(bet);
    }
    if (number === st.button && st.seats.some(Boolean)) {  // a dead button too, but not at an empty table
      const chip = positioned(document.createElement("div"), place(number + 0.28, count, mine), 0.72);
      chip.className = "dealer";
      chip.textContent = "D";
      chip.dataset.testid = "dealer";
      chip.setAttribute("aria-label", `dealer button: ${nameOf(number, st)}`);
      parts.push(chip);
    }
  }
  part("seats").replaceChildren(...parts);
  const board = showdown ? showdown.board : st.board;
  part("board").replaceChildren(...board.map((c) => cardElement(c)));
  const second = showdown && showdown.second_board ? showdown.second_board : [];
  part("second-board").hidden = second.length === 0;  // a hand run twice (rule 32)
  part("second-board").replaceChildren(...second.map((c) => cardElement(c)));
  part("pot").textContent = !showdown && st.phase ? `Pot ${st.pot}` : "";
}

// ------------------------------------------------------------ the controls
function renderControls() {
  const legal = state.legal;
  const me = state.seat === null ? null : state.seats[state.seat];
  $("seat-tools").hidden = me === null;
  if (me) {
    $("sit-out").hidden = me.sitting_out;
    $("sit-in").hidden = !me.sitting_out;
  }
  $("actions").hidden = !legal;
  $("pre-actions").hidden = Boolean(legal) || !me || !me.in_hand || me.folded || state.phase === null;
  $("keys").hidden = state.seat === null;
  if (!legal) return;
  for (const button of document.querySelectorAll("#actions [data-action]")) {
    const kind = button.dataset.action;
    button.hidden = (kind === "fold" && !legal.fold) || (kind === "check" && !legal.check) ||
      (kind === "call" && !legal.call) || (kind === "raise" && !legal.raise);
  }
  const callAllIn = me && legal.call && legal.call >= me.stack;  // the call takes every chip left
  $("call-amount").textContent = legal.call ? `${legal.call}${callAllIn ? " (all-in)" : ""}` : "";
  document.querySelector('[data-action="call"]').setAttribute("aria-label", `call ${legal.call}${callAllIn ? ", all-in" : ""}`);
  // "Bet" when nobody has bet on this street (blinds are bets), "Raise to" otherwise.
  $("raise-word").textContent = betMade(state) ? "aise to" : "et";
  $("raise-first").textContent = betMade(state) ? "R" : "B";
  $("sizing").hidden = !legal.raise;
  if (legal.raise) {
    for (const input of [$("amount"), $("amount-box")]) {
      input.min = legal.raise.min;
      input.max = legal.raise.max;
    }
    setAmount(legal.raise.min);
  }
  // Pre-actions chosen while waiting are played now.
  if ($("pre-check-fold").checked) {
    $("pre-check-fold").checked = false;
    act(legal.check ? "check" : "fold");
  } else if ($("pre-check").checked) {
    $("pre-check").checked = false;
    if (legal.check) act("check");
  }
}

function betMade(st) {
  return st.seats.some((s) => s && s.bet);  // a bet on this street, the blinds included
}

function setAmount(value) {
  const legal = state && state.legal;
  if (!legal || !legal.raise) return;
  const amount = Math.max(legal.raise.min, Math.min(legal.raise.max, Math.round(value)));
  $("amount").value = amount;
  $("amount-box").value = amount;
  const me = state.seats[state.seat];
  const allIn = me && amount === me.bet + me.stack;  // every chip the player has
  $("raise-to").textContent = `${amount}${allIn ? " (all-in)" : ""}`;
  const verb = betMade(state) ? "raise to" : "bet";
  document.querySelector('[data-action="raise"]').setAttribute("aria-label", `${verb} ${amount}${allIn ? ", all-in" : ""}`);
}

function raiseNow() {
  if (state && state.legal && state.legal.raise) act("raise", Number($("amount-box").value));
}

function renderClock() {
  clearInterval(clockTimer);
  const clock = state.clock;
  if (!clock) return;
  const started = performance.now();
  const tick = () => {
    const bar = document.querySelector(".seat.actor .clock span");
    if (!bar) return;
    const spent = (performance.now() - started) / 1000;
    const left = clock.seconds - spent;
    const bank = Math.max(0, clock.bank - Math.max(0, -left));
    const total = state.config.action_seconds;
    bar.style.width = left > 0 ? `${(100 * left) / total}%` : `${(100 * bank) / Math.max(1, state.config.time_bank_seconds)}%`;
    bar.style.background = left > 0 ? "" : "#f87171";
    bar.parentElement.title = left > 0 ? `${left.toFixed(0)} s` : `time bank ${bank.toFixed(0)} s`;
    const seconds = document.querySelector(".seat.actor .seconds");
    if (seconds) seconds.textContent = left > 0 ? `${Math.ceil(left)} s` : `time bank ${Math.ceil(bank)} s`;
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

// ------------------------------------------------------------ the log and the session
function logLine(entry, st) {
  const who = entry.seat === null ? "" : nameOf(entry.seat, st) + " ";
  if (entry.kind === "blind") return `${who}posts ${entry.amount} (${(st.seats[entry.seat] || {}).blind || "blind"})`;
  if (entry.kind === "ante") return `${who}posts an ante of ${entry.amount}`;
  if (entry.kind === "hole") return `${who}is dealt ${entry.cards.join(" ")}`;
  if (entry.kind === "board") return `${entry.phase}: ${entry.cards.join(" ")}`;
  if (entry.kind === "action") {  // calls with their chips; "(all-in)" when they were all the player had
    const allIn = entry.all_in ? " (all-in)" : "";
    if (entry.action === "call") return `${who}calls ${entry.chips}${allIn}`;
    return `${who}${entry.action}s${entry.to ? ` to ${entry.to}` : ""}${allIn}`;
  }
  if (entry.kind === "uncalled") return `${entry.amount} uncalled, back to ${nameOf(entry.seat, st)}`;
  if (entry.kind === "show") return `${who}shows ${entry.cards.join(" ")}`;
  if (entry.kind === "muck") return `${who}mucks`;
  if (entry.kind === "win") return `${who}wins ${entry.amount}`;
  return `${who}${entry.kind} ${entry.amount ?? ""}`.trim();
}

function renderLog() {
  const head = document.createElement("li");
  head.className = "hand";
  const ended = state.home && state.home.ended && !state.phase;
  head.textContent = state.phase ? `Hand ${state.hand}` : ended ? "The game has ended" : "Waiting for the next hand";
  const lines = state.log.map((entry) => {
    const li = document.createElement("li");
    li.textContent = logLine(entry, state);
    return li;
  });
  $("log").replaceChildren(head, ...lines);
  $("log").scrollTop = $("log").scrollHeight;
}

function resultText(last, st) {
  // Each pot named (the main pot, then side pots) with who won it and with what.
  const named = (seat) => {
    const again = last.second_names && last.second_names[seat] ? ` / ${last.second_names[seat]}` : "";
    return last.names && last.names[seat] ? ` with ${last.names[seat]}${again}` : "";
  };
  const pots = last.result && last.result.pots ? last.result.pots : [];
  if (pots.length > 1) {
    return pots.map((pot, k) => {
      const winners = (last.result.winners[k] || []).map((p) => last.seats[p]);
      const who = winners.map((seat) => `${nameOf(seat, st)}${named(seat)}`).join(" and ");
      return `${k === 0 ? "Main pot" : `Side pot ${k}`} ${pot.amount}: ${who} wins`;
    }).join("; ");
  }
  return Object.entries(last.won).map(([seat, chips]) => `${nameOf(seat, st)} wins ${chips}${named(seat)}`).join("; ");
}

function remember(last, st) {
  const li = document.createElement("li");
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = `Hand ${last.number}: ${resultText(last, st) || "no winner recorded"}`;
  const body = document.createElement("div");
  const mine = st.seat !== null && st.hand === last.number ? st.hole : [];
  const again = last.second_board && last.second_board.length ? ` · second board: ${last.second_board.join(" ")}` : "";
  body.textContent = `Board: ${last.board.join(" ") || "none"}${again}` + (mine.length ? ` · your cards: ${mine.join(" ")}` : "") +
    Object.entries(last.shown).map(([seat, cards]) => ` · ${nameOf(seat, st)} showed ${cards.join(" ")}`).join("");
  const lines = document.createElement("ol");
  const log = last.log || (st.hand === last.number ? st.log : []);
  if (log.length) {
    const own = st.hand === last.number ? st.log.filter((e) => e.kind === "hole" && e.cards.length) : [];
    lines.replaceChildren(...[...own, ...log].map((entry) => {
      const line = document.createElement("li");
      line.textContent = logLine(entry, st);
      return line;
    }));
  }
  details.append(summary, body, lines);
  li.append(details);
  session.unshift(li);
  $("hands").replaceChildren(...session);
}

// ------------------------------------------------------------ drawing and the showdown pause
function draw(st) {
  state = st;
  $("room").hidden = false;
  const where = st.seat === null ? "watching" : `seat ${st.seat + 1}`;
  const title = st.home && st.home.name ? st.home.name : `Table ${st.table}`;  // a home game by its name
  const waiting = st.home && st.home.ended ? "" : " · waiting for players";
  $("status").textContent = `${title} · hand ${st.hand} · ${where} · blinds ` +
    `${st.config.small_blind}/${st.config.big_blind}` + (st.phase ? ` · ${st.phase}` : waiting);
  drawTable(st, null);
  $("result").textContent = "";
  renderControls();
  renderClock();
  renderLog();
  if (typeof drawHome === "function") drawHome(st);  // a home game's parts: host tools, requests, chat (home.js)
}

function showdown(previous, last) {
  // The hand just finished: its cards and winners stay on screen for a moment, chips fly to the winners;
  // the stacks are those after the payout, and the log ends with the hand's show and win lines.
  const paid = (s, i) => (s && last.stacks && last.stacks[i] !== undefined ? { ...s, stack: last.stacks[i], bet: 0 } : s);
  drawTable({ ...previous, seats: previous.seats.map(paid) }, last);
  const title = previous.home && previous.home.name ? previous.home.name : `Table ${previous.table}`;
  $("status").textContent = `${title} · hand ${last.number} · showdown`;
  if (last.log) {
    $("log").replaceChildren(...[`Hand ${last.number}`, ...last.log.map((e) => logLine(e, previous))].map((text, k) => {
      const li = document.createElement("li");
      if (k === 0) li.className = "hand";
      li.textContent = text;
      return li;
    }));
  }
  $("result").textContent = resultText(last, previous);
  $("actions").hidden = true;
  $("pre-actions").hidden = true;
  clearInterval(clockTimer);
  for (const seat of Object.keys(last.won)) {
    const target = document.querySelector(`.seat[data-seat="${seat}"]`);
    if (!target) continue;
    const chip = document.createElement("div");
    chip.className = "flying";
    chip.textContent = "●●";
    chip.style.left = "50%";
    chip.style.top = "50%";
    $("seats").append(chip);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      chip.style.left = target.style.left;
      chip.style.top = target.style.top;
    }));
  }
}

function receive(message) {
  if ($("status").dataset.left) return;  // out of the tournament: no table is drawn again
  latest = message;
  const last = message.last_hand;
  if (last && lastSeenHand !== null && last.number > lastSeenHand && state) {
    lastSeenHand = last.number;
    remember(last, state);
    $("pre-check-fold").checked = $("pre-check").checked = false;
    holding = true;
    showdownTimer = setTimeout(() => {  // set first: the next state is drawn even if drawing this showdown failed
      holding = false;
      showdownTimer = null;
      if (!$("status").dataset.left) drawOrRetry(latest);  // never a table the player has left
    }, SHOWDOWN_MS);
    showdown(state, last);
    return;
  }
  if (lastSeenHand === null) lastSeenHand = last ? last.number : 0;
  if (!holding) drawOrRetry(message);
}

function drawOrRetry(st) {
  // A drawing error must never leave a blank or stale table: say so, and ask for the state again.
  try {
    draw(st);
    if ($("error").textContent.startsWith("the table could not be drawn")) $("error").textContent = "";
  } catch (error) {
    $("error").textContent = `the table could not be drawn (${error.message}): asking again…`;
    setTimeout(recheck, 1000);
  }
}

function connect() {
  const query = seatToken ? `token=${encodeURIComponent(seatToken)}` : `table=${encodeURIComponent(tableId)}`;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?${query}&alive=1`);  // alive: a sign of life each quiet half second
  heard = Date.now();
  socket.onmessage = (event) => {
    heard = Date.now();
    const message = JSON.parse(event.data);
    if (message.type === "state") receive(message);
    else if (message.type === "error") {
      const gone = message.message === "unknown token" && seatToken && tableId;
      if (!gone) $("error").textContent = message.message;
      else if (!(latest && latest.home && latest.home.ended)) {  // after the game's end, the status says so
        $("notice").textContent = "You no longer hold a seat at this table: watching.";
      }
      recheck();  // whatever was refused, show what is true now
    }
    else if (message.type === "moved") {  // a tournament moved this player: the next state is the new table
      $("error").textContent = `moved to table ${message.table}, seat ${message.seat + 1}`;
      lastSeenHand = null;
    } else if (message.type === "finished") {  // out of the tournament: no reconnecting
      $("status").dataset.left = "1";
      clearTimeout(showdownTimer);  // a showdown still held must not draw the old table over this
      showdownTimer = null;
      holding = false;
      const prize = message.prize ? `, prize ${message.prize}` : "";
      $("status").textContent = `you finished in place ${message.place}${prize}`;
      $("actions").hidden = true;
    }
  };
  socket.onclose = (event) => {
    if (event.code === 4404 && seatToken && tableId) {  // the seat this page held is gone: watch the table
      if (!params.get("token")) localStorage.removeItem(`holdem.seat.${tableId}`);
      seatToken = null;
      lastSeenHand = null;
    }
    if ($("status").dataset.left) return;
    if (event.code === 4429) {  // too many spectators: from this address, or at this table
      $("status").textContent = "This table has all the spectators it takes from your address or in all: trying again in 30 s…";
      setTimeout(connect, 30000);
      return;
    }
    $("status").textContent = "disconnected: reconnecting…";
    setTimeout(connect, 1000);
  };
}

async function listTables() {
  $("join").hidden = false;
  $("status").textContent = "no table chosen";
  const answer = await (await fetch("/api/tables")).json();
  const tournaments = (await (await fetch("/api/tournaments")).json()).tournaments;
  $("tournaments-title").hidden = $("tournaments").hidden = !tournaments.length;
  $("no-tables").hidden = answer.tables.length > 0;
  $("tournaments").replaceChildren(...tournaments.map((t) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/tournament?id=${encodeURIComponent(t.id)}`;
    link.textContent = `tournament ${t.id}: ${t.status}, ${t.entrants}/${t.config.entrants} entrants, ` +
      `level ${t.level} (${t.blinds[0]}/${t.blinds[1]})`;
    li.append(link);
    return li;
  }));
  $("tables").replaceChildren(...answer.tables.map((table) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/?table=${encodeURIComponent(table.id)}`;
    const players = table.players.length === 1 ? "1 player" : `${table.players.length} players`;
    const free = table.free_seats.length === 1 ? "1 free seat" : `${table.free_seats.length} free seats`;
    const home = table.home;
    const title = home ? `${home.name || "home game"} (${table.id})` : `table ${table.id}`;
    link.textContent = `${title}: ${table.config.small_blind}/${table.config.big_blind}, ` +
      (table.finished ? `tournament ${table.tournament} finished` : home && home.ended ? "ended" : `${players}, ${free}`);
    if (home && home.ended) li.classList.add("ended");
    li.append(link);
    return li;
  }));
}

// ------------------------------------------------------------ input
for (const button of document.querySelectorAll("#actions [data-action]")) {
  button.addEventListener("click", () =>
    button.dataset.action === "raise" ? raiseNow() : act(button.dataset.action));
}
for (const button of document.querySelectorAll("[data-preset]")) {
  button.addEventListener("click", () => {
    const legal = state.legal;
    if (!legal || !legal.raise) return;
    const preset = button.dataset.preset;
    // A pot-sized raise: call, then raise by the pot after calling; raise-to totals include the bet.
    const bet = state.seats[state.seat].bet;
    setAmount(preset === "max" ? legal.raise.max : bet + legal.call + Number(preset) * (state.pot + legal.call));
    $("amount-box").focus();
  });
}
$("amount").addEventListener("input", () => setAmount(Number($("amount").value)));
$("amount-box").addEventListener("change", () => setAmount(Number($("amount-box").value)));
$("sit-out").addEventListener("click", () => send({ type: "sit_out" }));
$("sit-in").addEventListener("click", () => send({ type: "sit_in", post: false }));
$("history-toggle").addEventListener("click", () => {
  $("history").hidden = !$("history").hidden;
  $("history-toggle").setAttribute("aria-expanded", String(!$("history").hidden));
});
function openRebuy() {
  // What this player may add, as the server counts it: the stack as the hand began, with chips on their way.
  // From the newest state received, not the one drawn: while a showdown is held on screen, the state drawn
  // is from before the hand's payout, and its range is not what the server will allow.
  const offer = (latest && latest.seat === state.seat ? latest : state).rebuy;
  if (!offer) {  // at or above the table's most
    $("rebuy-form").hidden = true;
    $("error").textContent = "You hold the most this table allows: there is nothing to rebuy.";
    return;
  }
  const { least, most, have } = offer;
  $("rebuy-form").hidden = false;
  $("rebuy-amount").min = least;
  $("rebuy-amount").max = Math.max(most, least);
  $("rebuy-amount").value = Math.max(most, least);
  $("rebuy-range").textContent = `${least} to ${most}` + (have ? ` (you have ${have})` : "");
  $("rebuy-amount").focus();
}

$("rebuy-toggle").addEventListener("click", () => {
  if ($("rebuy-form").hidden) openRebuy();
  else $("rebuy-form").hidden = true;
});
$("rebuy-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send({ type: "rebuy", amount: Number($("rebuy-amount").value) });
  $("rebuy-form").hidden = true;
});
$("leave").addEventListener("click", async () => {
  const answer = await fetch(`/api/tables/${state.table}/players/${state.seat}`,
    { method: "DELETE", headers: { authorization: `Bearer ${seatToken}` } });
  const body = await answer.json();
  $("error").textContent = answer.ok ? (body.left ? "You left the table." : "You leave when this hand ends.")
    : body.error;
  if (answer.ok && body.left) $("status").dataset.left = "1";
});
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !state || !state.legal) return;
  const typing = event.target instanceof HTMLInputElement && event.target.type !== "checkbox";
  const legal = state.legal;
  if (event.key === "Enter" && typing && event.target.id === "amount-box") {
    event.preventDefault();
    setAmount(Number($("amount-box").value));
    raiseNow();
  } else if (typing || event.target instanceof HTMLButtonElement && event.key === "Enter") {
    // typing a number, or Enter on a focused button (which presses it)
  } else if (event.key === "f" && legal.fold) {
    act("fold");
  } else if (event.key === "c") {
    if (legal.check) act("check");
    else if (legal.call) act("call");
  } else if ((event.key === "r" || event.key === "a") && legal.raise) {
    event.preventDefault();
    if (event.key === "a") setAmount(legal.raise.max);
    $("amount-box").focus();
    $("amount-box").select();
  } else if (event.key === "Enter" && legal.raise) {
    raiseNow();
  }
});

// Started once every script of the page has run (home.js draws a home game's parts of each state): a
// state that arrives while a later script is still loading is then never drawn half-way.
function start() {
  if (seatToken || tableId) connect();
  else listTables();
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
