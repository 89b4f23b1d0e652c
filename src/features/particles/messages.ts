/** Messages from the page to the particle worker. */
export type ParticleMessage =
  | { type: 'init'; canvas: OffscreenCanvas; width: number; height: number }
  | { type: 'resize'; width: number; height: number }
  | { type: 'run'; run: boolean };

/** Messages from the particle worker to the page: a frame of the field is on screen. */
export interface ParticleDrawn {
  type: 'drawn';
}
