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
