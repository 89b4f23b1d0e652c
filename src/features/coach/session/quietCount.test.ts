import { describe, expect, it } from 'vitest';
import { QuietCount } from './quietCount';

describe('listening without a word', () => {
  it('calls onQuiet once, after the limit in frames', () => {
    const count = new QuietCount(100);
    let quiet = 0;
    count.start(() => (quiet += 1));
    for (let frame = 0; frame < 4; frame++) count.frame(20, []);
    expect(quiet).toBe(0);
    count.frame(20, []);
    expect(quiet).toBe(1);
    count.frame(20, []);
    expect(quiet).toBe(1);
  });

  it('stops at the visitor’s voice, and halts while the detector doubts', () => {
    const count = new QuietCount(100);
    let quiet = 0;
    count.start(() => (quiet += 1));
    count.frame(80, ['speech-maybe']);
    count.frame(500, []);
    expect(quiet).toBe(0);
    // The doubted frames did not count: 20 + 60 ms of quiet so far.
    count.frame(20, ['speech-dropped']);
    count.frame(60, []);
    expect(quiet).toBe(0);
    count.frame(20, []);
    expect(quiet).toBe(1);

    count.start(() => (quiet += 1));
    count.frame(20, ['speech-start']);
    count.frame(500, []);
    expect(quiet).toBe(1);
  });

  it('counts nothing once stopped', () => {
    const count = new QuietCount(100);
    let quiet = 0;
    count.start(() => (quiet += 1));
    count.stop();
    count.frame(500, []);
    expect(quiet).toBe(0);
  });
});
