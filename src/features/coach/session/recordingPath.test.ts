/**
 * Listening by recording (recordingPath.ts): synthetic speech through a fake microphone and the
 * real ear (echo decision, voice detector, pre-roll capture), segments answered by the test as the
 * `stt` function would. What the session does with the events is coachSession.test.ts's; the reply
 * a pause starts early is earlyReply.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import { fakeCoachWorld, settled, type FakeCoachWorld } from '../../../../tests/support/browser/fakeCoachPorts';
import { concat, frames, quiet, voice } from '../../../../tests/support/browser/signals';
import { SessionEar } from './hearing';
import type { ListeningEvent } from './listeningPath';
import { RecordingPath } from './recordingPath';

let world: FakeCoachWorld;
let events: string[];
let failures: unknown[];
let path: RecordingPath;
let ear: SessionEar;

beforeEach(async () => {
  world = fakeCoachWorld();
  events = [];
  failures = [];
  path = new RecordingPath(world.ports.transcription, (event: ListeningEvent) => {
    events.push('text' in event ? `${event.type}: ${event.text}` : event.type);
    if (event.type === 'listening-failed') failures.push(event.error);
  });
  ear = new SessionEar(world.ports.microphone, () => undefined, () => undefined, () => path);
  ear.want(true);
  await vi.waitFor(() => expect(world.microphone.open).toBe(true));
});
afterEach(() => {
  ear.close();
});

const hear = (signal: Float32Array) => world.microphone.frames(frames(signal));
const uploadedSeconds = () => world.transcriptions.reduce((sum, entry) => sum + entry.seconds, 0);
/** The events that are neither a segment's upload nor its words coming back. */
const turnEvents = () => events.filter((event) => !event.startsWith('segment-'));

describe('listening by recording', () => {
  it('uploads only the speech: from the voice onset less a short pre-roll to the first pause', () => {
    hear(quiet(2));
    expect(world.transcriptions).toHaveLength(0);
    hear(concat(voice(1.2, 0.05), quiet(0.2)));
    expect(world.transcriptions).toHaveLength(1);
    expect(events).toEqual(['segment-sent']);
    // 1.2 s of speech, a 300 ms pre-roll and the 100 ms pause that ended it; none of the 2 s before.
    expect(uploadedSeconds()).toBeGreaterThanOrEqual(1.2);
    expect(uploadedSeconds()).toBeLessThanOrEqual(1.2 + 0.6);
  });

  it('hands over the words at a pause, withdraws them when the visitor goes on, sends only the new audio, and ends with all the words', async () => {
    hear(concat(voice(0.6, 0.05), quiet(0.2)));
    world.transcriptions[0]?.answer('Ich bin');
    await vi.waitFor(() => expect(turnEvents()).toEqual(['listening-pause: Ich bin']));
    hear(voice(0.6, 0.05));
    expect(turnEvents().at(-1)).toBe('listening-resume');
    hear(quiet(0.2));
    expect(world.transcriptions).toHaveLength(2);
    expect(world.transcriptions[1]?.previousText).toBe('Ich bin');
    world.transcriptions[1]?.answer('gestresst.');
    await vi.waitFor(() => expect(turnEvents().at(-1)).toBe('listening-pause: Ich bin gestresst.'));
    // 700 ms of silence: the end of speech.
    hear(quiet(0.6));
    await vi.waitFor(() => expect(turnEvents().at(-1)).toBe('listening-final: Ich bin gestresst.'));
    expect(world.transcriptions).toHaveLength(2);
    // Each second was sent once: 1.2 s of speech, the pause between, a pre-roll and a tail.
    expect(uploadedSeconds()).toBeLessThanOrEqual(1.4 + 0.6);
  });

  it('says so when the words are still being made out at the end of speech', async () => {
    hear(concat(voice(0.8, 0.05), quiet(0.9)));
    expect(turnEvents()).toEqual(['listening-transcribing']);
    world.transcriptions[0]?.answer('Hallo Mia');
    await vi.waitFor(() => expect(turnEvents().at(-1)).toBe('listening-final: Hallo Mia'));
  });

  it('a click (or the session’s quiet limit) ends the turn at once', async () => {
    hear(voice(0.6, 0.05));
    path.stop();
    expect(world.transcriptions).toHaveLength(1);
    world.transcriptions[0]?.answer('Hallo');
    await vi.waitFor(() => expect(turnEvents().at(-1)).toBe('listening-final: Hallo'));
  });

  it('nothing heard: the turn fails as noSpeech, and nothing is uploaded', async () => {
    hear(quiet(0.5));
    path.quiet();
    await vi.waitFor(() => expect(turnEvents()).toEqual(['listening-failed']));
    expect(failures).toEqual([expect.objectContaining({ problem: 'noSpeech' })]);
    expect(world.transcriptions).toHaveLength(0);
  });

  it('a cough is not recorded, not even when the turn ends right after it', async () => {
    hear(concat(voice(0.16, 0.08), quiet(1)));
    expect(events).toEqual([]);
    path.stop();
    await vi.waitFor(() => expect(turnEvents()).toEqual(['listening-failed']));
    expect(world.transcriptions).toHaveLength(0);
  });

  it('the function’s failure fails the turn with its problem', async () => {
    hear(concat(voice(0.8, 0.05), quiet(0.9)));
    const failure = new SpeechRecognitionError('failed', 'provider_error');
    world.transcriptions[0]?.fail(failure);
    await vi.waitFor(() => expect(turnEvents().at(-1)).toBe('listening-failed'));
    expect(failures).toEqual([failure]);
  });

  it('dropped, it cancels what is on its way and reports nothing more', async () => {
    hear(concat(voice(0.8, 0.05), quiet(0.2)));
    path.abort();
    expect(world.transcriptions[0]?.signal.aborted).toBe(true);
    hear(concat(voice(0.8, 0.05), quiet(0.9)));
    await settled();
    expect(world.transcriptions).toHaveLength(1);
    expect(events).toEqual(['segment-sent']);
  });
});
