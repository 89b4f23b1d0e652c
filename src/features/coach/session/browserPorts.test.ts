import { afterAll, describe, expect, it, vi } from 'vitest';
import { installFetch, jsonResponse } from '../../../../tests/support/browser/browserFakes';
import { browserPorts, INTENT_EVENTS, onFirstIntent } from './browserPorts';

afterAll(() => {
  vi.unstubAllGlobals();
});

describe('warming up for the first click', () => {
  it('loads nothing while the page is only looked at, and once at the visitor’s first sign of intent', () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const load = vi.fn();
    const stop = onFirstIntent(target, load);
    // However long the page stays idle, nothing is loaded.
    vi.advanceTimersByTime(60_000);
    vi.useRealTimers();
    expect(load).not.toHaveBeenCalled();
    target.dispatchEvent(new Event('pointermove'));
    target.dispatchEvent(new Event('keydown'));
    expect(load).toHaveBeenCalledTimes(1);
    stop();
  });

  it.each(INTENT_EVENTS)('%s is such a sign', (type) => {
    const target = new EventTarget();
    const load = vi.fn();
    onFirstIntent(target, load);
    target.dispatchEvent(new Event(type));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads nothing once stopped (the coach left the page first)', () => {
    const target = new EventTarget();
    const load = vi.fn();
    onFirstIntent(target, load)();
    target.dispatchEvent(new Event('touchstart'));
    expect(load).not.toHaveBeenCalled();
  });

  it('in the browser, that sign asks whether the tts function has a voice provider', async () => {
    const requests = installFetch(() => jsonResponse(200, { available: true }));
    const stop = browserPorts().warmUp();
    window.dispatchEvent(new Event('pointermove'));
    await vi.waitFor(() => expect(requests.filter((request) => request.url.endsWith('/tts') && request.method === 'GET')).toHaveLength(1));
    stop();
  });
});
