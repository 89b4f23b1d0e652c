import { describe, expect, it } from 'vitest';
import { sameWords } from './sameWords';

describe('sameWords', () => {
  it('ignores case, punctuation and spacing', () => {
    expect(sameWords('ich bin gestresst', 'Ich bin gestresst.')).toBe(true);
    expect(sameWords('Was hilft  bei Stress', 'was hilft bei Stress?')).toBe(true);
  });

  it('tells different words apart, and nothing is the same as nothing', () => {
    expect(sameWords('ich bin gestresst', 'ich bin gestresst bei der Arbeit')).toBe(false);
    expect(sameWords('  ', '')).toBe(false);
  });
});
