import type { CountsDetail, ReadmarkClient, UnreadItem } from './client.js';
import { adoptClient, ClientWatcher } from './watcher.js';

/** The most a page may hold (the API's `limit`). */
const MAX_LIMIT = 100;

/**
 * `<readmark-inbox page-size="20">`: the user's unread blogs of a {@link ReadmarkClient}, all authors merged, newest
 * first, with a "Load more" button while there are more. Each item is an `li` with `data-blog` and `data-author`, and a
 * `button.read-item` that dispatches `readmark-read` (bubbling, `detail` the item): marking read is the page's to
 * send, through its own backend. When the counts' version moves, or the client saw a gap, it reads the list again, as
 * many items as it shows (at most 100).
 */
export class ReadmarkInbox extends HTMLElement {
  private readonly watcher = new ClientWatcher(['counts', 'gap'], (event) => this.changed(event));
  private readonly list = document.createElement('ul');
  private readonly more = document.createElement('button');
  private shown: UnreadItem[] = [];
  /** The element of each item shown, by author and blog, in the order shown. */
  private entries = new Map<string, HTMLLIElement>();
  private cursor: string | null = null;
  private version: number | undefined;
  /** Bumped by every read: an answer to an older one is dropped, so a late page never overwrites a newer list. */
  private generation = 0;

  constructor() {
    super();
    this.more.type = 'button';
    this.more.className = 'load-more';
    this.more.textContent = 'Load more';
    this.more.hidden = true;
    this.more.addEventListener('click', () => void this.loadMore());
  }

  get client(): ReadmarkClient | null {
    return this.watcher.client;
  }

  set client(client: ReadmarkClient | null) {
    if (client !== this.watcher.client) {
      // Another client is another user, or none: a read in flight for the old one must not land, and nothing of the
      // old list may stay to be acted on (a page marking "all shown" read would send them for the new user).
      this.generation++;
      this.show([], null);
    }
    this.watcher.client = client;
    this.version = undefined;
    if (this.isConnected && client?.counts) void this.reload();
  }

  /** The items shown, newest first. */
  get items(): readonly UnreadItem[] {
    return this.shown;
  }

  connectedCallback(): void {
    adoptClient(this);
    if (!this.list.isConnected) this.replaceChildren(this.list, this.more);
    this.watcher.attach();
    if (this.watcher.client?.counts) void this.reload();
  }

  disconnectedCallback(): void {
    this.watcher.detach();
  }

  private pageSize(): number {
    const size = Number(this.getAttribute('page-size') ?? 20);
    return Number.isInteger(size) && size >= 1 ? Math.min(size, MAX_LIMIT) : 20;
  }

  private changed(event: Event): void {
    if (event.type === 'counts') {
      const { counts } = (event as CustomEvent<CountsDetail>).detail;
      if (counts.version === this.version) return; // a 304 or a repeat: the list is as it was
      this.version = counts.version;
    }
    void this.reload();
  }

  /** Reads the first items again, as many as shown (at least a page). */
  async reload(): Promise<void> {
    const client = this.watcher.client;
    if (!client) return;
    const generation = ++this.generation;
    const limit = Math.min(MAX_LIMIT, Math.max(this.pageSize(), this.shown.length));
    try {
      const page = await client.unreadItems(limit);
      if (generation !== this.generation) return;
      this.show(page.items, page.nextCursor);
    } catch (error) {
      if (generation === this.generation) this.failed(error);
    }
  }

  async loadMore(): Promise<void> {
    const client = this.watcher.client;
    if (!client || !this.cursor) return;
    const generation = ++this.generation;
    try {
      const page = await client.unreadItems(this.pageSize(), this.cursor);
      if (generation !== this.generation) return;
      this.show([...this.shown, ...page.items], page.nextCursor);
    } catch (error) {
      if (generation === this.generation) this.failed(error);
    }
  }

  /**
   * Shows these items, keeping the element of each item already shown (an item never changes): a re-read moves no
   * element that stays, so the focus or a press on its button survives a change elsewhere in the list.
   */
  private show(items: UnreadItem[], cursor: string | null): void {
    const entries = new Map<string, HTMLLIElement>();
    const shown: UnreadItem[] = [];
    for (const item of items) {
      const key = `${item.authorId}/${item.blogId}`;
      if (entries.has(key)) continue; // a page boundary crossed twice
      entries.set(key, this.entries.get(key) ?? this.entry(item));
      shown.push(item);
    }
    for (const [key, entry] of this.entries) if (!entries.has(key)) entry.remove();
    let position = 0;
    for (const entry of entries.values()) {
      const there = this.list.children[position] ?? null;
      if (there !== entry) this.list.insertBefore(entry, there);
      position++;
    }
    this.entries = entries;
    this.shown = shown;
    this.cursor = cursor;
    this.more.hidden = cursor === null;
  }

  /** Text only (textContent): nothing from the API is ever parsed as markup. */
  private entry(item: UnreadItem): HTMLLIElement {
    const li = document.createElement('li');
    li.dataset.blog = String(item.blogId);
    li.dataset.author = String(item.authorId);
    li.textContent = `post ${item.blogId} by author ${item.authorId}, ${item.publishedAt} `;
    const read = document.createElement('button');
    read.type = 'button';
    read.className = 'read-item';
    read.textContent = 'Mark read';
    read.addEventListener('click', () => this.dispatchEvent(new CustomEvent('readmark-read', { detail: item, bubbles: true })));
    li.append(read);
    return li;
  }

  private failed(error: unknown): void {
    this.dispatchEvent(new CustomEvent('readmark-error', { detail: { error }, bubbles: true }));
  }
}
