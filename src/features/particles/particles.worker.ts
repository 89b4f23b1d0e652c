/**
 * Draws the particle field on an OffscreenCanvas in a worker, so the animation costs the page's
 * main thread nothing per frame. The page tells it the size and when to run or pause.
 */
import { createField, drawField, resizeField, stepField, type ParticleField } from '../../lib/particles';
import type { ParticleDrawn, ParticleMessage } from './messages';

const COLOR = 'rgba(199, 210, 254, 0.75)';

let ctx: OffscreenCanvasRenderingContext2D | null = null;
let canvas: OffscreenCanvas | null = null;
let field: ParticleField | null = null;
let frame = 0;
let last = 0;

function tick(now: number) {
  frame = 0;
  if (!field || !ctx) return;
  stepField(field, last === 0 ? 0 : (now - last) / 1000);
  last = now;
  drawField(field, ctx, COLOR);
  frame = self.requestAnimationFrame(tick);
}

function size(width: number, height: number) {
  if (!canvas || !ctx) return;
  canvas.width = width;
  canvas.height = height;
  if (field) resizeField(field, width, height);
  else field = createField(width, height);
  drawField(field, ctx, COLOR);
  // One frame later the drawing has been committed to the page's canvas.
  self.requestAnimationFrame(() => self.postMessage({ type: 'drawn' } satisfies ParticleDrawn));
}

self.onmessage = (event: MessageEvent<ParticleMessage>) => {
  const message = event.data;
  if (message.type === 'init') {
    canvas = message.canvas;
    ctx = canvas.getContext('2d');
    size(message.width, message.height);
  } else if (message.type === 'resize') {
    size(message.width, message.height);
  } else if (message.run && frame === 0) {
    last = 0;
    frame = self.requestAnimationFrame(tick);
  } else if (!message.run && frame !== 0) {
    self.cancelAnimationFrame(frame);
    frame = 0;
  }
};
