/**
 * The early start of a reply (earlyReply.ts) with real replies (reply.ts) over fake ports: a coach
 * call the test streams and a speech queue whose gate it can see. Which pause starts it is the
 * listening paths' (recogniserPath.test.ts, recordingPath.test.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeCoachWorld, type FakeCoachWorld } from '../../../../tests/support/browser/fakeCoachPorts';
import { EarlyReply } from './earlyReply';
import { startReply, type ReplyEvent } from './reply';

let world: FakeCoachWorld;
let events: string[];
let early: EarlyReply;

beforeEach(() => {
  world = fakeCoachWorld();
  events = [];
  const record = (event: ReplyEvent | { type: 'early-reply-started'; text: string }) =>
    events.push('text' in event ? `${event.type}: ${event.text}` : event.type);
  early = new EarlyReply(
    (text) => startReply({ text, history: [{ role: 'user', content: text }], conversationId: null, speculative: true }, world.ports, record),
    record,
  );
});

/** The coach has been called `count` times in all. */
const called = (count: number) => vi.waitFor(() => expect(world.calls).toHaveLength(count));

/** The early reply's answer has streamed in and its first piece waits at the gate. */
async function answered(text: string) {
  world.latestCall().send(text);
  await vi.waitFor(() => expect(world.latestQueue().pieces.length).toBeGreaterThan(0));
}

describe('the early start of a reply', () => {
  it('asks on the words so far at a pause, but shows and plays nothing until the final words are the same', async () => {
    early.pause('Ich bin so gestresst');
    expect(events).toEqual(['early-reply-started: Ich bin so gestresst']);
    await called(1);
    await answered('Atme tief ein, ganz ruhig. ');
    world.latestQueue().start();
    expect(world.latestQueue().gateOpen).toBe(false);
    expect(events).toEqual(['early-reply-started: Ich bin so gestresst', 'reply-first-chunk']);

    // Case and punctuation aside, the same words: the reply goes on, not asked again.
    expect(early.settle('Ich bin so gestresst.')).toBe(true);
    expect(events.slice(2)).toEqual(['reply-asked: Ich bin so gestresst', 'reply-meta', 'reply-text: Atme tief ein, ganz ruhig. ']);
    await vi.waitFor(() => expect(world.latestQueue().gateOpen).toBe(true));
    expect(world.calls).toHaveLength(1);
    expect(world.latestCall().signal.aborted).toBe(false);
  });

  it('a pause with the same words keeps the reply; the visitor going on drops it unseen', async () => {
    early.pause('Ich bin');
    early.pause('ich bin');
    await called(1);
    await answered('Das ist schön zu hören. ');
    early.resume();
    expect(world.latestCall().signal.aborted).toBe(true);
    await vi.waitFor(() => expect(events.at(-1)).toBe('reply-cut'));
    expect(events.filter((event) => event.startsWith('reply-asked') || event.startsWith('reply-text'))).toEqual([]);
  });

  it('other final words drop the early reply, and the caller asks with them', async () => {
    early.pause('Ich bin');
    await called(1);
    const call = world.latestCall();
    expect(early.settle('Ich bin gestresst bei der Arbeit')).toBe(false);
    expect(call.signal.aborted).toBe(true);
    expect(early.settle('')).toBe(false);
  });

  it('a later pause with other words replaces the reply started on the earlier ones', async () => {
    early.pause('Ich bin');
    await called(1);
    const first = world.latestCall();
    early.pause('Ich bin gestresst');
    expect(first.signal.aborted).toBe(true);
    await called(2);
    expect(world.latestCall().history.at(-1)?.content).toBe('Ich bin gestresst');
  });
});
