/**
 * The greeting on its own (greeting.ts), with fake ports: a speech queue the test plays out and an
 * audio output that records its calls. How the session shows it is coachSession.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { persona } from '../../../config/persona';
import { PlaybackError } from '../../../services/speechErrors';
import { fakeCoachWorld, settled, type FakeCoachWorld } from '../../../../tests/support/browser/fakeCoachPorts';
import { coachTexts } from '../texts';
import { Greeter, PRESS_CLICK_MS, type GreetingEvent } from './greeting';

let world: FakeCoachWorld;
let events: GreetingEvent['type'][];
let messages: string[];
let greeter: Greeter;

beforeEach(() => {
  world = fakeCoachWorld();
  events = [];
  messages = [];
  greeter = new Greeter(world.ports, (event) => {
    events.push(event.type);
    if (event.type === 'greeting-problem') messages.push(event.message);
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the greeting', () => {
  it('speaks the greeting, asked for from the cache, and reports its first sound and its end', async () => {
    const { turn } = greeter.open();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    const queue = world.latestQueue();
    expect(queue.pieces).toEqual([{ text: persona.greeting, cache: true }]);
    expect(queue.gateOpen).toBe(true);
    queue.start();
    queue.finish();
    await vi.waitFor(() => expect(events).toEqual(['greeting-sounding', 'greeting-ended']));
    expect(turn.aborted).toBe(false);
  });

  it('reports a greeting that cannot be played with the catalogue message, and still ends', async () => {
    greeter.open();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    world.latestQueue().fail(new PlaybackError('blocked', 'suspended'));
    await vi.waitFor(() => expect(events).toEqual(['greeting-problem', 'greeting-ended']));
    expect(messages).toEqual([coachTexts.errors.autoplayBlocked]);
  });
});

describe('the greeting from the press of the mouse button', () => {
  it('starts the audio and the synthesis at the press; sounds and reports nothing until confirmed, then goes on as one', async () => {
    greeter.press();
    expect(world.audio).toEqual(['unlock']);
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    const queue = world.latestQueue();
    expect(queue.pieces).toEqual([{ text: persona.greeting, cache: true }]);
    queue.fail(new PlaybackError('blocked', 'suspended'));
    queue.start();
    await settled();
    expect(queue.gateOpen).toBe(false);
    expect(events).toEqual([]);

    // A second press while it waits changes nothing.
    greeter.press();
    expect(world.audio).toEqual(['unlock']);

    const opened = greeter.open();
    await settled();
    expect(events).toEqual([]);
    opened.confirm();
    await vi.waitFor(() => expect(queue.gateOpen).toBe(true));
    expect(events).toEqual(['greeting-problem', 'greeting-ended']);
    expect(messages).toEqual([coachTexts.errors.autoplayBlocked]);
    expect(world.queues).toHaveLength(1);
    expect(opened.turn.aborted).toBe(false);
  });

  it('a press that does not become a click within PRESS_CLICK_MS drops its synthesis; the next opening starts anew', async () => {
    vi.useFakeTimers();
    greeter.press();
    await vi.advanceTimersByTimeAsync(PRESS_CLICK_MS - 1);
    expect(world.latestQueue().aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(world.latestQueue().aborted).toBe(true);

    greeter.open().confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(world.queues).toHaveLength(2);
    expect(world.latestQueue().gateOpen).toBe(true);
  });

  it('dropped when it is no longer waited for (the page went away)', async () => {
    greeter.press();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    greeter.dropPressed();
    expect(world.latestQueue().aborted).toBe(true);
  });
});
