import { createField, drawField, PARTICLE_COUNT, resizeField, stepField, type DrawTarget } from './particles';

describe('particle field', () => {
  it('holds 500 particles inside the area', () => {
    const field = createField(300, 200);
    expect(field.count).toBe(PARTICLE_COUNT);
    expect(PARTICLE_COUNT).toBe(500);
    for (let i = 0; i < field.count; i++) {
      const x = field.data[i * 5] ?? -1;
      const y = field.data[i * 5 + 1] ?? -1;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(300);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThan(200);
    }
  });

  it('moves particles and wraps them at the edges', () => {
    const field = createField(100, 100, 1);
    field.data.set([99, 1, 30, -30, 1]);
    stepField(field, 0.1);
    expect(field.data[0]).toBeCloseTo(2, 4);
    expect(field.data[1]).toBeCloseTo(98, 4);
  });

  it('caps a long pause so the field does not jump', () => {
    const field = createField(1000, 1000, 1);
    field.data.set([500, 500, 10, 0, 1]);
    stepField(field, 30);
    expect(field.data[0]).toBeCloseTo(501, 4);
  });

  it('scales positions on resize', () => {
    const field = createField(100, 100, 1);
    field.data.set([50, 20, 0, 0, 1]);
    resizeField(field, 200, 50);
    expect([field.data[0], field.data[1], field.width, field.height]).toEqual([100, 10, 200, 50]);
  });

  it('clears the area and draws every particle once, centred on its position', () => {
    const rects: number[][] = [];
    let cleared = 0;
    const ctx: DrawTarget = {
      fillStyle: '',
      clearRect: () => cleared++,
      fillRect: (x, y, w, h) => rects.push([x, y, w, h]),
    };
    const field = createField(10, 10, 7);
    field.data.set([5, 4, 0, 0, 1]);
    drawField(field, ctx, '#fff');
    expect(cleared).toBe(1);
    expect(rects).toHaveLength(7);
    expect(rects[0]).toEqual([4, 3, 2, 2]);
    expect(ctx.fillStyle).toBe('#fff');
  });
});
