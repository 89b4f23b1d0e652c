/**
 * The visitor's voice over the coach (bargeIn.ts), frame by frame as the voice detector decides
 * (its decisions on real sound are voiceActivity's and echo.ts's tests): the coach held at the
 * first doubt, going on after a cough, interrupted by the visitor. What the session does on
 * `visitor-interrupts` is coachSession.test.ts's.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';
import { BargeIn, type BargeInEvent } from './bargeIn';
import type { VoiceStatus } from './voiceButtonMachine';
import { MAX_HOLD_MS } from './voiceHold';

let calls: string[];
let state: { listensToVoice: boolean; status: VoiceStatus; audible: boolean };
let bargeIn: BargeIn;

beforeEach(() => {
  calls = [];
  state = { listensToVoice: true, status: 'speaking', audible: true };
  bargeIn = new BargeIn(
    { hold: () => calls.push('hold'), release: () => calls.push('release') },
    () => calls.push('echo raised'),
    { listensToVoice: () => state.listensToVoice, status: () => state.status, audible: () => state.audible },
    (event: BargeInEvent) => {
      calls.push(event.type);
      // As the session does: the coach stops, and the visitor is listened to.
      state.status = 'listening';
    },
  );
});

/** 20 ms frames: each entry the detector's events for one frame. */
const heard = (...perFrame: (readonly VoiceActivityEvent[])[]) => perFrame.forEach((events) => bargeIn.heard(20, events));
const silent = (count: number) => Array.from({ length: count }, () => [] as const);
const cough = () => heard(['speech-maybe'], ...silent(2), ['speech-dropped'], ...silent(5));

describe('the visitor’s voice while the coach speaks', () => {
  it('holds the coach at the first doubt and interrupts it when it is the visitor', () => {
    heard(['speech-maybe'], ...silent(4));
    expect(calls).toEqual(['hold']);
    heard(['speech-start']);
    expect(calls).toEqual(['hold', 'visitor-interrupts']);
  });

  it('a cough holds the coach for a moment and lets it go on, expecting its echo louder from then on', () => {
    cough();
    expect(calls).toEqual(['hold', 'release', 'echo raised']);
  });

  it('holds the coach at most once per turn of its own; the visitor still interrupts it', () => {
    cough();
    cough();
    heard(['speech-maybe'], ['speech-start']);
    expect(calls).toEqual(['hold', 'release', 'echo raised', 'visitor-interrupts']);
    state.status = 'speaking';
    bargeIn.newTurn();
    heard(['speech-maybe']);
    expect(calls.at(-1)).toBe('hold');
  });

  it('waits for the microphone’s frames, not the clock: a hold ends undecided only after MAX_HOLD_MS of them', () => {
    heard(['speech-maybe'], ...silent(Math.ceil(MAX_HOLD_MS / 20) - 1));
    expect(calls).toEqual(['hold']);
    heard([]);
    expect(calls).toEqual(['hold', 'release', 'echo raised']);
  });

  it('a noise before the coach’s turn sounds holds nothing and leaves the turn its hold', () => {
    state.audible = false;
    cough();
    expect(calls).toEqual([]);
    state.audible = true;
    heard(['speech-maybe']);
    expect(calls).toEqual(['hold']);
  });

  it('without hands-free (or after the visitor paused it with a click) the voice neither holds nor interrupts', () => {
    state.listensToVoice = false;
    heard(['speech-maybe'], ['speech-start']);
    expect(calls).toEqual([]);
  });

  it('a held coach whose hold the session did not turn into listening goes on', () => {
    heard(['speech-maybe']);
    state.listensToVoice = false;
    heard(['speech-start']);
    expect(calls).toEqual(['hold', 'release']);
  });
});

describe('the visitor’s voice while the coach waits', () => {
  it.each(['ready', 'paused'] as const)('%s: the voice starts listening', (status) => {
    state.status = status;
    heard(['speech-maybe'], ['speech-start']);
    expect(calls).toEqual(['visitor-speaks']);
  });

  it('while the coach prepares its answer, the voice changes nothing', () => {
    state.status = 'processing';
    heard(['speech-maybe'], ['speech-start']);
    expect(calls).toEqual([]);
  });
});
