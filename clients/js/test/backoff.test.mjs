import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff } from '../dist/backoff.js';

const fixed = (value) => () => value;

test('delays double from the initial delay up to the maximum', () => {
  const backoff = new Backoff({ initialMs: 1000, maxMs: 5000, jitter: 0.5, random: fixed(0) });
  assert.deepEqual([1, 2, 3, 4, 5].map(() => backoff.next()), [1000, 2000, 4000, 5000, 5000]);
});

test("the server's retry: hint becomes the base, and a delay is never shorter than it", () => {
  const backoff = new Backoff({ initialMs: 1000, maxMs: 2000, jitter: 0.5, random: fixed(0) });
  backoff.hint(3000);
  assert.deepEqual([backoff.next(), backoff.next()], [3000, 3000]);
});

test('jitter adds up to its share of the delay, never subtracts', () => {
  const low = new Backoff({ initialMs: 1000, maxMs: 8000, jitter: 0.5, random: fixed(0) });
  const high = new Backoff({ initialMs: 1000, maxMs: 8000, jitter: 0.5, random: fixed(0.999999) });
  assert.equal(low.next(), 1000);
  assert.equal(high.next(), 1500);
});

test('two clients cut off together come back apart', () => {
  const seeds = [0.1, 0.9];
  const delays = seeds.map((seed) => new Backoff({ initialMs: 1000, maxMs: 8000, jitter: 0.5, random: fixed(seed) }).next());
  assert.notEqual(delays[0], delays[1]);
});

test('a success starts the next failure from the base again', () => {
  const backoff = new Backoff({ initialMs: 100, maxMs: 10_000, jitter: 0, random: fixed(0) });
  backoff.next();
  backoff.next();
  backoff.reset();
  assert.equal(backoff.next(), 100);
});

test('Retry-After wins over a shorter delay', () => {
  const backoff = new Backoff({ initialMs: 100, maxMs: 10_000, jitter: 0, random: fixed(0) });
  assert.equal(backoff.next(7000), 7000);
});

test('many failures stay at the maximum instead of overflowing', () => {
  const backoff = new Backoff({ initialMs: 1, maxMs: 60_000, jitter: 0, random: fixed(0) });
  for (let i = 0; i < 2000; i++) backoff.next();
  assert.equal(backoff.next(), 60_000);
});

test('nonsense settings are refused', () => {
  assert.throws(() => new Backoff({ initialMs: 0, maxMs: 10, jitter: 0 }), RangeError);
  assert.throws(() => new Backoff({ initialMs: 10, maxMs: 5, jitter: 0 }), RangeError);
  assert.throws(() => new Backoff({ initialMs: 1, maxMs: 5, jitter: 2 }), RangeError);
});
