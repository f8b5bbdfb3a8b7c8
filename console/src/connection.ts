/**
 * The connection as the offline banner shows it (docs/console.md "On a phone: the installable
 * app"): whether the browser is online, and since when the answers shown are saved copies the
 * service worker gave instead of the network's (src/sw.ts marks them X-Caretaker-Saved-At).
 */
/** The connection as the banner shows it. */
export interface ConnectionState {
  /** The browser's navigator.onLine, following its online and offline events. */
  online: boolean;
  /** Epoch ms of the oldest saved answer shown since the connection was last seen working; null when none. */
  savedAt: number | null;
}

let connection: ConnectionState = { online: typeof navigator === 'undefined' ? true : navigator.onLine, savedAt: null };
const connectionListeners = new Set<() => void>();

function setConnection(next: ConnectionState): void {
  if (next.online === connection.online && next.savedAt === connection.savedAt) return;
  connection = next;
  for (const fn of [...connectionListeners]) fn();
}

/** The current connection state (for useSyncExternalStore). */
export function connectionState(): ConnectionState {
  return connection;
}

/** Calls `fn` when the connection state changes; returns the unsubscribe function. */
export function subscribeConnection(fn: () => void): () => void {
  connectionListeners.add(fn);
  return () => void connectionListeners.delete(fn);
}

/**
 * Notes an API answer (api.ts calls it for every answer): one the service worker took from its
 * cache (header X-Caretaker-Saved-At, the HTTP date it was fetched) moves `savedAt` back to the
 * oldest such time; a fresh answer while online clears it.
 */
export function noteAnswer(res: Response): void {
  const saved = res.headers.get('x-caretaker-saved-at');
  if (saved !== null) {
    const at = Date.parse(saved);
    const when = Number.isNaN(at) ? Date.now() : at;
    setConnection({ ...connection, savedAt: connection.savedAt === null ? when : Math.min(connection.savedAt, when) });
  } else if (navigator.onLine && connection.savedAt !== null) {
    setConnection({ online: true, savedAt: null });
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => setConnection({ online: true, savedAt: null }));
  window.addEventListener('offline', () => setConnection({ ...connection, online: false }));
}

/** "14:05": a time as London's hours and minutes (the offline banner). */
export function londonTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

