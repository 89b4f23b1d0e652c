import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { ParticleBackground } from './ParticleBackground';

let reducedMotion = false;
let motionListener: (() => void) | null = null;
let visibility: DocumentVisibilityState = 'visible';
let draws = 0;
const frames = new Map<number, FrameRequestCallback>();
let nextFrame = 1;

beforeEach(() => {
  reducedMotion = false;
  visibility = 'visible';
  draws = 0;
  frames.clear();
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query.includes('reduce') && reducedMotion;
    },
    addEventListener: (_: string, listener: () => void) => {
      motionListener = listener;
    },
    removeEventListener: () => undefined,
  }));
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    const id = nextFrame++;
    frames.set(id, callback);
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  class Observer {
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal('ResizeObserver', Observer);
  vi.stubGlobal('IntersectionObserver', Observer);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () =>
      ({
        clearRect: () => {
          draws++;
        },
        fillRect: () => undefined,
        fillStyle: '',
      }) as unknown as CanvasRenderingContext2D,
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function runFrame(time: number) {
  const pending = [...frames.entries()];
  frames.clear();
  for (const [, callback] of pending) callback(time);
}

describe('particle background', () => {
  it('animates frame after frame when motion is allowed', () => {
    render(<ParticleBackground />);
    expect(frames.size).toBe(1);
    const before = draws;
    runFrame(16);
    runFrame(32);
    expect(draws).toBe(before + 2);
    expect(frames.size).toBe(1);
  });

  it('draws one still frame and never animates under prefers-reduced-motion', () => {
    reducedMotion = true;
    render(<ParticleBackground />);
    expect(draws).toBe(1);
    expect(frames.size).toBe(0);
  });

  it('stops when the tab is hidden and resumes when it is visible again', () => {
    render(<ParticleBackground />);
    expect(frames.size).toBe(1);
    visibility = 'hidden';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(frames.size).toBe(0);
    visibility = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(frames.size).toBe(1);
  });

  it('stops when the visitor turns on reduced motion', () => {
    render(<ParticleBackground />);
    reducedMotion = true;
    act(() => motionListener?.());
    expect(frames.size).toBe(0);
  });

  it('is hidden from assistive technology', () => {
    const { container } = render(<ParticleBackground />);
    expect(container.querySelector('canvas')).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('particle background in a worker', () => {
  const posted: unknown[] = [];
  let terminated = 0;

  beforeEach(() => {
    posted.length = 0;
    terminated = 0;
    class FakeWorker {
      postMessage(message: unknown) {
        posted.push(message);
      }
      terminate() {
        terminated++;
      }
    }
    vi.stubGlobal('Worker', FakeWorker);
    Object.defineProperty(HTMLCanvasElement.prototype, 'transferControlToOffscreen', {
      configurable: true,
      value: () => ({ offscreen: true }),
    });
  });

  afterEach(() => {
    Reflect.deleteProperty(HTMLCanvasElement.prototype, 'transferControlToOffscreen');
  });

  const runs = () =>
    posted.filter((m): m is { type: 'run'; run: boolean } => (m as { type?: string }).type === 'run').map((m) => m.run);

  it('hands the canvas to the worker and starts it; nothing animates on the main thread', () => {
    render(<ParticleBackground />);
    expect(posted[0]).toMatchObject({ type: 'init', canvas: { offscreen: true } });
    expect(runs()).toEqual([true]);
    expect(frames.size).toBe(0);
  });

  it('pauses the worker while the tab is hidden', () => {
    render(<ParticleBackground />);
    visibility = 'hidden';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    visibility = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(runs()).toEqual([true, false, true]);
  });

  it('never starts it under prefers-reduced-motion', () => {
    reducedMotion = true;
    render(<ParticleBackground />);
    expect(runs()).toEqual([false]);
  });

  it('stops the worker when the page goes away', async () => {
    // Workers of earlier tests are disposed a tick after their unmount; let that settle first.
    await new Promise((resolve) => setTimeout(resolve, 5));
    terminated = 0;
    const { unmount } = render(<ParticleBackground />);
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(terminated).toBe(1);
  });
});
