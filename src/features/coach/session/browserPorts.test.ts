import { afterAll, describe, expect, it, vi } from 'vitest';
import { installFetch, jsonResponse, type RecordedRequest } from '../../../../tests/support/browser/browserFakes';
import { browserPorts } from './browserPorts';

let requests: RecordedRequest[] = [];

afterAll(() => {
  vi.unstubAllGlobals();
});

const providerQuestions = () => requests.filter((request) => request.url.endsWith('/tts') && request.method === 'GET');

describe('warming up for the first click', () => {
  it('waits for the visitor’s first sign of intent, then asks once', async () => {
    requests = installFetch(() => jsonResponse(200, { available: true }));
    // However long the page stays idle, nothing is loaded or asked for.
    vi.useFakeTimers();
    const stop = browserPorts().warmUp();
    await vi.advanceTimersByTimeAsync(10_000);
    vi.useRealTimers();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(providerQuestions()).toHaveLength(0);

    window.dispatchEvent(new Event('pointermove'));
    await vi.waitFor(() => expect(providerQuestions()).toHaveLength(1));
    window.dispatchEvent(new Event('keydown'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(providerQuestions()).toHaveLength(1);
    stop();
  });

  it('loads nothing once stopped (the coach left the page first)', async () => {
    requests = installFetch(() => jsonResponse(200, { available: true }));
    const stop = browserPorts().warmUp();
    stop();
    window.dispatchEvent(new Event('touchstart'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(0);
  });
});
