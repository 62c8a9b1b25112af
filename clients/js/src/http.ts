/**
 * Requests to the view API: the bearer token asked for afresh each time, and every answer that is not a success
 * turned into an {@link ApiError} carrying what a retry needs (status, `Retry-After`) and the problem+json body.
 */

/** Gives the current access token, or nothing when the API runs without authentication. Called before every request. */
export type TokenSource = () => string | null | undefined | Promise<string | null | undefined>;

/** An `application/problem+json` body, as the view API answers every error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  field?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    /** The server's `Retry-After`, in milliseconds, when it sent one. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(`view API answered ${status}${problem?.detail ? ': ' + problem.detail : ''}`);
    this.name = 'ApiError';
  }

  /** The error an answer that is not a success stands for. */
  static async from(response: Response): Promise<ApiError> {
    let problem: Problem | undefined;
    try {
      const body: unknown = await response.json();
      if (body && typeof body === 'object') problem = body as Problem;
    } catch {
      problem = undefined; // not JSON: the status says enough
    }
    return new ApiError(response.status, problem, retryAfterMs(response.headers.get('Retry-After')));
  }

  /**
   * Whether asking again cannot help: a request the API finds malformed, or a user this token may not read. A `401`
   * is worth a retry, with the fresh token the next request asks for.
   */
  get permanent(): boolean {
    return this.status === 400 || this.status === 403 || this.status === 404;
  }
}

export class Http {
  constructor(
    private readonly baseUrl: string,
    private readonly token: TokenSource | undefined,
    private readonly fetcher: typeof fetch,
  ) {}

  url(path: string): string {
    return this.baseUrl.replace(/\/+$/, '') + path;
  }

  /** A `GET` with the token and `extra` headers, its answer as it came: for the stream, which reads it itself. */
  async send(path: string, extra: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const headers = { ...(await this.authorization()), ...extra };
    // no-store: the client makes its own conditional requests; the browser's cache would answer them for it and hide
    // the 304 that says nothing changed.
    const init: RequestInit = { headers, cache: 'no-store' };
    if (signal) init.signal = signal;
    const fetcher = this.fetcher; // called unbound: a browser's fetch refuses any other `this`
    return fetcher(this.url(path), init);
  }

  /** As {@link send}, but an answer other than 2xx or 304 is thrown as an {@link ApiError}. */
  async get(path: string, extra: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    const response = await this.send(path, extra, signal);
    if (!response.ok && response.status !== 304) throw await ApiError.from(response);
    return response;
  }

  async authorization(): Promise<Record<string, string>> {
    const token = this.token ? await this.token() : undefined;
    return token ? { Authorization: 'Bearer ' + token } : {};
  }
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
