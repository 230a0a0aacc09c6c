// What this device remembers between visits (localStorage): the player's name, the seats held, the mutes.

const NAME_KEY = "tendays.name";
const GAMES_KEY = "tendays.games";
const MUTED_KEY = "tendays.muted";

function readJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

export const remembered = {
  name() {
    return localStorage.getItem(NAME_KEY) || "";
  },
  setName(name) {
    if (name) localStorage.setItem(NAME_KEY, name);
  },
  /** {gameId: {token, seat, edition, joined}} for the games this browser holds a seat in. */
  games() {
    return readJson(GAMES_KEY, {});
  },
  token(gameId) {
    const game = this.games()[gameId];
    return game ? game.token : null;
  },
  setSeat(gameId, token, extra = {}) {
    const games = this.games();
    games[gameId] = { ...(games[gameId] || {}), ...extra, token, joined: Date.now() };
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  },
  /** The seats whose chat is hidden in a game, on this device. */
  muted(gameId) {
    const muted = readJson(MUTED_KEY, {})[gameId];
    return Array.isArray(muted) ? muted : [];
  },
  setMuted(gameId, seats) {
    const all = readJson(MUTED_KEY, {});
    if (seats.length) all[gameId] = seats;
    else delete all[gameId];
    localStorage.setItem(MUTED_KEY, JSON.stringify(all));
  },
  forget(gameId) {
    const games = this.games();
    delete games[gameId];
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  },
};
