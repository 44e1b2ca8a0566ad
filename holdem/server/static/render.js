// What the table shows, worked out without the page: card faces and names, where each seat sits, the
// log's lines, a hand's result, and a stored hand's table at each step of its replay. Pure functions of
// their arguments (tested with `node --test`, tests/js/); the drawing is table.js's.

export const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };

/** A card's face, "10♥" for "Th". */
export function cardFace(text) {
  return text[0].replace("T", "10") + SUITS[text[1]];
}

/** A card's name for a screen reader, "ten of hearts" for "Th". */
export function cardLabel(text) {
  return `${RANK_NAMES[text[0]]} of ${SUIT_NAMES[text[1]]}`;
}

/** Where seat `index` of `count` sits on the oval (percent of the felt), clockwise from the bottom, where
 * `mine` (the player's own seat, or seat 1 for a spectator) is. */
export function place(index, count, mine) {
  const angle = Math.PI / 2 + ((index - mine) * 2 * Math.PI) / count;
  return { x: 50 + 41 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

/** The name at `seat` in the table state `st`, or "seat N" when nobody is there. */
export function nameOf(seat, st) {
  const entry = st && st.seats[seat];
  return entry ? entry.name : `seat ${Number(seat) + 1}`;
}

/** Whether a bet stands on this street (the blinds included): "Raise to" then, "Bet" otherwise. */
export function betMade(st) {
  return st.seats.some((s) => s && s.bet);
}

/** One entry of a hand's log as a line of text. */
export function logLine(entry, st) {
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

/** A finished hand's result: each pot (the main pot, then side pots) with who won it and with what. */
export function resultText(last, st) {
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

/** A seat's roles as its plate lists them ("dealer · big blind · folded"). */
export function roles(st, number, away) {
  const seat = st.seats[number];
  return [number === st.button ? "dealer" : "", seat.blind || "", away ? "away" : "", seat.sitting_out ? "sitting out" : "",
    seat.joining ? "joins next hand" : "", seat.waiting ? "waiting for the big blind" : "", seat.leaving ? "leaving" : "",
    seat.folded ? "folded" : ""].filter(Boolean).join(" · ");
}

/** A stored hand (as `GET /api/tables/ID/hands/N` gives it) at step `step` of its replay: a table state
 * the live table's drawing takes (the stacks, bets, pot and board the server sent for that step), its log
 * lines so far, and at the end the cards shown and the winners. */
export function replayTable(hand, step) {
  const at = hand.steps[step];
  const names = { seats: [] };
  hand.seats.forEach((seat, k) => { names.seats[seat] = { name: hand.players[k] }; });
  const done = hand.steps.slice(0, step + 1);
  const folded = new Set(done.filter((e) => e.kind === "action" && e.action === "fold").map((e) => e.seat));
  const shown = Object.fromEntries(done.filter((e) => e.kind === "show").map((e) => [e.seat, e.cards]));
  const won = {};
  for (const e of done.filter((entry) => entry.kind === "win")) won[e.seat] = (won[e.seat] || 0) + e.amount;
  const own = hand.steps.find((entry) => entry.kind === "hole" && entry.cards.length);  // dealt with the blinds
  const seats = Array(hand.seat_count).fill(null);
  hand.seats.forEach((seat, k) => {
    seats[seat] = { name: hand.players[k], stack: at.stacks[k], bet: at.bets[k], in_hand: true, folded: folded.has(seat),
      pending: 0, blind: null };
  });
  const you = hand.you === null ? null : hand.seats[hand.you];
  const st = { replay: true, seats, seat: you, hole: own ? own.cards : [], board: at.board, pot: at.pot, phase: "replay",
    button: hand.button, actor: null };
  const over = Object.keys(won).length > 0;
  return { st, lines: done.map((entry) => logLine(entry, names)), end: over ? { shown, won, board: at.board, second_board: [] } : null };
}

/** A statistic's percentage ("-" when it had no chance), and a number to `digits` places ("-" for none). */
export const percent = (rate) => rate.percent === null ? "-" : rate.percent.toFixed(1);
export const decimal = (value, digits = 1) => value === null ? "-" : value.toFixed(digits);
