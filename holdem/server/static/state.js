// The page's one shared state: what table.js and home.js both read and change, by name, here alone.
// `window.holdemPage` is the same object, for the browser's console and the browser tests.

const params = new URLSearchParams(location.search);
const tableId = params.get("table");

/** The local-storage key of what this browser keeps for a table: "seat", "host", "asked" or "past". */
export const key = (kind, table = tableId) => `holdem.${kind}.${table}`;

export const page = {
  params,
  tableId,
  /** A seat's token: from the address (`?token=`), or kept by this browser when it took a seat by the link. */
  seatToken: params.get("token") || (tableId && localStorage.getItem(key("seat"))),
  state: null, // the state drawn
  latest: null, // the newest state received (drawn once the showdown pause is over)
  holding: false, // a finished hand is held on screen
  showdownTimer: null, // the held showdown's timer, cleared when this player leaves the table
  lastSeenHand: null,
  socket: null,
  clockTimer: null,
  amountTurn: null, // the turn ("hand/steps") whose raise amount the player has been choosing
  heard: Date.now(), // when the last message arrived
  rechecked: 0, // when the state was last asked for again
  session: [], // this session's finished hands, newest first
  /** What a home game adds to the table (home.js sets them): its parts of each state, and asking for a seat. */
  hooks: { drawHome: () => {}, canAsk: () => false, openSeatForm: () => {}, historyOpened: () => {} },
};

window.holdemPage = page;
