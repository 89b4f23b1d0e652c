/**
 * Listening by streaming (streamingPath.ts): synthetic speech through a fake microphone and the
 * real ear (echo decision, voice detector, pre-roll capture), the stream's transcriber played by
 * the test as the `stt-stream` function would. What the session does with the events (the
 * fallback, the choice of path) is coachSession.streaming.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import { fakeCoachWorld, type FakeCoachWorld } from '../../../../tests/support/browser/fakeCoachPorts';
import { concat, frames, noise, quiet, voice } from '../../../../tests/support/browser/signals';
import { SessionEar } from './hearing';
import type { ListeningEvent } from './listeningPath';
import { StreamingPath } from './streamingPath';

let world: FakeCoachWorld;
let events: string[];
let handedOver: Extract<ListeningEvent, { type: 'listening-stream-failed' }>[];
let path: StreamingPath;
let ear: SessionEar;

beforeEach(async () => {
  world = fakeCoachWorld();
  events = [];
  handedOver = [];
  path = new StreamingPath(world.ports.streaming, (event: ListeningEvent) => {
    events.push('text' in event ? `${event.type}: ${event.text}` : event.type);
    if (event.type === 'listening-stream-failed') handedOver.push(event);
  });
  ear = new SessionEar(world.ports.microphone, () => undefined, () => undefined, () => path);
  ear.want(true);
  await vi.waitFor(() => expect(world.microphone.open).toBe(true));
});
afterEach(() => {
  ear.close();
});

const hear = (signal: Float32Array) => world.microphone.frames(frames(signal));

describe('listening by streaming', () => {
  it('opens no stream for silence or a cough, and streams from the voice onset less a short pre-roll while the visitor speaks', () => {
    hear(quiet(2));
    hear(concat(noise(0.08, 0.05), quiet(0.6)));
    expect(world.streams).toHaveLength(0);
    hear(voice(1.2, 0.05));
    expect(world.streams).toHaveLength(1);
    const stream = world.latestStream();
    // 1.2 s of speech and the 300 ms pre-roll went out while it was spoken; none of the 2 s before.
    expect(stream.seconds).toBeGreaterThanOrEqual(1.2);
    expect(stream.seconds).toBeLessThanOrEqual(1.2 + 0.35);
    expect(stream.commits).toBe(0);
    expect(events).toEqual([]);
  });

  it('shows the partial words as they come, hands them over at a pause, withdraws them when the visitor goes on, and ends with the final words', () => {
    hear(voice(0.8, 0.05));
    const stream = world.latestStream();
    stream.partial('Ich bin');
    expect(events).toEqual(['listening-interim: Ich bin']);
    hear(quiet(0.2));
    expect(events.at(-1)).toBe('listening-pause: Ich bin');
    hear(voice(0.6, 0.05));
    expect(events.at(-1)).toBe('listening-resume');
    stream.partial('Ich bin gestresst');
    hear(quiet(0.2));
    // A word the transcriber adds during the pause goes out again.
    stream.partial('Ich bin gestresst heute');
    expect(events.slice(-3)).toEqual(['listening-pause: Ich bin gestresst', 'listening-interim: Ich bin gestresst heute', 'listening-pause: Ich bin gestresst heute']);
    hear(quiet(0.8));
    // The detector's end of speech commits; the final words end the turn.
    expect(stream.commits).toBe(1);
    expect(events.slice(-2)).toEqual(['segment-sent', 'listening-transcribing']);
    stream.final('Ich bin gestresst heute.');
    expect(events.slice(-2)).toEqual(['segment-words', 'listening-final: Ich bin gestresst heute.']);
    expect(stream.closed).toBe(true);
  });

  it('sends silence only briefly after the voice, and the end of a long pause just before the voice resumes', () => {
    hear(voice(1, 0.05));
    const stream = world.latestStream();
    const spoken = stream.seconds;
    hear(quiet(0.5));
    // The first moments of the pause only: the rest of its silence is not streamed (nor billed).
    expect(stream.seconds - spoken).toBeLessThanOrEqual(0.15);
    const paused = stream.seconds;
    hear(voice(0.5, 0.05));
    expect(stream.seconds - paused).toBeGreaterThanOrEqual(0.5 + 0.08);
    expect(stream.seconds - paused).toBeLessThanOrEqual(0.5 + 0.15);
  });

  it('a click ends the turn: what was said is committed and its final words arrive', () => {
    hear(voice(0.8, 0.05));
    path.stop();
    const stream = world.latestStream();
    expect(stream.commits).toBe(1);
    stream.final('Hallo');
    expect(events.at(-1)).toBe('listening-final: Hallo');
  });

  it('nothing said fails as noSpeech: no stream at all, or empty final words', () => {
    path.stop();
    expect(events).toEqual(['listening-failed']);
    expect(world.streams).toHaveLength(0);
  });

  it('keeps a commit the transcriber made by itself in a long turn, and ends with all the words', () => {
    hear(voice(0.8, 0.05));
    const stream = world.latestStream();
    stream.final('Erstens.');
    stream.partial('Zweitens');
    expect(events).toEqual(['listening-interim: Erstens.', 'listening-interim: Erstens. Zweitens']);
    path.stop();
    stream.final('Zweitens.');
    expect(events.at(-1)).toBe('listening-final: Erstens. Zweitens.');
  });

  it('a failing stream hands over all the audio the turn captured, while speaking or after the commit', () => {
    hear(voice(1, 0.05));
    const stream = world.latestStream();
    stream.fail(new SpeechRecognitionError('failed', 'stream closed (1006)'));
    expect(handedOver).toHaveLength(1);
    expect(handedOver[0]?.ended).toBe(false);
    const sent = stream.sent.reduce((sum, samples) => sum + samples.length, 0);
    expect(handedOver[0]?.heard.length).toBe(sent);
    expect(stream.closed).toBe(true);
    // Nothing more from this path: the caller listens with another.
    hear(quiet(1));
    expect(events).toEqual(['listening-stream-failed']);
  });

  it('a stream that fails after the end of speech hands over the whole turn as ended', () => {
    hear(concat(voice(1, 0.05), quiet(0.8)));
    const stream = world.latestStream();
    expect(stream.commits).toBe(1);
    stream.fail(new SpeechRecognitionError('failed', 'stream closed (4502)'));
    expect(handedOver[0]?.ended).toBe(true);
    expect(handedOver[0]?.heard.length).toBeGreaterThanOrEqual(16_000);
  });

  it('abort closes the stream, and no event follows', () => {
    hear(voice(0.8, 0.05));
    path.abort();
    const stream = world.latestStream();
    expect(stream.closed).toBe(true);
    stream.partial('zu spät');
    expect(events).toEqual([]);
  });
});
