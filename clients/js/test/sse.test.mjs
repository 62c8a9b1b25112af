import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseParser, SseLineTooLong, SseEventTooLong } from '../dist/sse.js';

function parse(chunks, maxLineChars, maxEventChars) {
  const seen = [];
  const parser = new SseParser({
    event: (type, data) => seen.push([type, data]),
    retry: (ms) => seen.push(['retry', ms]),
  }, maxLineChars, maxEventChars);
  for (const chunk of chunks) parser.push(chunk);
  return seen;
}

test('events, heartbeats and retry as the view API sends them', () => {
  assert.deepEqual(parse(['retry: 3000\n\nevent: counts\ndata: {"total":1}\n\n: heartbeat\n\n']),
    [['retry', 3000], ['counts', '{"total":1}']]);
});

test('an event cut anywhere, even inside CRLF, is the same event', () => {
  const whole = 'event: counts\r\ndata: {"a":1}\r\n\r\n';
  for (let cut = 1; cut < whole.length; cut++) {
    assert.deepEqual(parse([whole.slice(0, cut), whole.slice(cut)]), [['counts', '{"a":1}']], `cut at ${cut}`);
  }
});

test('CR alone ends lines too, and data lines join with LF', () => {
  assert.deepEqual(parse(['data: one\rdata: two\r\r']), [['message', 'one\ntwo']]);
});

test('an event without data is not dispatched, and its type does not leak into the next', () => {
  assert.deepEqual(parse(['event: counts\n\ndata: x\n\n']), [['message', 'x']]);
});

test('a byte order mark at the start is skipped; a malformed retry is ignored', () => {
  assert.deepEqual(parse(['\uFEFFretry: soon\ndata: x\n\n']), [['message', 'x']]);
});

test('an event not yet ended is held, not dispatched', () => {
  assert.deepEqual(parse(['data: x\n']), []);
});

test('a line that never ends is refused once past the limit', () => {
  assert.throws(() => parse(['data: ' + 'x'.repeat(100)], 50), SseLineTooLong);
});

test('an event whose data lines never stop is refused once past the limit, though each line is short', () => {
  assert.throws(() => parse([('data: ' + 'x'.repeat(10) + '\n').repeat(20)], 50, 100), SseEventTooLong);
});

test('an event at the limit is dispatched, and the limit is per event', () => {
  const event = 'data: ' + 'x'.repeat(40) + '\ndata: ' + 'y'.repeat(9) + '\n\n';
  assert.deepEqual(parse([event, event], 50, 50), [['message', 'x'.repeat(40) + '\n' + 'y'.repeat(9)],
    ['message', 'x'.repeat(40) + '\n' + 'y'.repeat(9)]]);
});
