import { useEffect, useRef } from 'react';
import { createField, drawField, resizeField, stepField, type ParticleField } from '../../lib/particles';

const COLOR = 'rgba(199, 210, 254, 0.75)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * 500 drifting particles behind the home page's headline. The animation stops while the tab is
 * hidden or the canvas is off screen, and never starts under prefers-reduced-motion (one still
 * frame is drawn instead).
 */
export function ParticleBackground({ className = '' }: { className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;

    const motion = window.matchMedia(REDUCED_MOTION);
    let field: ParticleField | null = null;
    let frame = 0;
    let last = 0;
    let onScreen = true;

    const size = () => {
      // Dots of a few pixels gain nothing from a high-density canvas: one canvas pixel per CSS
      // pixel keeps the fill cost low on phones.
      const width = canvas.clientWidth;
      const height = canvas.clientHeight;
      canvas.width = width;
      canvas.height = height;
      if (field) resizeField(field, width, height);
      else field = createField(width, height);
      drawField(field, ctx, COLOR);
    };

    const tick = (now: number) => {
      frame = 0;
      if (!field) return;
      stepField(field, last === 0 ? 0 : (now - last) / 1000);
      last = now;
      drawField(field, ctx, COLOR);
      frame = window.requestAnimationFrame(tick);
    };

    const shouldRun = () => !motion.matches && document.visibilityState === 'visible' && onScreen;
    const update = () => {
      if (shouldRun()) {
        if (frame === 0) {
          last = 0;
          frame = window.requestAnimationFrame(tick);
        }
      } else if (frame !== 0) {
        window.cancelAnimationFrame(frame);
        frame = 0;
      }
    };

    size();
    update();

    const resize = new ResizeObserver(() => size());
    resize.observe(canvas);
    const visibility = new IntersectionObserver((entries) => {
      onScreen = entries.some((entry) => entry.isIntersecting);
      update();
    });
    visibility.observe(canvas);
    document.addEventListener('visibilitychange', update);
    motion.addEventListener('change', update);

    return () => {
      if (frame !== 0) window.cancelAnimationFrame(frame);
      resize.disconnect();
      visibility.disconnect();
      document.removeEventListener('visibilitychange', update);
      motion.removeEventListener('change', update);
    };
  }, []);

  return <canvas ref={canvasRef} aria-hidden="true" className={`pointer-events-none ${className}`} />;
}
