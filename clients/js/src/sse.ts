/**
 * An incremental parser of the `text/event-stream` format (HTML Living Standard, "Server-sent events"): fed the
 * decoded text of a response as it arrives, in chunks cut anywhere, it calls back once per complete event and per
 * `retry:` field. Lines end in CRLF, LF or CR; a CR ending one chunk may meet its LF in the next.
 */
export interface SseHandler {
  /** A dispatched event: its type (`message` when the server named none) and its data lines joined by LF. */
  event(type: string, data: string): void;
  /** The server's reconnection delay, in milliseconds. */
  retry(ms: number): void;
}

/** Thrown when a line grows past the limit: a stream that never ends its lines is broken, not slow. */
export class SseLineTooLong extends Error {}

/**
 * Thrown when an event's data grows past the limit: data lines accumulate until the blank line ends the event, so
 * short lines without an end would otherwise be held without bound.
 */
export class SseEventTooLong extends Error {}

export class SseParser {
  private buffer = '';
  private afterCr = false;
  private started = false;
  private type = '';
  private data: string[] = [];
  /** The length of the event's data as it would be dispatched: its lines joined by LF. */
  private dataChars = 0;

  /**
   * @param maxLineChars the longest line held while waiting for its end
   * @param maxEventChars the most data one event may hold, its lines joined
   */
  constructor(private readonly handler: SseHandler, private readonly maxLineChars = 4 * 1024 * 1024,
              private readonly maxEventChars = 4 * 1024 * 1024) {}

  push(chunk: string): void {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    let from = 0;
    for (;;) {
      const end = nextLineEnd(text, from);
      if (end < 0) break;
      this.line(this.buffer + text.slice(from, end));
      this.buffer = '';
      if (text.charCodeAt(end) === 13 /* CR */) {
        if (end + 1 === text.length) {
          this.afterCr = true;
          from = end + 1;
          break;
        }
        from = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      } else {
        from = end + 1;
      }
    }
    this.buffer += text.slice(from);
    if (this.buffer.length > this.maxLineChars) throw new SseLineTooLong(`an event-stream line passed ${this.maxLineChars} characters`);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return; // a comment: the server's heartbeat
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event': this.type = value; break;
      case 'data': this.addData(value); break;
      case 'retry': if (/^[0-9]+$/.test(value)) this.handler.retry(Number(value)); break;
      default: break; // `id` (the server ignores Last-Event-ID) and unknown fields
    }
  }

  private addData(value: string): void {
    this.dataChars += (this.data.length > 0 ? 1 : 0) + value.length;
    if (this.dataChars > this.maxEventChars) {
      this.data = [];
      this.dataChars = 0;
      throw new SseEventTooLong(`an event-stream event's data passed ${this.maxEventChars} characters`);
    }
    this.data.push(value);
  }

  private dispatch(): void {
    const type = this.type || 'message';
    const data = this.data;
    this.type = '';
    this.data = [];
    this.dataChars = 0;
    if (data.length > 0) this.handler.event(type, data.join('\n'));
  }
}

function nextLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}
