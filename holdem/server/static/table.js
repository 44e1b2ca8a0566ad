// The browser table: one WebSocket, a "state" message after every change, only legal actions offered.
// Seats sit around an oval with the player's own seat at the bottom; the showdown is held on screen
// for a moment before the next hand is drawn. ES modules, no build step, nothing from a CDN: what is
// shown is worked out in render.js, the protocol's names are in protocol.js, and what the page shares
// with home.js is `page` (state.js).
import { $, backElement, cardElement, positioned, toggles } from "./dom.js";
import { BROWSER_SILENCE, Close, FULL_RETRY, Message, RECHECK, RETRY, SHOWDOWN } from "./protocol.js";
import { betMade, logLine, nameOf, place, resultText, roles } from "./render.js";
import { key, page } from "./state.js";

export function send(message) {
  $("error").textContent = "";
  page.socket.send(JSON.stringify(message));
}

// Ask the server for the table's state again: after a refusal, or a silence in a hand, so that a missed
// state never leaves a player without controls while the clock runs on their turn.
// At most once a second: a refused request for the state must not be asked again at once.
export function recheck() {
  const socket = page.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN || Date.now() - page.rechecked < 1000) return;
  page.rechecked = Date.now();
  socket.send(JSON.stringify({ type: Message.STATE }));
}

function watch() {
  // A server that sends nothing for BROWSER_SILENCE (it says "alive" every half second) is given up.
  const socket = page.socket;
  const live = socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING);
  if (live && Date.now() - page.heard > BROWSER_SILENCE * 1000 && !$("status").dataset.left) {
    socket.onclose = socket.onmessage = null;  // give it up without waiting for a closing handshake it cannot answer
    socket.close();
    $("status").textContent = "the server stopped answering: reconnecting…";
    connect();
    return;
  }
  if (page.latest && page.latest.phase && Date.now() - page.heard > RECHECK * 1000) {
    page.heard = Date.now();
    recheck();
  }
}

function act(action, amount) {
  // `steps` ties the action to this turn: a second click cannot land on a later one.
  const message = { type: Message.ACT, hand: page.state.hand, steps: page.state.steps, action };
  if (action === "raise") message.amount = amount;
  send(message);
}

// ------------------------------------------------------------------ the oval
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
    } else if (page.hooks.canAsk(st)) {  // a home game's open seat: click to ask (home.js)
      const button = document.createElement("button");
      button.className = "sit";
      button.textContent = `Sit in seat ${number + 1}`;
      button.addEventListener("click", () => page.hooks.openSeatForm(number));
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
  const role = roles(st, number, away);
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

export function drawTable(st, showdown, felt = null) {
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
  const legal = page.state.legal;
  const me = page.state.seat === null ? null : page.state.seats[page.state.seat];
  $("seat-tools").hidden = me === null;
  if (me) {
    $("sit-out").hidden = me.sitting_out;
    $("sit-in").hidden = !me.sitting_out;
  }
  $("actions").hidden = !legal;
  $("pre-actions").hidden = Boolean(legal) || !me || !me.in_hand || me.folded || page.state.phase === null;
  $("keys").hidden = page.state.seat === null;
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
  $("raise-word").textContent = betMade(page.state) ? "aise to" : "et";
  $("raise-first").textContent = betMade(page.state) ? "R" : "B";
  $("sizing").hidden = !legal.raise;
  if (legal.raise) {
    for (const input of [$("amount"), $("amount-box")]) {
      input.min = legal.raise.min;
      input.max = legal.raise.max;
    }
    // A state drawn again for the same turn (someone connected, chatted, took a seat) keeps the amount
    // the player was choosing; a new turn starts from the least raise.
    const turn = `${page.state.hand}/${page.state.steps}`;
    setAmount(page.amountTurn === turn ? Number($("amount-box").value) : legal.raise.min);
    page.amountTurn = turn;
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

function setAmount(value) {
  const legal = page.state && page.state.legal;
  if (!legal || !legal.raise) return;
  const amount = Math.max(legal.raise.min, Math.min(legal.raise.max, Math.round(value)));
  $("amount").value = amount;
  $("amount-box").value = amount;
  const me = page.state.seats[page.state.seat];
  const allIn = me && amount === me.bet + me.stack;  // every chip the player has
  $("raise-to").textContent = `${amount}${allIn ? " (all-in)" : ""}`;
  const verb = betMade(page.state) ? "raise to" : "bet";
  document.querySelector('[data-action="raise"]').setAttribute("aria-label", `${verb} ${amount}${allIn ? ", all-in" : ""}`);
}

function raiseNow() {
  if (page.state && page.state.legal && page.state.legal.raise) act("raise", Number($("amount-box").value));
}

function renderClock() {
  clearInterval(page.clockTimer);
  const clock = page.state.clock;
  if (!clock) return;
  const started = performance.now();
  const tick = () => {
    const bar = document.querySelector(".seat.actor .clock span");
    if (!bar) return;
    const spent = (performance.now() - started) / 1000;
    const left = clock.seconds - spent;
    const bank = Math.max(0, clock.bank - Math.max(0, -left));
    const total = page.state.config.action_seconds;
    bar.style.width = left > 0 ? `${(100 * left) / total}%` : `${(100 * bank) / Math.max(1, page.state.config.time_bank_seconds)}%`;
    bar.style.background = left > 0 ? "" : "#f87171";
    bar.parentElement.title = left > 0 ? `${left.toFixed(0)} s` : `time bank ${bank.toFixed(0)} s`;
    const seconds = document.querySelector(".seat.actor .seconds");
    if (seconds) seconds.textContent = left > 0 ? `${Math.ceil(left)} s` : `time bank ${Math.ceil(bank)} s`;
  };
  tick();
  page.clockTimer = setInterval(tick, 250);
}

// ------------------------------------------------------------ the log and the session
function renderLog() {
  const head = document.createElement("li");
  head.className = "hand";
  const ended = page.state.home && page.state.home.ended && !page.state.phase;
  head.textContent = page.state.phase ? `Hand ${page.state.hand}` : ended ? "The game has ended" : "Waiting for the next hand";
  const lines = page.state.log.map((entry) => {
    const li = document.createElement("li");
    li.textContent = logLine(entry, page.state);
    return li;
  });
  $("log").replaceChildren(head, ...lines);
  $("log").scrollTop = $("log").scrollHeight;
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
  page.session.unshift(li);
  $("hands").replaceChildren(...page.session);
}

// ------------------------------------------------------------ drawing and the showdown pause
function draw(st) {
  page.state = st;
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
  page.hooks.drawHome(st);  // a home game's parts: host tools, requests, chat (home.js)
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
  clearInterval(page.clockTimer);
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
  page.latest = message;
  const last = message.last_hand;
  if (last && page.lastSeenHand !== null && last.number > page.lastSeenHand && page.state) {
    page.lastSeenHand = last.number;
    remember(last, page.state);
    $("pre-check-fold").checked = $("pre-check").checked = false;
    page.holding = true;
    page.showdownTimer = setTimeout(() => {  // set first: the next state is drawn even if drawing this showdown failed
      page.holding = false;
      page.showdownTimer = null;
      if (!$("status").dataset.left) drawOrRetry(page.latest);  // never a table the player has left
    }, SHOWDOWN * 1000);
    showdown(page.state, last);
    return;
  }
  if (page.lastSeenHand === null) page.lastSeenHand = last ? last.number : 0;
  if (!page.holding) drawOrRetry(message);
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

export function connect() {
  const query = page.seatToken ? `token=${encodeURIComponent(page.seatToken)}` : `table=${encodeURIComponent(page.tableId)}`;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  page.socket = new WebSocket(`${scheme}://${location.host}/ws?${query}&alive=1`);  // alive: a sign of life each quiet half second
  page.heard = Date.now();
  page.socket.onmessage = (event) => {
    page.heard = Date.now();
    const message = JSON.parse(event.data);
    if (message.type === Message.STATE) receive(message);
    else if (message.type === Message.ERROR) {
      const gone = message.message === "unknown token" && page.seatToken && page.tableId;
      if (!gone) $("error").textContent = message.message;
      else if (!(page.latest && page.latest.home && page.latest.home.ended)) {  // after the game's end, the status says so
        $("notice").textContent = "You no longer hold a seat at this table: watching.";
      }
      recheck();  // whatever was refused, show what is true now
    }
    else if (message.type === Message.MOVED) {  // a tournament moved this player: the next state is the new table
      $("error").textContent = `moved to table ${message.table}, seat ${message.seat + 1}`;
      page.lastSeenHand = null;
    } else if (message.type === Message.FINISHED) {  // out of the tournament: no reconnecting
      $("status").dataset.left = "1";
      clearTimeout(page.showdownTimer);  // a showdown still held must not draw the old table over this
      page.showdownTimer = null;
      page.holding = false;
      const prize = message.prize ? `, prize ${message.prize}` : "";
      $("status").textContent = `you finished in place ${message.place}${prize}`;
      $("actions").hidden = true;
    }
  };
  page.socket.onclose = (event) => {
    if (event.code === Close.NOT_FOUND && page.seatToken && page.tableId) {  // the seat this page held is gone: watch the table
      if (!page.params.get("token")) localStorage.removeItem(key("seat"));
      page.seatToken = null;
      page.lastSeenHand = null;
    }
    if ($("status").dataset.left) return;
    if (event.code === Close.TOO_MANY) {  // too many spectators: from this address, or at this table
      $("status").textContent = "This table has all the spectators it takes from your address or in all: trying again in 30 s…";
      setTimeout(connect, FULL_RETRY * 1000);
      return;
    }
    $("status").textContent = "disconnected: reconnecting…";
    setTimeout(connect, RETRY * 1000);
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
    const legal = page.state.legal;
    if (!legal || !legal.raise) return;
    const preset = button.dataset.preset;
    // A pot-sized raise: call, then raise by the pot after calling; raise-to totals include the bet.
    const bet = page.state.seats[page.state.seat].bet;
    setAmount(preset === "max" ? legal.raise.max : bet + legal.call + Number(preset) * (page.state.pot + legal.call));
    $("amount-box").focus();
  });
}
$("amount").addEventListener("input", () => setAmount(Number($("amount").value)));
$("amount-box").addEventListener("change", () => setAmount(Number($("amount-box").value)));
$("sit-out").addEventListener("click", () => send({ type: Message.SIT_OUT }));
$("sit-in").addEventListener("click", () => send({ type: Message.SIT_IN, post: false }));
toggles("history", () => page.hooks.historyOpened());
export function openRebuy() {
  // What this player may add, as the server counts it: the stack as the hand began, with chips on their way.
  // From the newest state received, not the one drawn: while a showdown is held on screen, the state drawn
  // is from before the hand's payout, and its range is not what the server will allow.
  const offer = (page.latest && page.latest.seat === page.state.seat ? page.latest : page.state).rebuy;
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
  send({ type: Message.REBUY, amount: Number($("rebuy-amount").value) });
  $("rebuy-form").hidden = true;
});
$("leave").addEventListener("click", async () => {
  const answer = await fetch(`/api/tables/${page.state.table}/players/${page.state.seat}`,
    { method: "DELETE", headers: { authorization: `Bearer ${page.seatToken}` } });
  const body = await answer.json();
  $("error").textContent = answer.ok ? (body.left ? "You left the table." : "You leave when this hand ends.")
    : body.error;
  if (answer.ok && body.left) $("status").dataset.left = "1";
});
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !page.state || !page.state.legal) return;
  const typing = event.target instanceof HTMLInputElement && event.target.type !== "checkbox";
  const legal = page.state.legal;
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

// Started by main.js once home.js has set its hooks: a state that arrives while a later module is still
// loading is then never drawn half-way.
export function start() {
  setInterval(watch, 1000);
  if (page.seatToken || page.tableId) connect();
  else listTables();
}
