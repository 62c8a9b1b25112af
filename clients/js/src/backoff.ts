/**
 * How long to wait before the next attempt after a failure: exponential, from the server's `retry:` hint (or the
 * initial delay until one is heard) up to a maximum, with jitter added on top so that the clients a restart cut off
 * together do not come back together. Never sooner than the hint, nor than a `Retry-After` the server sent.
 */
export interface BackoffOptions {
  /** The first delay until the server sends `retry:`. */
  initialMs: number;
  /** The largest delay before jitter. */
  maxMs: number;
  /** The share of the delay added at random, 0 to 1: a delay d is drawn from [d, d·(1 + jitter)]. */
  jitter: number;
  /** A number in [0, 1); `Math.random` unless a test pins it. */
  random?: () => number;
}

/** Doubling stops here: far past any sane maximum, and 2 ** 30 stays exact. */
const MAX_DOUBLINGS = 30;

export class Backoff {
  private failures = 0;
  private hintMs: number | undefined;
  private readonly random: () => number;

  constructor(private readonly options: BackoffOptions) {
    if (!(options.initialMs > 0) || !(options.maxMs >= options.initialMs)) {
      throw new RangeError('backoff needs 0 < initialMs <= maxMs');
    }
    if (!(options.jitter >= 0 && options.jitter <= 1)) throw new RangeError('backoff jitter must be within [0, 1]');
    this.random = options.random ?? Math.random;
  }

  /** The server's `retry:` field: the base of every later delay. */
  hint(ms: number): void {
    if (Number.isFinite(ms) && ms >= 0) this.hintMs = ms;
  }

  /** A connection succeeded: the next failure starts from the base again. */
  reset(): void {
    this.failures = 0;
  }

  /** The delay before the next attempt, counting one more failure. */
  next(atLeastMs = 0): number {
    const base = this.hintMs ?? this.options.initialMs;
    const exponential = Math.max(base, Math.min(this.options.maxMs, base * 2 ** this.failures));
    this.failures = Math.min(this.failures + 1, MAX_DOUBLINGS);
    const jittered = exponential * (1 + this.options.jitter * this.random());
    return Math.round(Math.max(atLeastMs, jittered));
  }
}
