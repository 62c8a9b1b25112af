// The demo inbox: the web client (clients/js) follows one user's counts; its badge and inbox elements show them. This
// page adds what is the application's own: the per-author list, notices, the buttons, and the events it sends through
// the producer API. Everything shown is text (textContent), never markup built from data.
import { ReadmarkClient, defineElements } from '/demo/client/index.js';

defineElements();
const producerApi = document.querySelector('meta[name="producer-api"]').content;
const $ = (id) => document.getElementById(id);
const badges = ['badge-total', 'badge-unseen', 'badge-notices'].map($);
const inbox = $('items');
let client = null;
let userId = null;

function producerToken() { return $('producer-token').value.trim(); }

function headers(token, json) {
  const h = {};
  if (token) h['Authorization'] = 'Bearer ' + token;
  if (json) h['Content-Type'] = 'application/json';
  return h;
}

const STATUS = { live: 'live', polling: 'polling', connecting: 'connecting…', reconnecting: 'reconnecting…' };

function showState() {
  const state = client.state;
  $('status').textContent = state === 'failed' ? 'refused: check the user and the view token'
    : state === 'live' || state === 'polling' ? STATUS[state] + ' for user ' + userId : STATUS[state] ?? state;
  $('status').className = state === 'live' || state === 'polling' ? 'status live' : 'status';
}

function watch(user) {
  if (client) client.stop();
  let next;
  try {
    // The token is read from the field at every (re)connect: paste a fresh one and the next reconnect uses it.
    next = new ReadmarkClient({ userId: user, token: () => $('view-token').value.trim() || null });
  } catch (error) {
    // Not a user id: the user before is stopped already, so nothing of theirs may stay shown as if current.
    client = null;
    userId = null;
    badges.forEach((badge) => { badge.client = null; });
    inbox.client = null;
    $('authors').replaceChildren();
    $('notices').replaceChildren();
    $('status').textContent = 'not a user id: ' + error.message;
    $('status').className = 'status';
    return;
  }
  client = next;
  userId = user;
  client.addEventListener('state', showState);
  client.addEventListener('counts', (event) => {
    const { counts, changes, changesOmitted } = event.detail;
    showAuthors(counts);
    changes.forEach(logChange);
    if (changesOmitted) logChange({ omitted: changesOmitted });
    loadNotices();
  });
  client.addEventListener('gap', (event) => logChange({ gap: event.detail, reread: 'counts' }));
  client.addEventListener('error', (event) => logChange({ error: String(event.detail.error) }));
  badges.forEach((badge) => { badge.client = client; });
  inbox.client = client;
  client.start();
  showState();
}

function showAuthors(counts) {
  const list = $('authors');
  list.replaceChildren();
  Object.entries(counts.byAuthor).forEach(([author, count]) => {
    const li = document.createElement('li');
    li.dataset.author = author;
    li.textContent = 'author ' + author + ': ' + count + ' unread';
    const read = document.createElement('button');
    read.type = 'button';
    read.className = 'read-author';
    read.textContent = 'read all of author ' + author;
    read.onclick = () => send({ type: 'AuthorReadAll', userId, authorId: Number(author), readAt: now() });
    li.append(read);
    list.append(li);
  });
}

function logChange(change) {
  const li = document.createElement('li');
  li.textContent = new Date().toLocaleTimeString() + ' ' + JSON.stringify(change);
  $('log').prepend(li);
  while ($('log').children.length > 50) $('log').lastChild.remove();
}

async function loadNotices() {
  const user = userId;
  const token = $('view-token').value.trim();
  const answer = await fetch('/v1/users/' + user + '/notices?limit=20', { headers: headers(token, false) });
  if (!answer.ok || user !== userId) return;
  const page = await answer.json();
  const list = $('notices');
  list.replaceChildren();
  page.items.forEach((notice) => {
    const li = document.createElement('li');
    li.dataset.notice = String(notice.noticeId);
    li.textContent = 'notice ' + notice.noticeId + (notice.audience ? ' to ' + notice.audience : ' to you') + ', ' + notice.at
      + (notice.read ? ' (read)' : '');
    if (!notice.read) {
      const read = document.createElement('button');
      read.type = 'button';
      read.className = 'read-notice';
      read.textContent = 'read';
      read.onclick = () => send({ type: 'NoticeRead', userId, noticeId: notice.noticeId, readAt: now() });
      li.append(read);
    }
    list.append(li);
  });
}

function now() { return new Date().toISOString(); }

async function send(event) {
  if (userId === null) return logChange({ refused: event.type, detail: 'no user is watched' });
  event.eventId = crypto.randomUUID();
  const answer = await fetch(producerApi + '/v1/events', {
    method: 'POST', headers: headers(producerToken(), true), body: JSON.stringify(event),
  });
  if (!answer.ok) {
    const problem = await answer.json().catch(() => ({}));
    logChange({ refused: event.type, status: answer.status, detail: problem.detail });
  }
}

function author() { return Number($('author').value); }
function newId() { return Date.now() * 100 + Math.floor(Math.random() * 100); }

$('producer-url').textContent = producerApi;
$('choose').onsubmit = (e) => { e.preventDefault(); watch(Number($('user').value)); };
$('mark-seen').onclick = () => send({ type: 'InboxSeen', userId, seenAt: now() });
$('mark-all-read').onclick = () => send({ type: 'AllRead', userId, readAt: now() });
inbox.addEventListener('readmark-read', (event) => {
  const { blogId, authorId } = event.detail;
  send({ type: 'BlogRead', userId, blogId, authorId, readAt: now() });
});
// One BlogsRead for the items shown (at most 100, within the event's 100).
$('mark-page-read').onclick = () => inbox.items.length && send({
  type: 'BlogsRead', userId, readAt: now(), blogs: inbox.items.map(({ blogId, authorId }) => ({ blogId, authorId })),
});
$('follow').onclick = () => send({ type: 'Followed', followerId: userId, authorId: author(), at: now() });
$('publish').onclick = () => send({ type: 'BlogPublished', blogId: newId(), authorId: author(), publishedAt: now() });
$('announce').onclick = () => send({ type: 'NoticePublished', noticeId: newId(), audience: 'everyone', publishedAt: now() });
watch(Number($('user').value));
