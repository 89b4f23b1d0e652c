import { describe, expect, it } from 'vitest';
import { sameUtterance } from './utterance';

describe('sameUtterance', () => {
  it('ignores case, punctuation and spacing', () => {
    expect(sameUtterance('ich bin gestresst', 'Ich bin gestresst.')).toBe(true);
    expect(sameUtterance('Was hilft  bei Stress', 'was hilft bei Stress?')).toBe(true);
  });

  it('tells different words apart, and nothing is the same as nothing', () => {
    expect(sameUtterance('ich bin gestresst', 'ich bin gestresst bei der Arbeit')).toBe(false);
    expect(sameUtterance('  ', '')).toBe(false);
  });
});
