import type { Counts, ReadmarkClient } from './client.js';
import { adoptClient, ClientWatcher } from './watcher.js';

/**
 * `<readmark-badge field="total" cap="99">`: one count of a {@link ReadmarkClient}, as text. `field` is `total`
 * (default), `unseen`, `notices` or `author:<authorId>`; above `cap` it shows `<cap>+`. Empty until the first counts.
 * It reflects the client's state as the `state` attribute, and is `stale` while the client reconnects or failed, so
 * a page can grey a count that may be out of date. `data-count` holds the exact count.
 */
export class ReadmarkBadge extends HTMLElement {
  static readonly observedAttributes = ['field', 'cap'];

  private readonly watcher = new ClientWatcher(['counts', 'state'], () => this.render());

  get client(): ReadmarkClient | null {
    return this.watcher.client;
  }

  set client(client: ReadmarkClient | null) {
    this.watcher.client = client;
    this.render();
  }

  connectedCallback(): void {
    adoptClient(this);
    if (!this.hasAttribute('role')) this.setAttribute('role', 'status');
    this.watcher.attach();
    this.render();
  }

  disconnectedCallback(): void {
    this.watcher.detach();
  }

  attributeChangedCallback(): void {
    this.render();
  }

  private render(): void {
    const client = this.watcher.client;
    const state = client?.state ?? 'idle';
    this.setAttribute('state', state);
    this.toggleAttribute('stale', state === 'connecting' || state === 'reconnecting' || state === 'failed');
    const counts = client?.counts;
    if (!counts) {
      this.textContent = '';
      delete this.dataset.count;
      return;
    }
    const field = this.getAttribute('field') ?? 'total';
    const count = countOf(counts, field);
    const shown = capped(count, this.getAttribute('cap'));
    if (this.textContent !== shown) this.textContent = shown;
    this.dataset.count = String(count);
    this.setAttribute('aria-label', `${shown} ${field === 'notices' ? 'unread notices' : field === 'unseen' ? 'new' : 'unread'}`);
  }
}

function countOf(counts: Counts, field: string): number {
  if (field === 'unseen') return counts.unseen;
  if (field === 'notices') return counts.notices;
  if (field.startsWith('author:')) {
    const author = field.slice('author:'.length);
    const count = Object.hasOwn(counts.byAuthor, author) ? counts.byAuthor[author] : 0;
    return typeof count === 'number' ? count : 0;
  }
  return counts.total;
}

function capped(count: number, cap: string | null): string {
  const limit = cap === null ? NaN : Number(cap);
  return Number.isSafeInteger(limit) && limit > 0 && count > limit ? `${limit}+` : String(count);
}
