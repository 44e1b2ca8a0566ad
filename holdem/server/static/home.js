// A home game at the browser table (table.js draws the table): hosting from the lobby, asking for a
// seat by the link, the host's tools, chat, showing a hand after it, the rebuy prompt, the settle-up,
// stored hands replayed and downloaded, and this browser's preferences (four-colour deck, sounds).
// Everything a player typed is shown as text, never as markup. What it shares with table.js is `page`.
import { NAME_KEY, PREFERENCES, api, keep, stored } from "./api.js";
import { $, option, toggles } from "./dom.js";
import { Message } from "./protocol.js";
import { decimal, percent, replayTable } from "./render.js";
import { key, page } from "./state.js";
import { drawTable, openRebuy, send } from "./table.js";

const hashed = new URLSearchParams(location.hash.slice(1));
if (page.tableId && hashed.get("host")) {  // the host's link: kept by this browser, then out of the address bar
  localStorage.setItem(key("host"), hashed.get("host"));
  history.replaceState(null, "", `${location.pathname}${location.search}`);
}
const hostToken = stored("host");
let asked = JSON.parse(stored("asked") || "null"); // {token, seat, name}: a seat asked for, not yet granted
let rebuyPrompted = null; // the hand at which the rebuy prompt was last opened
let heardChat = null; // the newest chat message seen (for the sound)
let myTurn = false;
let settleShown = false; // the settle-up opened itself once the game ended
let settledAt = null; // the hand at which the settle-up shown was read

function reconnect() {
  // A new token for this page (a seat granted): the next connection uses it.
  page.lastSeenHand = null;
  if (page.socket) page.socket.close();
}

// ------------------------------------------------------------ hosting from the lobby
$("host-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const number = (id) => Number($(id).value);
  const settings = { seats: number("host-seats"), small_blind: number("host-sb"), big_blind: number("host-bb"),
    min_buy_in: number("host-min"), max_buy_in: number("host-max"), straddle: $("host-straddle").checked,
    run_twice: $("host-twice").checked, name: $("host-game-name").value.trim(), listed: $("host-listed").checked };
  try {
    const game = await api("POST", "/api/games", settings);
    localStorage.setItem(key("host", game.id), game.host_token);
    localStorage.setItem(NAME_KEY, $("host-name").value.trim());
    const seat = await api("POST", `/api/tables/${game.id}/players`,
      { name: $("host-name").value, buy_in: number("host-buy") }, game.host_token);
    localStorage.setItem(key("seat", game.id), seat.token);
    location.href = game.player_link;
  } catch (error) {
    $("host-error").textContent = error.message;
  }
});

// ------------------------------------------------------------ asking for a seat by the link
function canAsk(st) {
  return Boolean(st.home && !st.home.ended && st.seat === null && !asked && !page.seatToken);
}

function openSeatForm(number) {
  $("seat-form").hidden = false;
  $("seat-form").dataset.seat = number;
  $("seat-title").textContent = `Seat ${number + 1}`;
  $("seat-name").value = localStorage.getItem(NAME_KEY) || "";
  $("seat-buy").min = page.state.config.min_buy_in;
  $("seat-buy").max = page.state.config.max_buy_in;
  $("seat-buy").value = page.state.config.max_buy_in;
  $("seat-range").textContent = `${page.state.config.min_buy_in} to ${page.state.config.max_buy_in}`;
  $("seat-name").focus();
}

$("seat-cancel").addEventListener("click", () => { $("seat-form").hidden = true; });
$("seat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seat = Number($("seat-form").dataset.seat);
  const name = $("seat-name").value.trim();
  try {
    const answer = await api("POST", `/api/tables/${page.tableId}/players`,
      { name, buy_in: Number($("seat-buy").value), seat }, hostToken);
    localStorage.setItem(NAME_KEY, name);
    $("seat-form").hidden = true;
    if (answer.pending) {
      asked = { token: answer.token, seat: answer.seat, name };
      keep("asked", JSON.stringify(asked));
      drawHome(page.state);
    } else {
      page.seatToken = answer.token;
      keep("seat", page.seatToken);
      reconnect();
    }
  } catch (error) {
    $("seat-error").textContent = error.message;
  }
});

function checkAsked(st) {
  // Granted: the seat holds the name asked with, and no request is left for it; declined: the request
  // was seen waiting and is gone with nobody of that name seated (a state drawn before the request
  // arrived says nothing).
  if (!asked || !st.home) return;
  const waiting = st.home.pending.some((p) => p.seat === asked.seat && p.name === asked.name);
  const seat = st.seats[asked.seat];
  const granted = seat && seat.name === asked.name;
  $("asking").hidden = granted;
  $("asking").textContent = `Waiting for the host to let ${asked.name} sit in seat ${asked.seat + 1}…`;
  if (waiting && !asked.seen) {
    asked.seen = true;
    keep("asked", JSON.stringify(asked));
  }
  if (waiting || (!granted && !asked.seen)) return;
  $("asking").hidden = true;
  if (granted) {
    page.seatToken = asked.token;
    keep("seat", page.seatToken);
    reconnect();
  } else {
    $("error").textContent = `The host did not seat ${asked.name}.`;
  }
  asked = null;
  keep("asked", null);
}

// ------------------------------------------------------------ the host's tools
async function host(command, fields = {}) {
  try {
    await api("POST", `/api/tables/${page.tableId}/host`, { command, ...fields }, hostToken);
    $("host-error-table").textContent = "";
  } catch (error) {
    $("host-error-table").textContent = error.message;
  }
}

function drawHost(st) {
  $("host-tools").hidden = !hostToken || !st.home || st.home.ended;
  $("requests-box").hidden = $("host-tools").hidden || !st.home.pending.length;  // shown above the table
  if ($("host-tools").hidden) return;
  $("invite").value = `${location.origin}/?table=${encodeURIComponent(st.table)}`;
  $("host-link").value = `${$("invite").value}#host=${encodeURIComponent(hostToken)}`;
  $("pause").hidden = st.home.paused || st.home.ended;
  $("resume").hidden = !st.home.paused;
  $("requests").replaceChildren(...st.home.pending.map((p) => {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = `${p.name} asks for seat ${p.seat + 1} with ${p.buy_in} `;
    const yes = document.createElement("button");
    yes.textContent = "Approve";
    yes.setAttribute("aria-label", `approve ${p.name}`);
    yes.addEventListener("click", () => host("approve", { seat: p.seat }));
    const no = document.createElement("button");
    no.textContent = "Decline";
    no.setAttribute("aria-label", `decline ${p.name}`);
    no.addEventListener("click", () => host("decline", { seat: p.seat }));
    li.append(text, yes, no);
    return li;
  }));
  const held = st.seats.map((s, k) => [s, k]).filter(([s]) => s);
  const open = st.seats.map((s, k) => [s, k]).filter(([s, k]) => !s && !st.home.pending.some((p) => p.seat === k));
  const chosen = { remove: $("remove-seat").value, bot: $("bot-seat").value };
  $("remove-seat").replaceChildren(...held.map(([s, k]) => option(k, `${s.name} (seat ${k + 1})`)));
  $("bot-seat").replaceChildren(...open.map(([, k]) => option(k, `seat ${k + 1}`)));
  if (chosen.remove) $("remove-seat").value = chosen.remove;
  if (chosen.bot) $("bot-seat").value = chosen.bot;
  for (const [id, value] of [["new-sb", st.config.small_blind], ["new-bb", st.config.big_blind]]) {
    if (!$(id).value && document.activeElement !== $(id)) $(id).value = value;
  }
  const next = st.home.next_blinds;
  $("next-blinds").textContent = next ? `next hand: ${next[0]}/${next[1]}${next[2] ? ` ante ${next[2]}` : ""}` : "";
}

$("pause").addEventListener("click", () => host("pause"));
$("resume").addEventListener("click", () => host("resume"));
for (const [button, field] of [["copy-invite", "invite"], ["copy-host-link", "host-link"]]) {
  $(button).addEventListener("click", () => {
    $(field).select();
    if (navigator.clipboard) navigator.clipboard.writeText($(field).value).catch(() => {});
  });
}
$("blinds-form").addEventListener("submit", (event) => {
  event.preventDefault();
  host("blinds", { small_blind: Number($("new-sb").value), big_blind: Number($("new-bb").value),
    ante: Number($("new-ante").value || 0) });
});
$("remove-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if ($("remove-seat").value !== "") host("remove", { seat: Number($("remove-seat").value) });
});
$("bot-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if ($("bot-seat").value !== "") host("bot", { bot: $("bot-kind").value, seat: Number($("bot-seat").value) });
});
$("end-game").addEventListener("click", () => {
  if ($("end-game").dataset.confirm) host("end");
  else {
    $("end-game").dataset.confirm = "1";
    $("end-game").textContent = "End the game: sure?";
  }
});

// ------------------------------------------------------------ chat, showing, the rebuy prompt
function drawChat(st) {
  // A line whose writer is not the person now seated under that name (compared without case) is marked:
  // two people may use one name, one after the other.
  const seated = new Map((st.seats || []).filter((s) => s).map((s) => [s.name.toLowerCase(), s.person]));
  const lines = (st.chat || []).map((entry) => {
    const li = document.createElement("li");
    const who = document.createElement("b");
    const holder = seated.get(entry.name.toLowerCase());
    const other = entry.person && holder !== undefined && holder !== entry.person;
    const name = other ? `${entry.name} (a different ${entry.name}, gone)` : entry.name;
    who.textContent = entry.cards ? name : `${name}:`;
    li.append(who, document.createTextNode(" " + entry.text));
    return li;
  });
  $("chat-lines").replaceChildren(...lines);
  $("chat-lines").scrollTop = $("chat-lines").scrollHeight;
  $("chat-form").hidden = st.seat === null;
  const newest = st.chat && st.chat.length ? st.chat[st.chat.length - 1] : null;
  if (newest && heardChat !== null && newest.n > heardChat && newest.seat !== st.seat) beep(660);
  heardChat = newest ? newest.n : 0;
}

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  send({ type: Message.CHAT, text });
  $("chat-text").value = "";
});

function drawShow(st) {
  const last = st.last_hand;
  const mine = st.seat !== null && last && last.seats.includes(st.seat) && !last.shown[st.seat] &&
    st.seats[st.seat] && !st.tournament;
  $("show-cards").hidden = !mine;
  if (mine) $("show-cards").textContent = `Show my cards of hand ${last.number}`;
}

$("show-cards").addEventListener("click", () => {
  send({ type: Message.SHOW, hand: page.state.last_hand.number });
  $("show-cards").hidden = true;
});

function promptRebuy(st) {
  // A busted player is asked to rebuy, with the range the table allows.
  const me = st.seat === null ? null : st.seats[st.seat];
  const broke = me && me.stack === 0 && !me.pending && !(me.in_hand && !me.folded) && !st.tournament &&
    !(st.home && st.home.ended);
  if (broke && rebuyPrompted !== st.hand) {
    rebuyPrompted = st.hand;
    openRebuy();
    $("error").textContent = "You are out of chips: rebuy to play on.";
  }
}

// ------------------------------------------------------------ the settle-up
async function drawSettle() {
  try {
    const settled = await api("GET", `/api/tables/${page.tableId}/settle`);
    $("settle-rows").replaceChildren(...settled.players.map((p) => {
      const tr = document.createElement("tr");
      const name = p.bots ? `${p.name}: ${p.bots.join(", ")}` : p.name;  // the host's bots, on one line
      for (const value of [name, p.bought, p.cashed, p.on_table, (p.net > 0 ? "+" : "") + p.net]) {
        const td = document.createElement("td");
        td.textContent = value;
        tr.append(td);
      }
      return tr;
    }));
    $("payments").replaceChildren(...settled.payments.map((p) => {
      const li = document.createElement("li");
      li.textContent = `${p.from} pays ${p.to} ${p.chips}`;
      return li;
    }));
    $("settle-note").textContent = settled.final ? "The game has ended."
      : settled.ended ? "Provisional: the game ends when this hand is over, and the figures may change until then."
      : "The game is on: chips on the table count.";
    $("settle").classList.toggle("provisional", !settled.final);
    if (!settled.payments.length) $("payments").replaceChildren(Object.assign(document.createElement("li"), { textContent: "Nobody owes anyone." }));
  } catch (error) {
    $("settle-note").textContent = error.message;
  }
}

toggles("settle", () => drawSettle());

// ------------------------------------------------------------ the players' statistics
let statsAt = null;

async function drawStats() {
  try {
    const answer = await api("GET", `/api/tables/${page.tableId}/stats`, undefined, hostToken || handToken());
    $("stats-rows").replaceChildren(...answer.players.map((p) => {
      const row = document.createElement("tr");
      for (const text of [p.player, String(p.hands), percent(p.vpip), percent(p.pfr), percent(p.three_bet),
        decimal(p.aggression.factor, 2), percent(p.went_to_showdown), percent(p.won_at_showdown), decimal(p.bb_per_100)]) {
        row.append(Object.assign(document.createElement("td"), { textContent: text }));
      }
      return row;
    }));
    $("stats-note").textContent = `Over the ${answer.hands} hands stored at this table (holdem docs stats defines each).`;
  } catch (error) {
    $("stats-note").textContent = error.message;
  }
}

toggles("stats", () => drawStats());
$("stats-shown").addEventListener("change", () => host("stats", { on: $("stats-shown").checked }));

function drawStatsTools(st) {
  const may = Boolean(st.home) && (st.home.stats || Boolean(hostToken));
  $("stats-toggle").hidden = !may;
  if (!may) $("stats").hidden = true;
  if (st.home && hostToken) $("stats-shown").checked = st.home.stats;
  const moment = st.last_hand ? st.last_hand.number : 0;
  if (!$("stats").hidden && statsAt !== moment) {  // read again after each hand
    statsAt = moment;
    drawStats();
  }
}

// ------------------------------------------------------------ stored hands: replay and download
function handToken() {
  return page.seatToken || stored("past") || hostToken;
}

async function listStored() {
  const token = handToken();
  if (!token || !page.tableId) return;
  try {
    const answer = await api("GET", `/api/tables/${page.tableId}/hands`, undefined, token);
    $("stored").replaceChildren(...answer.hands.slice(-50).reverse().map((row) => {
      const li = document.createElement("li");
      li.append(document.createTextNode(`Hand ${row.number} (${row.players.join(", ")}) `));
      for (const [label, kind] of [["Replay", "replay"], ["PHH", "phh"], ["PokerStars", "pokerstars"]]) {
        const button = document.createElement("button");
        button.textContent = label;
        button.setAttribute("aria-label", `${label} hand ${row.number}`);
        button.addEventListener("click", () => storedHand(row.number, kind));
        li.append(button);
      }
      return li;
    }));
  } catch (error) {
    $("stored").textContent = error.message;
  }
}

async function storedHand(number, kind) {
  try {
    const hand = await api("GET", `/api/tables/${page.tableId}/hands/${number}`, undefined, handToken());
    if (kind === "replay") return replay(hand);
    const text = kind === "phh" ? hand.phh : hand.pokerstars;
    if (!text) throw new Error(hand.pokerstars_error);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = `table-${page.tableId}-hand-${number}.${kind === "phh" ? "phh" : "txt"}`;
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    $("error").textContent = error.message;
  }
}

let replaying = null;
function replay(hand) {
  replaying = { hand, step: 0 };
  $("replay").hidden = false;
  drawReplay();
  $("replay-next").focus();
}

function drawReplay() {
  const { hand, step } = replaying;
  const { st, lines, end } = replayTable(hand, step);
  drawTable(st, end, $("replay-felt"));
  $("replay-title").textContent = `Hand ${hand.number}: step ${step + 1} of ${hand.steps.length}`;
  $("replay-stacks").textContent = hand.players.map((n, k) => `${n} ${st.seats[hand.seats[k]].stack}`).join(" · ") +
    ` · pot ${st.pot}`;
  $("replay-log").replaceChildren(...lines.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  $("replay-prev").disabled = step === 0;
  $("replay-next").disabled = step === hand.steps.length - 1;
}

$("replay-prev").addEventListener("click", () => { replaying.step -= 1; drawReplay(); });
$("replay-next").addEventListener("click", () => { replaying.step += 1; drawReplay(); });
$("replay-close").addEventListener("click", () => { $("replay").hidden = true; });

// ------------------------------------------------------------ preferences and sounds
let audio = null;
function beep(pitch) {
  if (!$("sounds").checked) return;
  audio = audio || new AudioContext();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = pitch;
  gain.gain.value = 0.08;
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.12);
}

for (const [id, preference] of Object.entries(PREFERENCES)) {
  $(id).checked = localStorage.getItem(preference) === "1";
  $(id).addEventListener("change", () => {
    localStorage.setItem(preference, $(id).checked ? "1" : "0");
    document.body.classList.toggle("four-colour", $("four-colour").checked);
  });
}
document.body.classList.toggle("four-colour", $("four-colour").checked);

// ------------------------------------------------------------ drawn with every state (from table.js)
function drawHome(st) {
  if (st.seat !== null && page.seatToken) keep("past", page.seatToken);  // still lets this player download hands
  checkAsked(st);
  drawHost(st);
  drawChat(st);
  drawShow(st);
  promptRebuy(st);
  $("settle-toggle").hidden = !st.home;
  drawStatsTools(st);
  if (st.home && st.home.paused) $("status").textContent += " · paused by the host";
  if (st.seat !== null || (st.home && st.home.ended)) $("notice").textContent = "";
  if (st.home && st.home.ended) {
    $("status").textContent += " · the game has ended";
    if (!settleShown) {
      settleShown = true;
      if ($("settle").hidden) $("settle-toggle").click();
    }
  }
  const moment = `${st.hand}:${st.last_hand ? st.last_hand.number : 0}:${st.seats.filter(Boolean).length}`;
  if (!$("settle").hidden && settledAt !== moment) {  // read again after a hand, a join or a cash-out
    settledAt = moment;
    drawSettle();
  }
  const turn = Boolean(st.legal);
  if (turn && !myTurn) beep(880);
  myTurn = turn;
}

page.hooks = { drawHome, canAsk, openSeatForm, historyOpened: listStored };
