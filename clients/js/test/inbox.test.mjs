import { test } from 'node:test';
import assert from 'node:assert/strict';

/**
 * Just enough of a DOM for `<readmark-inbox>` to run in node: elements that hold children, text, attributes and
 * listeners, and are connected when their root is. Installed before the module is loaded, as it extends HTMLElement.
 */
class FakeElement extends EventTarget {
  children = [];
  parent = null;
  root = false;
  dataset = {};
  attributes = new Map();
  textContent = '';
  hidden = false;

  get isConnected() { return this.root || (this.parent?.isConnected ?? false); }
  getAttribute(name) { return this.attributes.get(name) ?? null; }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  append(...nodes) { for (const node of nodes) this.insertBefore(node, null); }
  replaceChildren(...nodes) {
    for (const child of [...this.children]) child.remove();
    this.append(...nodes);
  }
  insertBefore(node, before) {
    node.remove();
    const at = before === null ? this.children.length : this.children.indexOf(before);
    this.children.splice(at, 0, node);
    node.parent = this;
    return node;
  }
  remove() {
    if (!this.parent) return;
    this.parent.children.splice(this.parent.children.indexOf(this), 1);
    this.parent = null;
  }
}
globalThis.HTMLElement = FakeElement;
globalThis.document = { createElement: () => new FakeElement() };
const { ReadmarkInbox } = await import('../dist/inbox.js');

/** A client whose list reads wait until the test answers them: `pending` holds each read's `answer(items)`. */
class FakeClient extends EventTarget {
  pending = [];

  constructor(counts) {
    super();
    this.counts = counts;
  }

  unreadItems() {
    return new Promise((resolve) => {
      this.pending.push((items) => resolve({ items, nextCursor: 'more' }));
    });
  }
}

const item = (blogId, authorId) => ({ blogId, authorId, publishedAt: '2026-01-01T00:00:00Z' });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** An inbox in a connected page, showing `items` as `client`'s first page. */
async function showing(client, items) {
  const page = new FakeElement();
  page.root = true;
  const inbox = new ReadmarkInbox();
  inbox.client = client;
  page.append(inbox);
  inbox.connectedCallback(); // as the browser calls it on the append
  assert.equal(client.pending.length, 1);
  client.pending.shift()(items);
  await settle();
  return inbox;
}

test('another client clears the list at once: nothing of the old user stays to be acted on', async () => {
  const inbox = await showing(new FakeClient({ version: 1 }), [item(9, 3), item(8, 3)]);
  assert.deepEqual(inbox.items.map((i) => i.blogId), [9, 8]);

  inbox.client = new FakeClient(null); // no counts yet: nothing to read until they come
  assert.deepEqual(inbox.items, []);
  const list = inbox.children[0];
  assert.equal(list.children.length, 0, 'no item element of the old user');
  assert.equal(inbox.children[1].hidden, true, 'no "Load more" with the old cursor');
});

test('a read for the old client that lands after the switch is dropped', async () => {
  const old = new FakeClient({ version: 1 });
  const inbox = await showing(old, [item(9, 3)]);
  old.dispatchEvent(new CustomEvent('counts', { detail: { counts: { version: 2 } } }));
  assert.equal(old.pending.length, 1, 'a reload in flight');

  const next = new FakeClient({ version: 5 });
  inbox.client = next;
  old.pending.shift()([item(9, 3), item(10, 3)]);
  await settle();
  assert.deepEqual(inbox.items, [], 'the old user\'s late page is not shown');

  next.pending.shift()([item(20, 4)]);
  await settle();
  assert.deepEqual(inbox.items.map((i) => i.blogId), [20]);
});
