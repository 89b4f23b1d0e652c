/**
 * The home page's particle field, kept in one Float32Array (x, y, vx, vy, radius per particle)
 * so a frame of 500 particles stays far below a millisecond of work.
 */
import { mulberry32 } from './random';

export const PARTICLE_COUNT = 500;
const STRIDE = 5;

export interface ParticleField {
  readonly count: number;
  readonly data: Float32Array;
  width: number;
  height: number;
}

export function createField(
  width: number,
  height: number,
  count = PARTICLE_COUNT,
  random: () => number = mulberry32(42),
): ParticleField {
  const data = new Float32Array(count * STRIDE);
  for (let i = 0; i < count; i++) {
    const o = i * STRIDE;
    const angle = random() * Math.PI * 2;
    const speed = 6 + random() * 18; // px per second
    data[o] = random() * width;
    data[o + 1] = random() * height;
    data[o + 2] = Math.cos(angle) * speed;
    data[o + 3] = Math.sin(angle) * speed;
    data[o + 4] = 0.6 + random() * 1.6;
  }
  return { count, data, width, height };
}

/** Moves every particle by dt seconds; particles leaving one edge come back at the other. */
export function stepField(field: ParticleField, dtSeconds: number): void {
  const { data, width, height } = field;
  const dt = Math.min(Math.max(dtSeconds, 0), 0.1); // a long pause must not teleport the field
  for (let o = 0; o < data.length; o += STRIDE) {
    let x = (data[o] ?? 0) + (data[o + 2] ?? 0) * dt;
    let y = (data[o + 1] ?? 0) + (data[o + 3] ?? 0) * dt;
    if (x < 0) x += width;
    else if (x >= width) x -= width;
    if (y < 0) y += height;
    else if (y >= height) y -= height;
    data[o] = x;
    data[o + 1] = y;
  }
}

/** Keeps the particles inside a resized area by scaling their positions. */
export function resizeField(field: ParticleField, width: number, height: number): void {
  const sx = field.width > 0 ? width / field.width : 1;
  const sy = field.height > 0 ? height / field.height : 1;
  for (let o = 0; o < field.data.length; o += STRIDE) {
    field.data[o] = (field.data[o] ?? 0) * sx;
    field.data[o + 1] = (field.data[o + 1] ?? 0) * sy;
  }
  field.width = width;
  field.height = height;
}

export interface DrawTarget {
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillStyle: string | CanvasGradient | CanvasPattern;
}

/**
 * Particles of one to three pixels look the same as squares or as circles, and squares skip path
 * building and anti-aliased arc rasterising, which dominated the frame time on phones.
 */
export function drawField(field: ParticleField, ctx: DrawTarget, color: string): void {
  const { data } = field;
  ctx.clearRect(0, 0, field.width, field.height);
  ctx.fillStyle = color;
  for (let o = 0; o < data.length; o += STRIDE) {
    const r = data[o + 4] ?? 1;
    ctx.fillRect((data[o] ?? 0) - r, (data[o + 1] ?? 0) - r, r * 2, r * 2);
  }
}
