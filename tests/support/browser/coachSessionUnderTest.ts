/**
 * The coach session under test without React, for the session's own tests: a fresh fake world
 * (`fakeCoachPorts`) and a session attached to it before each test, detached after; the helpers
 * that bring it to a state a test starts from.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { createCoachSession, type CoachSession } from '../../../src/features/coach/session/coachSession';
import { fakeCoachWorld, type FakeCoachWorld } from './fakeCoachPorts';

export interface CoachSessionUnderTest {
  readonly world: FakeCoachWorld;
  readonly session: CoachSession;
  /** The page is left: the session is detached (once; the test's end does not detach it again). */
  leave(): void;
}

/** Registers the hooks; the returned object always holds the current test's world and session. */
export function coachSessionUnderTest() {
  let world: FakeCoachWorld | null = null;
  let session: CoachSession | null = null;
  let detach: (() => void) | null = null;
  beforeEach(() => {
    world = fakeCoachWorld();
    session = createCoachSession(world.ports);
    detach = session.attach();
  });
  afterEach(() => {
    detach?.();
    detach = null;
    vi.useRealTimers();
  });
  const t: CoachSessionUnderTest = {
    get world() {
      if (!world) throw new Error('coachSessionUnderTest: no test is running');
      return world;
    },
    get session() {
      if (!session) throw new Error('coachSessionUnderTest: no test is running');
      return session;
    },
    leave() {
      detach?.();
      detach = null;
    },
  };
  const status = () => t.session.getSnapshot().voice.status;
  const hint = () => t.session.getSnapshot().voice.hint;
  const notice = () => t.session.getSnapshot().voice.notice;
  const entries = () => t.session.getSnapshot().chat.entries.map((entry) => (entry.role === 'divider' ? '—' : `${entry.role}: ${entry.content}`));

  /** First click: the greeting is queued; playing it out makes the coach ready. */
  async function greeted() {
    t.session.click();
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    t.world.latestQueue().start();
    t.world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).not.toBe('speaking'));
  }

  /** The same with fake timers running: the greeting queued, played out, the coach ready. */
  async function greetedWithFakeTimers() {
    t.session.click();
    await vi.advanceTimersByTimeAsync(0);
    t.world.latestQueue().finish();
    await vi.advanceTimersByTimeAsync(0);
  }

  /** Answers the latest coach call with the given text and plays it out. */
  async function answer(text: string) {
    const call = t.world.latestCall();
    call.send(text);
    call.end();
    const queues = t.world.queues.length;
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(queues + 1));
    await vi.waitFor(() => expect(t.world.latestQueue().pieces.length).toBeGreaterThan(0));
    t.world.latestQueue().start();
    t.world.latestQueue().finish();
  }

  return { t, status, hint, notice, entries, greeted, greetedWithFakeTimers, answer };
}
