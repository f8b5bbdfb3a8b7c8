/**
 * A Server-Sent Events reader for the live-update tests (docs/live-updates.md): opens
 * `GET /api/events/stream` over real HTTP and collects its messages as the stream sends them.
 */

/** One SSE message: its id (when sent), event name and data. */
export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** An open stream and what it received so far. */
export interface SseStream {
  status: number;
  headers: Headers;
  /** Parsed messages, in order; the JSON of `data` in `json`. */
  messages: Array<SseMessage & { json: Record<string, unknown> }>;
  /** Comment lines seen (heartbeats). */
  comments: string[];
  /** The `retry` field, when sent. */
  retry: number | undefined;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits until `predicate` holds for the messages (polling every 10 ms), or throws after `timeoutMs`. */
  waitFor(predicate: (messages: SseStream['messages']) => boolean, timeoutMs?: number): Promise<void>;
  /** Events about jobs (messages with a job_uuid). */
  jobEvents(): Array<Record<string, unknown>>;
  close(): void;
}

/**
 * Opens a stream.
 * @param headers request headers (authorization, cookie, last-event-id)
 * @returns the stream; for a non-200 answer `messages` stays empty and `body` holds the text
 */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream & { body: string }> {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ctrl.signal });
  const stream: SseStream & { body: string } = {
    status: res.status,
    headers: res.headers,
    messages: [],
    comments: [],
    retry: undefined,
    body: '',
    ended: Promise.resolve(),
    isEnded: () => ended,
    waitFor: async (predicate, timeoutMs = 5_000) => {
      const until = Date.now() + timeoutMs;
      while (!predicate(stream.messages)) {
        if (Date.now() > until) throw new Error(`SSE: condition not met in ${timeoutMs} ms; got ${JSON.stringify(stream.messages.map((m) => m.json))}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    jobEvents: () => stream.messages.map((m) => m.json).filter((j) => typeof j.job_uuid === 'string'),
    close: () => ctrl.abort(),
  };
  let ended = false;
  if (res.status !== 200 || !res.body) {
    stream.body = await res.text();
    ended = true;
    return stream;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const msg: SseMessage = { id: undefined, event: undefined, data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) msg.id = line.slice(4);
            else if (line.startsWith('event: ')) msg.event = line.slice(7);
            else if (line.startsWith('retry: ')) stream.retry = Number(line.slice(7));
            else if (line.startsWith('data: ')) {
              msg.data += (hasData ? '\n' : '') + line.slice(6);
              hasData = true;
            }
          }
          if (hasData) stream.messages.push({ ...msg, json: JSON.parse(msg.data) as Record<string, unknown> });
        }
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
    }
  })();
  return stream;
}
