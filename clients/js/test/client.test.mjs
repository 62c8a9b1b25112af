import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadmarkClient } from '../dist/client.js';

/**
 * The client against a scripted view API: each request is answered by the next handler queued for its route, and
 * recorded with its headers. Streams are ReadableStreams the test writes events into and closes.
 */
class FakeApi {
  requests = [];
  handlers = { counts: [], stream: [] };

  fetch = async (url, init) => {
    const route = url.endsWith('/stream') ? 'stream' : 'counts';
    this.requests.push({ route, url, headers: { ...init.headers } });
    const next = this.handlers[route].shift();
    if (!next) return new Response(null, { status: 503, headers: { 'Retry-After': '3600' } });
    return next(init);
  };

  counts(body, etag) {
    this.handlers.counts.push(() => new Response(JSON.stringify(body), { status: 200, headers: { ETag: etag } }));
  }

  notModified() {
    this.handlers.counts.push(() => new Response(null, { status: 304 }));
  }

  /** Queues a stream; returns its writer: send(event, data) and end(). */
  stream() {
    let controller;
    const body = new ReadableStream({ start(c) { controller = c; } });
    const encoder = new TextEncoder();
    this.handlers.stream.push((init) => {
      init.signal?.addEventListener('abort', () => { try { controller.error(new Error('aborted')); } catch {} });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    });
    return {
      send: (event, data) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
      retry: (ms) => controller.enqueue(encoder.encode(`retry: ${ms}\n\n`)),
      end: () => controller.close(),
    };
  }

  refuse(route, status, retryAfter) {
    const headers = retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
    this.handlers[route].push(() => new Response(JSON.stringify({ status, title: 'x' }), { status, headers }));
  }
}

const counts = (version, total) => ({ userId: 7, total, unseen: 0, notices: 0, byAuthor: total ? { 3: total } : {}, version });

/** Resolves with the detail of the next `type` event that satisfies `match`. */
function next(client, type, match = () => true) {
  return new Promise((resolve) => {
    const listener = (event) => {
      if (!match(event.detail)) return;
      client.removeEventListener(type, listener);
      resolve(event.detail);
    };
    client.addEventListener(type, listener);
  });
}

function client(api, options = {}) {
  let tokens = 0;
  return new ReadmarkClient({
    userId: 7, baseUrl: 'http://view.test', fetch: api.fetch, token: () => `token-${++tokens}`,
    initialRetryMs: 1, maxRetryMs: 5, random: () => 0, ...options,
  });
}

/** A client of a fresh API whose answers `script` queues first; started, and stopped when the test ends. */
function started(t, script, options = {}) {
  const api = new FakeApi();
  const queued = script(api);
  const reader = client(api, options);
  t.after(() => reader.stop());
  reader.start();
  return { api, reader, ...queued };
}

/** A started client whose stream is live at version 10. */
async function liveAt10(t) {
  const { api, reader, stream } = started(t, (api) => ({ stream: api.stream() }));
  stream.send('counts', { ...counts(10, 1), changes: [] });
  await next(reader, 'state', (d) => d.state === 'live');
  return { api, stream, reader };
}

test('a push listing a change past the next version makes the client read the counts again', async (t) => {
  const { api, stream, reader } = await liveAt10(t);

  api.counts(counts(13, 3), 'W/"13-0"');
  const gap = next(reader, 'gap');
  const reread = next(reader, 'counts', (d) => d.source === 'read');
  stream.send('counts', { ...counts(13, 3), changes: [{ version: 13, kind: 'delivered', authorId: 3, blogId: 9 }] });
  assert.deepEqual(await gap, { listed: 10, version: 13 });
  assert.equal((await reread).counts.version, 13);
  assert.equal(api.requests.filter((r) => r.route === 'counts').length, 1);
});

test('consecutive pushes read nothing more', async (t) => {
  const { api, stream, reader } = await liveAt10(t);
  const shown = next(reader, 'counts', (d) => d.counts.version === 12);
  stream.send('counts', { ...counts(11, 2), changes: [{ version: 11, kind: 'delivered' }] });
  stream.send('counts', { ...counts(12, 3), changes: [{ version: 12, kind: 'delivered' }] });
  assert.equal((await shown).counts.total, 3);
  assert.equal(api.requests.filter((r) => r.route === 'counts').length, 0);
});

test('every reconnect asks for a fresh token, and honours the server retry: before reconnecting', async (t) => {
  const { api, reader, first, second } = started(t, (api) => ({ first: api.stream(), second: api.stream() }));
  first.retry(20);
  first.send('counts', { ...counts(10, 1), changes: [] });
  await next(reader, 'state', (d) => d.state === 'live');
  const cutAt = Date.now();
  first.end();
  await next(reader, 'state', (d) => d.state === 'reconnecting');
  second.send('counts', { ...counts(12, 2), changes: [] });
  const back = await next(reader, 'counts', (d) => d.counts.version === 12);
  assert.ok(Date.now() - cutAt >= 20, 'waited for retry:');
  assert.equal(back.source, 'snapshot');
  assert.deepEqual(api.requests.map((r) => r.headers.Authorization), ['Bearer token-1', 'Bearer token-2']);
});

test('a stream the server ends with reconnect is reopened at once', async (t) => {
  const { api, reader, first, second } = started(t, (api) => ({ first: api.stream(), second: api.stream() }),
    { initialRetryMs: 60_000, maxRetryMs: 60_000 });
  first.send('counts', { ...counts(10, 1), changes: [] });
  await next(reader, 'state', (d) => d.state === 'live');
  first.send('reconnect', { reason: 'token-expired' });
  first.end();
  second.send('counts', { ...counts(10, 1), changes: [] });
  await next(reader, 'counts', (d) => d.source === 'snapshot');
  assert.equal(api.requests.filter((r) => r.route === 'stream').length, 2);
});

test('with the user\'s streams all taken it polls, sending the last tag and keeping the counts on 304', async (t) => {
  const { api, reader } = started(t, (api) => {
    api.refuse('stream', 429);
    api.counts(counts(10, 1), 'W/"10-0"');
    api.notModified();
    api.counts(counts(11, 2), 'W/"11-0"');
  }, { pollIntervalMs: 1 });
  await next(reader, 'counts', (d) => d.counts.version === 11);
  const polls = api.requests.filter((r) => r.route === 'counts').map((r) => r.headers['If-None-Match']);
  assert.deepEqual(polls, [undefined, 'W/"10-0"', 'W/"10-0"']);
  assert.equal(reader.state, 'polling');
});

test('streams that keep failing while reads succeed make it poll', async (t) => {
  const { api, reader } = started(t, (api) => {
    for (let i = 0; i < 3; i++) api.refuse('stream', 502);
    api.counts(counts(4, 1), 'W/"4-0"');
  }, { fallbackAfter: 3, pollIntervalMs: 60_000 });
  await next(reader, 'state', (d) => d.state === 'polling');
  assert.deepEqual(api.requests.map((r) => r.route), ['stream', 'stream', 'stream', 'counts']);
  assert.equal(reader.counts.version, 4, 'the read that decided it is shown');
});

test('starts the API refuses for now, with Retry-After, do not make it poll', async (t) => {
  // A reconnect storm: the API paces stream starts, or waits for Redis, answering 503 with Retry-After, while reads
  // succeed. The stream will be had once its turn comes, so polling would only leave the client stale.
  const { api, reader, stream } = started(t, (api) => {
    for (let i = 0; i < 4; i++) api.refuse('stream', 503, 0);
    api.counts(counts(4, 1), 'W/"4-0"');
    return { stream: api.stream() };
  }, { fallbackAfter: 3 });
  stream.send('counts', { ...counts(4, 1), changes: [] });
  const settled = await next(reader, 'state', (d) => d.state === 'live' || d.state === 'polling');
  assert.equal(settled.state, 'live');
  assert.deepEqual(api.requests.map((r) => r.route), ['stream', 'stream', 'stream', 'stream', 'stream']);
});

test('a refusal for now does not wipe out the failures that say streaming cannot work', async (t) => {
  const { api, reader } = started(t, (api) => {
    api.refuse('stream', 502);
    api.refuse('stream', 502);
    api.refuse('stream', 503, 0);
    api.refuse('stream', 502);
    api.counts(counts(4, 1), 'W/"4-0"');
  }, { fallbackAfter: 3, pollIntervalMs: 60_000 });
  await next(reader, 'state', (d) => d.state === 'polling');
  assert.deepEqual(api.requests.map((r) => r.route), ['stream', 'stream', 'stream', 'stream', 'counts']);
});

test('while the API is unreachable it keeps reconnecting the stream instead of polling', async (t) => {
  const { api, reader, stream } = started(t, (api) => {
    for (let i = 0; i < 3; i++) api.refuse('stream', 502);
    api.refuse('counts', 502);
    return { stream: api.stream() };
  }, { fallbackAfter: 3 });
  stream.send('counts', { ...counts(4, 1), changes: [] });
  await next(reader, 'state', (d) => d.state === 'live');
  assert.deepEqual(api.requests.map((r) => r.route), ['stream', 'stream', 'stream', 'counts', 'stream']);
});

test('a token that may not read this user fails for good instead of retrying', async (t) => {
  const { api, reader } = started(t, (api) => { api.refuse('stream', 403); });
  await next(reader, 'state', (d) => d.state === 'failed');
  assert.equal(api.requests.length, 1);
});

test('unreadable counts break the stream, which is reopened', async (t) => {
  const { reader, first, second } = started(t, (api) => ({ first: api.stream(), second: api.stream() }));
  first.send('counts', { total: 'many' });
  second.send('counts', { ...counts(5, 0), changes: [] });
  await next(reader, 'counts', (d) => d.counts.version === 5);
  assert.equal(reader.counts.total, 0);
});

test('a page of the merged list is checked before anything shows it', async (t) => {
  const { reader } = started(t, (api) => {
    api.handlers.counts.push(() => Response.json({ items: [{ blogId: 9, authorId: 3, publishedAt: '2026-01-01T00:00:00Z' }], nextCursor: 'c1' }));
    api.handlers.counts.push(() => Response.json({ items: [{ blogId: '<img src=x>', authorId: 3 }], nextCursor: null }));
  }, { transport: 'stream' });
  reader.stop(); // only the list is read here
  assert.deepEqual(await reader.unreadItems(1), { items: [{ blogId: 9, authorId: 3, publishedAt: '2026-01-01T00:00:00Z' }], nextCursor: 'c1' });
  await assert.rejects(reader.unreadItems(1, 'c1'), TypeError);
  await assert.rejects(reader.unreadItems(101), RangeError);
});

test('a user id that is not a positive decimal id is refused before any request', () => {
  for (const userId of ['0', '-1', '01', '1/../2', '1e3', '']) {
    assert.throws(() => new ReadmarkClient({ userId, fetch: () => assert.fail('no request') }), RangeError);
  }
});
