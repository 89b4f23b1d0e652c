import { useEffect, useRef } from 'react';
import { createField, drawField, resizeField, stepField, type ParticleField } from '../../lib/particles';
import type { ParticleMessage } from './messages';

const COLOR = 'rgba(199, 210, 254, 0.75)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Runs or pauses the field and follows the canvas size; the drawing happens elsewhere. */
interface Renderer {
  resize(width: number, height: number): void;
  run(on: boolean): void;
  dispose(): void;
}

/** The canvas says when the field's first frame is on it (`data-drawn`), e.g. for a screenshot. */
function markDrawn(canvas: HTMLCanvasElement) {
  canvas.dataset.drawn = 'true';
}

/** Preferred: the field lives in a worker on an OffscreenCanvas, off the main thread. */
function workerRenderer(canvas: HTMLCanvasElement, width: number, height: number): Renderer | null {
  if (typeof Worker === 'undefined' || !('transferControlToOffscreen' in canvas)) return null;
  let offscreen: OffscreenCanvas;
  try {
    offscreen = canvas.transferControlToOffscreen();
  } catch {
    return null; // already transferred or not allowed: draw on the main thread instead
  }
  const worker = new Worker(new URL('./particles.worker.ts', import.meta.url), { type: 'module' });
  // The worker's only message (ParticleDrawn): its first frame is on the canvas.
  worker.onmessage = () => markDrawn(canvas);
  const post = (message: ParticleMessage, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  post({ type: 'init', canvas: offscreen, width, height }, [offscreen]);
  return {
    resize: (w, h) => post({ type: 'resize', width: w, height: h }),
    run: (on) => post({ type: 'run', run: on }),
    dispose: () => worker.terminate(),
  };
}

/** Fallback for browsers without OffscreenCanvas: the same field drawn on the main thread. */
function mainThreadRenderer(canvas: HTMLCanvasElement, width: number, height: number): Renderer | null {
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  let field: ParticleField | null = null;
  let frame = 0;
  let last = 0;
  const resize = (w: number, h: number) => {
    canvas.width = w;
    canvas.height = h;
    if (field) resizeField(field, w, h);
    else field = createField(w, h);
    drawField(field, ctx, COLOR);
    markDrawn(canvas);
  };
  const tick = (now: number) => {
    frame = 0;
    if (!field) return;
    stepField(field, last === 0 ? 0 : (now - last) / 1000);
    last = now;
    drawField(field, ctx, COLOR);
    frame = window.requestAnimationFrame(tick);
  };
  resize(width, height);
  return {
    resize,
    run(on) {
      if (on && frame === 0) {
        last = 0;
        frame = window.requestAnimationFrame(tick);
      } else if (!on && frame !== 0) {
        window.cancelAnimationFrame(frame);
        frame = 0;
      }
    },
    dispose() {
      if (frame !== 0) window.cancelAnimationFrame(frame);
    },
  };
}

// A canvas can hand its drawing to a worker only once; React's development double effects must
// find the same renderer again instead of transferring twice.
const renderers = new WeakMap<HTMLCanvasElement, { renderer: Renderer; disposal: number }>();

/**
 * 500 drifting particles behind the home page's headline. The animation stops while the tab is
 * hidden or the canvas is off screen, and never starts under prefers-reduced-motion (one still
 * frame is drawn instead). Canvas pixels match CSS pixels: dots of a few pixels gain nothing
 * from a high-density canvas.
 */
export function ParticleBackground({ className = '' }: { className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const kept = renderers.get(canvas);
    if (kept) window.clearTimeout(kept.disposal);
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    const renderer =
      kept?.renderer ?? workerRenderer(canvas, width, height) ?? mainThreadRenderer(canvas, width, height);
    if (!renderer) return;

    const motion = window.matchMedia(REDUCED_MOTION);
    let onScreen = true;
    const update = () => renderer.run(!motion.matches && document.visibilityState === 'visible' && onScreen);
    update();

    const resize = new ResizeObserver(() => renderer.resize(canvas.clientWidth, canvas.clientHeight));
    resize.observe(canvas);
    const visibility = new IntersectionObserver((entries) => {
      onScreen = entries.some((entry) => entry.isIntersecting);
      update();
    });
    visibility.observe(canvas);
    document.addEventListener('visibilitychange', update);
    motion.addEventListener('change', update);

    return () => {
      renderer.run(false);
      resize.disconnect();
      visibility.disconnect();
      document.removeEventListener('visibilitychange', update);
      motion.removeEventListener('change', update);
      const disposal = window.setTimeout(() => {
        renderer.dispose();
        renderers.delete(canvas);
      }, 0);
      renderers.set(canvas, { renderer, disposal });
    };
  }, []);

  return <canvas ref={canvasRef} aria-hidden="true" className={`pointer-events-none ${className}`} />;
}
