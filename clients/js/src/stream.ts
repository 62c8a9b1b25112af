import { ApiError, Http } from './http.js';
import { SseParser } from './sse.js';

/**
 * One connection to the unread stream, read with `fetch` rather than `EventSource`: fetch sends the token in the
 * `Authorization` header (EventSource can put it only in the URL) and leaves reconnecting, with a fresh token and the
 * client's own backoff, to the caller. It resolves once the connection is over, saying how it ended.
 */
export type StreamEnd =
  /** The server or the network closed the stream. */
  | { kind: 'closed' }
  /** The server ended the stream with a last `reconnect` event (`token-expired`, `max-age`). */
  | { kind: 'reconnect'; reason: string }
  /** Nothing arrived, not even a heartbeat, for longer than the idle limit: a dead connection. */
  | { kind: 'idle' }
  /** The server answered with an error instead of a stream. */
  | { kind: 'refused'; error: ApiError }
  /** The request failed, or the stream broke mid-way, or an event could not be handled. */
  | { kind: 'failed'; error: unknown }
  /** The answer was a success but not a readable event stream (a proxy, or a fetch without streaming bodies). */
  | { kind: 'unsupported' }
  /** The caller aborted it. */
  | { kind: 'stopped' };

export interface StreamEvents {
  /** An event other than `reconnect`; it may throw, which ends the connection as `failed`. */
  event(type: string, data: string): void;
  retry(ms: number): void;
}

export async function readStream(http: Http, path: string, idleMs: number, stop: AbortSignal,
                                 events: StreamEvents): Promise<StreamEnd> {
  if (stop.aborted) return { kind: 'stopped' };
  const connection = new AbortController();
  const onStop = () => connection.abort();
  stop.addEventListener('abort', onStop);
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => { idle = true; connection.abort(); }, idleMs);
  };
  let reconnectReason: string | undefined;
  const parser = new SseParser({
    event(type, data) {
      if (type === 'reconnect') reconnectReason = reasonOf(data);
      else events.event(type, data);
    },
    retry: (ms) => events.retry(ms),
  });
  try {
    arm();
    const response = await http.send(path, { Accept: 'text/event-stream' }, connection.signal);
    if (!response.ok) return { kind: 'refused', error: await ApiError.from(response) };
    const type = response.headers.get('Content-Type') ?? '';
    if (!response.body || !type.toLowerCase().startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { kind: 'unsupported' };
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arm();
      parser.push(decoder.decode(value, { stream: true }));
    }
    return reconnectReason === undefined ? { kind: 'closed' } : { kind: 'reconnect', reason: reconnectReason };
  } catch (error) {
    if (stop.aborted) return { kind: 'stopped' };
    if (idle) return { kind: 'idle' };
    return { kind: 'failed', error };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
    connection.abort(); // releases the connection when a handler threw mid-stream
  }
}

function reasonOf(data: string): string {
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { reason?: unknown }).reason === 'string') {
      return (parsed as { reason: string }).reason;
    }
  } catch {
    // an unreadable reason is still a request to reconnect
  }
  return 'unknown';
}
