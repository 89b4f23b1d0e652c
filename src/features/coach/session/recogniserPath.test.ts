/**
 * Listening with the browser's recogniser (recogniserPath.ts), with a fake recogniser the test
 * speaks through and the detector's silence as the test says. What the session does with the
 * events is coachSession.test.ts's; the early reply a pause starts is earlyReply.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeCoachWorld, type FakeCoachWorld } from '../../../../tests/support/browser/fakeCoachPorts';
import type { ListeningEvent } from './listeningPath';
import { PAUSE_SILENCE_MS, RecogniserPath, STABLE_WORDS_MS } from './recogniserPath';

let world: FakeCoachWorld;
let events: string[];
/** The detector's silence (null: no microphone open). */
let silenceMs: number | null;
let path: RecogniserPath;

const describeEvent = (event: ListeningEvent) => ('text' in event ? `${event.type}: ${event.text}` : event.type);

beforeEach(() => {
  vi.useFakeTimers();
  world = fakeCoachWorld();
  events = [];
  silenceMs = null;
  path = new RecogniserPath(world.ports.recognition, () => silenceMs, (event) => events.push(describeEvent(event)));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a pause in the recogniser’s words', () => {
  it('is reported when the interim words have stayed the same for STABLE_WORDS_MS', () => {
    world.latestRecognition().interim('Ich bin so gestresst');
    vi.advanceTimersByTime(STABLE_WORDS_MS - 1);
    expect(events).toEqual(['listening-interim: Ich bin so gestresst']);
    vi.advanceTimersByTime(1);
    expect(events.at(-1)).toBe('listening-pause: Ich bin so gestresst');
  });

  it('waits while the voice detector still hears the visitor, and comes once it hears PAUSE_SILENCE_MS of silence', () => {
    silenceMs = 0;
    world.latestRecognition().interim('Ich bin so gestresst');
    vi.advanceTimersByTime(STABLE_WORDS_MS + 500);
    expect(events).toEqual(['listening-interim: Ich bin so gestresst']);
    silenceMs = PAUSE_SILENCE_MS;
    vi.advanceTimersByTime(50);
    expect(events.at(-1)).toBe('listening-pause: Ich bin so gestresst');
  });

  it('is withdrawn when the words change, and reported again when the new words stay', () => {
    const recognition = world.latestRecognition();
    recognition.interim('Ich bin');
    vi.advanceTimersByTime(STABLE_WORDS_MS);
    recognition.interim('ich bin');
    vi.advanceTimersByTime(STABLE_WORDS_MS);
    recognition.interim('Ich bin gestresst');
    vi.advanceTimersByTime(STABLE_WORDS_MS);
    expect(events).toEqual([
      'listening-interim: Ich bin',
      'listening-pause: Ich bin',
      'listening-interim: ich bin',
      'listening-interim: Ich bin gestresst',
      'listening-resume',
      'listening-pause: Ich bin gestresst',
    ]);
  });

  it('is not reported once the words are final, or after the path was dropped', () => {
    world.latestRecognition().interim('Hallo');
    world.latestRecognition().final('Hallo Mia');
    vi.advanceTimersByTime(STABLE_WORDS_MS * 2);
    expect(events).toEqual(['listening-interim: Hallo', 'listening-interim: Hallo Mia', 'listening-final: Hallo Mia', 'listening-ended']);

    const dropped = new RecogniserPath(world.ports.recognition, () => null, (event) => events.push(describeEvent(event)));
    world.latestRecognition().interim('Noch was');
    dropped.abort();
    vi.advanceTimersByTime(STABLE_WORDS_MS * 2);
    expect(events.at(-1)).toBe('listening-interim: Noch was');
    expect(world.latestRecognition().aborted).toBe(true);
  });
});

describe('the recogniser’s problems', () => {
  it.each(['network', 'service-not-allowed', 'audio-capture', 'language-not-supported'])(
    'a service that is not there (%s) asks for recording instead; its end is not the end of listening',
    (code) => {
      world.latestRecognition().fail(code);
      expect(events).toEqual(['listening-unavailable']);
    },
  );

  it('no speech within its own time limit is reported as silence, anything else as a failure', () => {
    world.latestRecognition().fail('no-speech', 'noSpeech');
    new RecogniserPath(world.ports.recognition, () => null, (event) => events.push(describeEvent(event)));
    world.latestRecognition().fail('not-allowed', 'denied');
    expect(events).toEqual(['listening-silent', 'listening-ended', 'listening-failed', 'listening-ended']);
  });

  it('a click stops the recogniser, which still gives its final words', () => {
    path.stop();
    expect(world.latestRecognition().stopped).toBe(true);
    world.latestRecognition().final('Hallo');
    expect(events.slice(-2)).toEqual(['listening-final: Hallo', 'listening-ended']);
  });
});
