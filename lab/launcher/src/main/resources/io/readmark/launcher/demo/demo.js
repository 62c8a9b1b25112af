// The demo inbox: watches one user's unread state over the view API's event stream and sends events through the
// producer API. Everything shown is text (textContent), never markup built from data.
'use strict';

const producerApi = document.querySelector('meta[name="producer-api"]').content;
const $ = (id) => document.getElementById(id);
let stream = null;
let userId = null;
let shownItems = [];

function viewToken() { return $('view-token').value.trim(); }
function producerToken() { return $('producer-token').value.trim(); }

function headers(token, json) {
  const h = {};
  if (token) h['Authorization'] = 'Bearer ' + token;
  if (json) h['Content-Type'] = 'application/json';
  return h;
}

function status(text, live) {
  $('status').textContent = text;
  $('status').className = live ? 'status live' : 'status';
}

function watch(user) {
  if (stream) stream.close();
  userId = user;
  const token = viewToken();
  const query = token ? '?access_token=' + encodeURIComponent(token) : '';
  stream = new EventSource('/v1/users/' + user + '/unread/stream' + query);
  status('connecting…', false);
  stream.onopen = () => status('live for user ' + user, true);
  stream.onerror = () => status('reconnecting…', false);
  // The server ends every stream in time. At its maximum age EventSource reconnects by itself after retry:, with the
  // same token; once the token expired, that token would be refused, so reconnect only with a fresh one.
  stream.addEventListener('reconnect', (event) => {
    if (JSON.parse(event.data).reason !== 'token-expired') return;
    stream.close();
    if (viewToken() !== token) watch(user);
    else status('the view token expired: paste a fresh one, then Watch', false);
  });
  stream.addEventListener('counts', (event) => {
    const counts = JSON.parse(event.data);
    showCounts(counts);
    (counts.changes || []).forEach(logChange);
    if (counts.changesOmitted) logChange({ omitted: counts.changesOmitted });
    loadItems();
    loadNotices();
  });
}

function showCounts(counts) {
  $('badge-total').textContent = String(counts.total);
  $('badge-unseen').textContent = String(counts.unseen ?? 0);
  $('badge-notices').textContent = String(counts.notices ?? 0);
  const list = $('authors');
  list.replaceChildren();
  Object.entries(counts.byAuthor || {}).forEach(([author, count]) => {
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

async function loadItems() {
  const user = userId;
  const answer = await fetch('/v1/users/' + user + '/unread/items?limit=20', { headers: headers(viewToken(), false) });
  if (!answer.ok || user !== userId) return;
  const page = await answer.json();
  const list = $('items');
  list.replaceChildren();
  shownItems = page.items;
  page.items.forEach((item) => {
    const li = document.createElement('li');
    li.dataset.blog = String(item.blogId);
    li.textContent = 'post ' + item.blogId + ' by author ' + item.authorId + ', ' + item.publishedAt;
    const read = document.createElement('button');
    read.type = 'button';
    read.className = 'read-item';
    read.textContent = 'read';
    read.onclick = () => send({ type: 'BlogRead', userId, blogId: item.blogId, authorId: item.authorId, readAt: now() });
    li.append(read);
    list.append(li);
  });
}

async function loadNotices() {
  const user = userId;
  const answer = await fetch('/v1/users/' + user + '/notices?limit=20', { headers: headers(viewToken(), false) });
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

$('producer-url').textContent = producerApi;
$('choose').onsubmit = (e) => { e.preventDefault(); $('announce').onclick = () => send({
  type: 'NoticePublished', noticeId: Date.now() * 100 + Math.floor(Math.random() * 100), audience: 'everyone', publishedAt: now(),
});
watch(Number($('user').value)); };
$('mark-seen').onclick = () => send({ type: 'InboxSeen', userId, seenAt: now() });
$('mark-all-read').onclick = () => send({ type: 'AllRead', userId, readAt: now() });
// One BlogsRead for the page shown (20 posts, within the event's 100).
$('mark-page-read').onclick = () => shownItems.length && send({
  type: 'BlogsRead', userId, readAt: now(), blogs: shownItems.map(({ blogId, authorId }) => ({ blogId, authorId })),
});
$('follow').onclick = () => send({ type: 'Followed', followerId: userId, authorId: author(), at: now() });
$('publish').onclick = () => send({
  type: 'BlogPublished', blogId: Date.now() * 100 + Math.floor(Math.random() * 100), authorId: author(), publishedAt: now(),
});
$('announce').onclick = () => send({
  type: 'NoticePublished', noticeId: Date.now() * 100 + Math.floor(Math.random() * 100), audience: 'everyone', publishedAt: now(),
});
watch(Number($('user').value));
