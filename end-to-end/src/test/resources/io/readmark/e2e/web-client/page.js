// A third-party page using the web client as an application would: served from an origin other than the view API's,
// fetching a fresh token from its own backend whenever the client asks. The query says which user and which options;
// what the client reported is kept in window.recorded for the test to read.
import { ReadmarkClient, defineElements } from '/client/index.js';

const params = new URLSearchParams(location.search);
const user = params.get('user');
const recorded = { gaps: [], reads: [], errors: [] };
window.recorded = recorded;

const client = new ReadmarkClient({
  baseUrl: params.get('api'),
  userId: user,
  pollIntervalMs: Number(params.get('poll') ?? 15000),
  idleTimeoutMs: Number(params.get('idle') ?? 75000),
  token: async () => (await fetch('/token?user=' + user)).text(),
});
client.addEventListener('gap', (event) => recorded.gaps.push(event.detail));
client.addEventListener('counts', (event) => {
  if (event.detail.source === 'read') recorded.reads.push(event.detail.counts.version);
});
client.addEventListener('error', (event) => recorded.errors.push(String(event.detail.error)));
window.client = client;

const inbox = document.getElementById('inbox');
inbox.setAttribute('page-size', params.get('pageSize') ?? '20');
document.getElementById('badge').client = client;
inbox.client = client;
// Defined only now, after the client was handed to the elements, as on a page whose own script runs first.
defineElements();
client.start();
