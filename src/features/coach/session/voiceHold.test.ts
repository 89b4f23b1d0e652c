import { describe, expect, it } from 'vitest';
import { MAX_HOLD_MS, VoiceHold } from './voiceHold';

function held() {
  const calls: string[] = [];
  const hold = new VoiceHold({ hold: () => calls.push('hold'), release: () => calls.push('release') }, () => calls.push('echo raised'));
  return { hold, calls };
}

describe('the coach held while the detector decides', () => {
  it('holds once per turn of the coach, however often the detector doubts', () => {
    const { hold, calls } = held();
    hold.maybe(true);
    hold.falseStart();
    hold.maybe(true);
    hold.falseStart();
    expect(calls).toEqual(['hold', 'release', 'echo raised']);
    hold.newTurn();
    hold.maybe(true);
    expect(calls.at(-1)).toBe('hold');
  });

  it('does not hold a coach that may not be interrupted', () => {
    const { hold, calls } = held();
    hold.maybe(false);
    hold.frame(MAX_HOLD_MS * 2, []);
    expect(calls).toEqual([]);
  });

  it('lets the coach go on after MAX_HOLD_MS of undecided microphone audio, not before', () => {
    const { hold, calls } = held();
    hold.maybe(true);
    hold.frame(20, ['speech-maybe']);
    for (let ms = 0; ms + 20 < MAX_HOLD_MS; ms += 20) hold.frame(20, []);
    expect(calls).toEqual(['hold']);
    hold.frame(20, []);
    expect(calls).toEqual(['hold', 'release', 'echo raised']);
  });

  it('a confirmed voice ends the wait without releasing: the caller decides', () => {
    const { hold, calls } = held();
    hold.maybe(true);
    expect(hold.decided()).toBe(true);
    expect(hold.decided()).toBe(false);
    hold.frame(MAX_HOLD_MS * 2, []);
    hold.release();
    expect(calls).toEqual(['hold']);
  });

  it('release lets a held coach go on without raising the echo', () => {
    const { hold, calls } = held();
    hold.maybe(true);
    hold.release();
    expect(calls).toEqual(['hold', 'release']);
  });
});
