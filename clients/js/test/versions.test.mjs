import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VersionTracker } from '../dist/versions.js';

const changes = (...versions) => versions.map((version) => ({ version, kind: 'delivered' }));

function holding(version) {
  const tracker = new VersionTracker();
  tracker.read(version);
  return tracker;
}

test('consecutive changes are no gap', () => {
  const tracker = holding(10);
  assert.deepEqual(tracker.push(12, changes(11, 12)), { apply: true, gap: false });
  assert.deepEqual(tracker.push(13, changes(13)), { apply: true, gap: false });
});

test('a listed change above the next version is a gap', () => {
  const tracker = holding(10);
  assert.deepEqual(tracker.push(12, changes(12)), { apply: true, gap: true });
});

test('counts ahead of their list are no gap: the next push lists the missing change', () => {
  const tracker = holding(10);
  assert.equal(tracker.push(12, changes(11)).gap, false);
  assert.equal(tracker.push(12, changes(12)).gap, false);
  assert.equal(tracker.push(13, changes(13)).gap, false);
});

test('a change missed while the counts were ahead is found when the next one is listed', () => {
  const tracker = holding(10);
  assert.equal(tracker.push(11, []).gap, false, 'counts read again, no change listed yet');
  assert.equal(tracker.push(12, changes(12)).gap, true, 'change 11 was never listed');
});

test("a user's first change starts the versions at its time, which is no gap", () => {
  const tracker = holding(0);
  assert.equal(tracker.push(1_795_902_074_669_023, changes(1_795_902_074_669_023)).gap, false);
  assert.equal(tracker.push(1_795_902_074_669_025, changes(1_795_902_074_669_025)).gap, true);
});

test('changes the server left out are a gap', () => {
  const tracker = holding(10);
  assert.equal(tracker.push(111, changes(12, 13), 98).gap, true);
});

test('changes a full read already covered are skipped', () => {
  const tracker = holding(10);
  tracker.read(15);
  assert.equal(tracker.push(16, changes(14, 15, 16)).gap, false);
});

test('broadcast changes carry no version and count for nothing', () => {
  const tracker = holding(10);
  assert.equal(tracker.push(10, [{ kind: 'notice-published', noticeId: 5, audience: 'everyone' }]).gap, false);
  assert.equal(tracker.push(11, changes(11)).gap, false);
});

test('a fresh snapshot above what was listed is a gap; the same version is not', () => {
  assert.equal(holding(10).read(14).gap, true);
  assert.equal(holding(10).read(10).gap, false);
});

test('a read overtaken by a newer push is dropped, not shown', () => {
  const tracker = holding(10);
  tracker.push(11, changes(11));
  assert.deepEqual(tracker.read(10, true), { apply: false, gap: false });
  assert.equal(tracker.shown, 11);
});

test('a version below the one held means Redis lost changes: the answer is taken', () => {
  const tracker = holding(1_700_000_000_000_000);
  assert.deepEqual(tracker.read(3), { apply: true, gap: true });
  assert.equal(tracker.shown, 3);
  assert.equal(tracker.push(4, changes(4)).gap, false);
});

test('the first answer is held without a gap', () => {
  assert.deepEqual(new VersionTracker().push(42, changes(42)), { apply: true, gap: false });
});
