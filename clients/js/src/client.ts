import { Backoff } from './backoff.js';
import { ApiError, Http, type TokenSource } from './http.js';
import { readStream, type StreamEnd } from './stream.js';
import { VersionTracker } from './versions.js';
import { type Change, changesOf, type Counts, countsOf, isPage, parseCounts, type UnreadPage } from './wire.js';

export type { Change, Counts, UnreadItem, UnreadPage } from './wire.js';

/** `auto`: the stream, polling while it cannot be had; `stream` or `poll`: only that. */
export type Transport = 'auto' | 'stream' | 'poll';

/**
 * `live`: the stream is open and what is shown is current. `polling`: counts are read every poll interval.
 * `connecting`, `reconnecting`: no stream yet or any more, so what is shown may be stale. `failed`: the API refused
 * for good (a malformed user id, a token that may not read this user); `stopped`: {@link ReadmarkClient.stop}.
 */
export type ClientState = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'polling' | 'failed' | 'stopped';

export interface ClientOptions {
  /** Whose counts: digits, as in the API's paths. */
  userId: number | string;
  /** The view API's origin, e.g. `https://view.example.com`; empty for the page's own origin. */
  baseUrl?: string;
  /** Called before every request and every (re)connect, so an expired token is replaced on the next attempt. */
  token?: TokenSource;
  transport?: Transport;
  /** Between two polls. Default 15 s. */
  pollIntervalMs?: number;
  /** The first reconnection delay until the server sends `retry:`. Default 1 s. */
  initialRetryMs?: number;
  /** The largest reconnection delay, before jitter. Default 30 s. */
  maxRetryMs?: number;
  /** A stream silent this long (the server sends a heartbeat every 30 s) is dead. Default 75 s. */
  idleTimeoutMs?: number;
  /** In `auto`, failed stream attempts in a row before polling, if a read of the counts then succeeds. Default 3. */
  fallbackAfter?: number;
  /** In `auto`, how often polling tries the stream again. Default 60 s. */
  streamProbeMs?: number;
  fetch?: typeof fetch;
  random?: () => number;
}

/** The detail of a `counts` event: new counts, and why. */
export interface CountsDetail {
  counts: Counts;
  /** `snapshot`: a stream's first event; `push`: a later one; `read`: a `GET`. */
  source: 'snapshot' | 'push' | 'read';
  changes: Change[];
  changesOmitted: number;
}

/** The detail of a `gap` event: changes were missed between `listed` and `version`; the client re-reads. */
export interface GapDetail {
  listed: number | undefined;
  version: number;
}

const USER_ID = /^[1-9][0-9]{0,18}$/;

/**
 * One user's unread counts, kept current: over the view API's unread stream while it can be had (fetch-streamed,
 * reconnecting with backoff and jitter, honouring the server's `retry:`), else by polling with `If-None-Match`, which
 * costs a body only when something changed. It watches the state versions and, when it missed a change, reads the
 * counts again. Events: `counts` ({@link CountsDetail}), `state` (`{state}`), `gap` ({@link GapDetail}) and `error`
 * (`{error}`: a failure it retries, or the one that made it fail).
 */
export class ReadmarkClient extends EventTarget {
  /** The counts shown now; null before the first answer. */
  counts: Counts | null = null;
  state: ClientState = 'idle';

  private readonly http: Http;
  private readonly path: string;
  private readonly transport: Transport;
  private readonly pollIntervalMs: number;
  private readonly idleTimeoutMs: number;
  private readonly fallbackAfter: number;
  private readonly streamProbeMs: number;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly versions = new VersionTracker();
  private stopper: AbortController | null = null;
  private live = false;
  private pushes = 0;
  private etag: string | null = null;
  private reading = false;
  private readAgain = false;

  constructor(options: ClientOptions) {
    super();
    const userId = String(options.userId);
    if (!USER_ID.test(userId)) throw new RangeError(`userId must be a positive decimal id, was '${userId}'`);
    this.path = `/v1/users/${userId}/unread`;
    this.http = new Http(options.baseUrl ?? '', options.token, options.fetch ?? fetch);
    this.transport = options.transport ?? 'auto';
    this.pollIntervalMs = positive(options.pollIntervalMs, 15_000, 'pollIntervalMs');
    this.idleTimeoutMs = positive(options.idleTimeoutMs, 75_000, 'idleTimeoutMs');
    this.fallbackAfter = positive(options.fallbackAfter, 3, 'fallbackAfter');
    this.streamProbeMs = positive(options.streamProbeMs, 60_000, 'streamProbeMs');
    this.random = options.random ?? Math.random;
    const initialMs = positive(options.initialRetryMs, 1_000, 'initialRetryMs');
    this.backoff = new Backoff({ initialMs, maxMs: Math.max(initialMs, positive(options.maxRetryMs, 30_000, 'maxRetryMs')),
      jitter: 0.5, random: this.random });
  }

  /** Starts following the counts; idempotent while running. */
  start(): this {
    if (this.stopper) return this;
    const stopper = new AbortController();
    this.stopper = stopper;
    void this.run(stopper.signal);
    return this;
  }

  /** Closes the stream and stops polling; {@link start} may follow. */
  stop(): void {
    this.stopper?.abort();
    this.stopper = null;
    this.setState('stopped');
  }

  /** Reads the counts now, conditionally: a `304` keeps what is shown. */
  async refresh(): Promise<void> {
    await this.read(true, this.stopper?.signal);
  }

  /** One page of the user's unread blogs, all authors merged, newest first; pass `nextCursor` back for the next. */
  async unreadItems(limit = 20, cursor?: string | null): Promise<UnreadPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RangeError('limit must be within 1..100');
    const query = `?limit=${limit}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const page: unknown = await (await this.http.get(this.path + '/items' + query)).json();
    if (!isPage(page)) throw new TypeError('the view API answered an unreadable page');
    return page;
  }

  private async run(stop: AbortSignal): Promise<void> {
    let mode: 'stream' | 'poll' = this.transport === 'poll' ? 'poll' : 'stream';
    let probe = false;
    while (!stop.aborted) {
      if (mode === 'stream') {
        if ((await this.follow(stop, probe)) === 'done') return;
        mode = 'poll';
      } else {
        if ((await this.poll(stop)) === 'done') return;
        mode = 'stream';
        probe = true;
      }
    }
  }

  /** Keeps a stream open; returns `poll` when `auto` should poll instead. A probe gives up at its first failure. */
  private async follow(stop: AbortSignal, probe: boolean): Promise<'poll' | 'done'> {
    let failures = 0;
    for (;;) {
      if (!probe) this.setState(this.counts ? 'reconnecting' : 'connecting');
      this.live = false;
      const end = await readStream(this.http, this.path + '/stream', this.idleTimeoutMs, stop, {
        event: (type, data) => this.onStreamEvent(type, data),
        retry: (ms) => this.backoff.hint(ms),
      });
      if (end.kind === 'stopped') return 'done';
      if (this.live) {
        failures = 0;
        probe = false;
      } else if (!refusedForNow(end)) {
        failures++;
      }
      // Asked to: at once, and with a fresh token (the old one may be what expired).
      if (end.kind === 'reconnect') continue;
      let atLeastMs = 0;
      if (end.kind === 'refused') {
        if (end.error.permanent) return this.fail(end.error);
        // 429: this user's streams are all taken (other tabs); polling costs the server less than waiting.
        if (end.error.status === 429 && this.transport === 'auto') return 'poll';
        atLeastMs = end.error.retryAfterMs ?? 0;
      }
      if (end.kind === 'unsupported') {
        if (this.transport === 'auto') return 'poll';
        return this.fail(new Error('the answer was not a readable event stream'));
      }
      if (end.kind === 'refused' || end.kind === 'failed') this.emit('error', { error: end.error });
      if (probe) return 'poll';
      // Polling helps only where streams fail and reads do not (a proxy that buffers or cuts long answers); while
      // the API is unreachable the stream reconnects as soon as it is back. One read tells the two apart.
      if (this.transport === 'auto' && failures >= this.fallbackAfter && (await this.readable(stop))) return 'poll';
      this.setState('reconnecting');
      if (!(await sleep(this.backoff.next(atLeastMs), stop))) return 'done';
    }
  }

  /** Whether a read of the counts succeeds now; it shows what it read. */
  private async readable(stop: AbortSignal): Promise<boolean> {
    try {
      await this.read(true, stop);
      return true;
    } catch (error) {
      if (!stop.aborted) this.emit('error', { error });
      return false;
    }
  }

  private onStreamEvent(type: string, data: string): void {
    if (type !== 'counts') return; // kinds this client does not know yet
    const push = parseCounts(data);
    const changes = changesOf(push);
    const omitted = typeof push.changesOmitted === 'number' ? push.changesOmitted : 0;
    const counts = countsOf(push);
    this.pushes++;
    this.etag = null; // the tag of the last read no longer describes what is shown
    if (!this.live) {
      this.live = true;
      this.backoff.reset();
      this.setState('live');
      const listed = this.versions.listed;
      const outcome = this.versions.read(counts.version);
      this.show(counts, 'snapshot', changes, omitted);
      // The snapshot is itself a fresh read: only what was derived from changes needs reading again.
      if (outcome.gap) this.emit('gap', { listed, version: counts.version } satisfies GapDetail);
      return;
    }
    const listed = this.versions.listed;
    const outcome = this.versions.push(counts.version, changes, omitted);
    this.show(counts, 'push', changes, omitted);
    if (outcome.gap) {
      this.emit('gap', { listed, version: counts.version } satisfies GapDetail);
      this.rereadAfterGap();
    }
  }

  /** Reads the counts after a gap; gaps while a read is in flight make one more read, not one each. */
  private rereadAfterGap(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    const stop = this.stopper?.signal;
    void (async () => {
      try {
        do {
          this.readAgain = false;
          await this.read(false, stop);
        } while (this.readAgain && !stop?.aborted);
      } catch (error) {
        if (!stop?.aborted) this.emit('error', { error });
      } finally {
        this.reading = false;
      }
    })();
  }

  /** Polls until stopped; returns `stream` when `auto` should try the stream again. */
  private async poll(stop: AbortSignal): Promise<'stream' | 'done'> {
    this.setState('polling');
    const probeAt = Date.now() + this.streamProbeMs;
    for (;;) {
      let delay: number;
      try {
        await this.read(true, stop);
        this.backoff.reset();
        delay = this.pollIntervalMs * (1 + 0.1 * this.random());
      } catch (error) {
        if (stop.aborted) return 'done';
        if (error instanceof ApiError && error.permanent) return this.fail(error);
        this.emit('error', { error });
        delay = this.backoff.next(error instanceof ApiError ? error.retryAfterMs : 0);
      }
      if (this.transport === 'auto' && Date.now() >= probeAt) return 'stream';
      if (!(await sleep(delay, stop))) return 'done';
    }
  }

  /** `GET` the counts; `conditional` sends the last tag, and a `304` keeps what is shown. */
  private async read(conditional: boolean, stop: AbortSignal | undefined): Promise<void> {
    const pushesBefore = this.pushes;
    const tag = conditional ? this.etag : null;
    const response = await this.http.get(this.path, tag ? { 'If-None-Match': tag } : {}, stop);
    if (response.status === 304) return;
    const counts = countsOf(parseCounts(await response.text()));
    const overtaken = this.pushes !== pushesBefore;
    if (!this.versions.read(counts.version, overtaken).apply) return;
    if (!overtaken) this.etag = response.headers.get('ETag');
    this.show(counts, 'read', [], 0);
  }

  private show(counts: Counts, source: CountsDetail['source'], changes: Change[], changesOmitted: number): void {
    this.counts = counts;
    this.emit('counts', { counts, source, changes, changesOmitted } satisfies CountsDetail);
  }

  private fail(error: unknown): 'done' {
    this.setState('failed');
    this.emit('error', { error });
    return 'done';
  }

  private setState(state: ClientState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', { state });
  }

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/**
 * A start the API refused for now, naming when to come back: a 503 while it paces a burst of stream starts or waits
 * for Redis, or a 429. Such a refusal says the stream will be had, so it does not count towards polling: after a
 * restart every client meets it, and polling then would leave them all stale. (A 429 is the user's streams all taken,
 * which `follow` answers with polling at once.) What does count is what says streams cannot work here.
 */
function refusedForNow(end: StreamEnd): boolean {
  return end.kind === 'refused' && (end.error.status === 503 || end.error.status === 429)
    && end.error.retryAfterMs !== undefined;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a positive number, was ${value}`);
  return value;
}

/** Resolves true after `ms`, or false at once when `stop` aborts. */
function sleep(ms: number, stop: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve(false);
    const onStop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      stop.removeEventListener('abort', onStop);
      resolve(true);
    }, ms);
    stop.addEventListener('abort', onStop, { once: true });
  });
}
