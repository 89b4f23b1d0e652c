/**
 * The echo decision with synthetic PCM: the coach's voice as the page plays it (the reference),
 * the microphone hearing it back late and loud, with and without the visitor speaking over it.
 * The decision's levels go to the real voice activity detector, as in the session.
 */
import { describe, expect, it } from 'vitest';
import { createVoiceActivityDetector, type VoiceActivityEvent } from '../../../lib/voiceActivity';
import { concat, echoOf, frames, mix, noise, quiet, SIGNAL_RATE, voice } from '../../../../tests/support/browser/signals';
import { createEchoDecision } from './echo';

/** What the coach says: a lower voice, with the pauses of speech. */
const coach = (seconds: number) =>
  concat(...Array.from({ length: Math.ceil(seconds / 1.6) }, () => concat(voice(1.3, 0.1, { fundamental: 190, syllablesPerSecond: 5 }), quiet(0.3)))).slice(
    0,
    Math.round(seconds * SIGNAL_RATE),
  );

interface Heard {
  event: VoiceActivityEvent;
  atMs: number;
}

/** Runs microphone and reference through the echo decision and the detector, frame by frame. */
function listen(microphone: Float32Array, reference: Float32Array, decision = createEchoDecision({ sampleRate: SIGNAL_RATE, frameLength: 480 })) {
  const detector = createVoiceActivityDetector({ sampleRate: SIGNAL_RATE, maybeMs: 140 });
  const played = frames(reference);
  const heard: Heard[] = [];
  frames(microphone).forEach((frame, index) => {
    const levels = decision.push(frame, played[index] ?? null);
    const events = levels ? detector.pushLevels(levels) : detector.push(frame);
    for (const event of events) heard.push({ event, atMs: (index + 1) * 20 });
  });
  return { heard, decision };
}

const room = (seconds: number) => noise(seconds, 0.002, 11);

describe('the coach’s own echo', () => {
  it.each([0, -9])('at %s dB, 40 ms late (60 ms with the page’s own latency), is never taken for the visitor', (gainDb) => {
    const played = coach(8);
    const { heard, decision } = listen(mix(echoOf(played, 60, gainDb), room(8)), played);
    expect(heard).toEqual([]);
    expect(decision.delayFrames).toBe(3);
  });

  it('without the decision, the same echo would be taken for the visitor', () => {
    const played = coach(4);
    const detector = createVoiceActivityDetector({ sampleRate: SIGNAL_RATE });
    const events = frames(mix(echoOf(played, 60, 0), room(4))).flatMap((frame) => detector.push(frame));
    expect(events).toContain('speech-start');
  });

  it('its tail after the coach has stopped is not the visitor either', () => {
    const played = concat(coach(3), new Float32Array(SIGNAL_RATE));
    const { heard } = listen(mix(echoOf(played, 60, 0), room(4)), played);
    expect(heard).toEqual([]);
  });

  it('learns how loud the echo really is: a −9 dB echo lowers the expected coupling by more than 6 dB', () => {
    const played = coach(10);
    const { decision } = listen(mix(echoOf(played, 60, -9), room(10)), played);
    // The bands the coach's voice fills (300–2,100 Hz); the others keep the worst case.
    const speechBands = decision.coupling.slice(2, 8);
    expect(Math.max(...speechBands)).toBeLessThan(10 ** (-6 / 10));
  });
});

describe('the visitor over the coach', () => {
  it.each([0, -9])('is heard over a %s dB echo within 300 ms of the voice onset', (gainDb) => {
    const played = coach(5);
    const visitor = concat(quiet(3), voice(1.5, 0.2));
    const { heard } = listen(mix(mix(echoOf(played, 60, gainDb), visitor), room(5)), played);
    const start = heard.find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeGreaterThan(3_000);
    expect(start?.atMs).toBeLessThanOrEqual(3_000 + 300);
  });

  // Until the echo's lag is known (1.5 s of playback), the decision cannot line microphone and
  // reference up; it still learns how loud the echo is within the first second.
  it.each([1_000, 1_200, 1_480])('is heard when speaking %s ms into the coach’s first words, over a −9 dB echo', (onsetMs) => {
    const played = coach(4);
    const visitor = concat(quiet(onsetMs / 1_000), voice(0.9, 0.2, { fundamental: 120, syllablesPerSecond: 4 }));
    const { heard } = listen(mix(mix(echoOf(played, 60, -9), visitor), room(4)), played);
    const start = heard.find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeGreaterThan(onsetMs);
    expect(start?.atMs).toBeLessThanOrEqual(onsetMs + 400);
  });

  it('speaking over the coach does not teach the decision that the echo is louder', () => {
    const decision = createEchoDecision({ sampleRate: SIGNAL_RATE, frameLength: 480 });
    const first = coach(8);
    listen(mix(echoOf(first, 60, -9), room(8)), first, decision);
    const learnt = decision.coupling;
    // Three seconds of the visitor talking over the coach, the coach not stopping.
    const second = coach(5);
    const visitor = concat(voice(3, 0.2, { fundamental: 120, syllablesPerSecond: 4 }), quiet(2));
    listen(mix(mix(echoOf(second, 60, -9), visitor), room(5)), second, decision);
    decision.coupling.slice(2, 8).forEach((coupling, index) => expect(coupling).toBeLessThan(2 * (learnt[index + 2] ?? 0)));
    // And the next time the visitor speaks over the coach, they are heard at once.
    const third = coach(3);
    const again = concat(quiet(1), voice(1, 0.2, { fundamental: 120, syllablesPerSecond: 4 }), quiet(1));
    const { heard } = listen(mix(mix(echoOf(third, 60, -9), again), room(3)), third, decision);
    const start = heard.find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeGreaterThan(1_000);
    expect(start?.atMs).toBeLessThanOrEqual(1_300);
  });

  it('right after the coach stops, a quiet visitor is heard', () => {
    const played = concat(coach(3), new Float32Array(SIGNAL_RATE * 2));
    const visitor = concat(quiet(3.4), voice(1, 0.03), quiet(0.6));
    const { heard } = listen(mix(mix(echoOf(played, 60, 0), visitor), room(5)), played);
    expect(heard.map(({ event }) => event)).toEqual(['speech-maybe', 'speech-start']);
  });
});

describe('a false start', () => {
  it('raises the expected echo: an echo that suddenly comes 9 dB louder triggers once, then no more', () => {
    const decision = createEchoDecision({ sampleRate: SIGNAL_RATE, frameLength: 480 });
    // Eight seconds at −9 dB: the coupling is learnt.
    const quietRoom = coach(8);
    listen(mix(echoOf(quietRoom, 60, -9), room(8)), quietRoom, decision);
    // The visitor turns the speakers up: the echo is now at 0 dB.
    const loud = coach(3);
    const first = listen(mix(echoOf(loud, 60, 0), room(3)), loud, decision);
    expect(first.heard.map(({ event }) => event)).toContain('speech-maybe');
    decision.raise();
    const after = listen(mix(echoOf(loud, 60, 0), room(3)), loud, decision);
    expect(after.heard).toEqual([]);
  });
});
