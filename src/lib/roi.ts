/**
 * The three ROI calculators (seed section 9) as pure functions. Slider values arrive already on
 * their step; results are rounded to whole cents so floating-point noise never reaches the page.
 */
export interface SliderSpec {
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly initial: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** Snaps a value to its slider's step and bounds (0.1 steps stay 0.1 steps, not 0.30000000000000004). */
export function snapToStep(value: number, spec: SliderSpec): number {
  const decimals = (String(spec.step).split('.')[1] ?? '').length;
  const snapped = spec.min + Math.round((value - spec.min) / spec.step) * spec.step;
  const clamped = Math.min(spec.max, Math.max(spec.min, snapped));
  return Number(clamped.toFixed(decimals));
}

// Solutions page: what fewer sick days are worth (assumed 30 % reduction).
export const solutionsSliders = {
  employees: { min: 100, max: 10_000, step: 100, initial: 100 },
  sickDays: { min: 1, max: 30, step: 1, initial: 12 },
  costPerDay: { min: 150, max: 500, step: 10, initial: 250 },
} as const satisfies Record<string, SliderSpec>;
export const SICK_DAY_REDUCTION = 0.3;

export interface SolutionsInput {
  employees: number;
  sickDays: number;
  costPerDay: number;
}

export function solutionsAnnualSaving({ employees, sickDays, costPerDay }: SolutionsInput): number {
  return cents(employees * sickDays * costPerDay * SICK_DAY_REDUCTION);
}

// AI Hotlines: monthly call costs today and the 40 % saved.
export const hotlineSliders = {
  calls: { min: 100, max: 10_000, step: 100, initial: 1000 },
  minutes: { min: 1, max: 30, step: 1, initial: 5 },
  costPerMinute: { min: 0.5, max: 5, step: 0.1, initial: 2 },
} as const satisfies Record<string, SliderSpec>;
export const HOTLINE_SAVING = 0.4;

export interface HotlineInput {
  calls: number;
  minutes: number;
  costPerMinute: number;
}

export function hotlineRoi({ calls, minutes, costPerMinute }: HotlineInput) {
  const currentMonthly = cents(calls * minutes * costPerMinute);
  const monthlySaving = cents(currentMonthly * HOTLINE_SAVING);
  return { currentMonthly, monthlySaving, annualSaving: cents(monthlySaving * 12) };
}

// AI Secretary: handling time of requests today; the displayed saving is 70 % of that cost.
export const secretarySliders = {
  requests: { min: 100, max: 5000, step: 100, initial: 1000 },
  minutes: { min: 1, max: 15, step: 1, initial: 5 },
  hourlyCost: { min: 20, max: 50, step: 1, initial: 30 },
} as const satisfies Record<string, SliderSpec>;
export const SECRETARY_SAVING = 0.7;

export interface SecretaryInput {
  requests: number;
  minutes: number;
  hourlyCost: number;
}

export function secretaryRoi({ requests, minutes, hourlyCost }: SecretaryInput) {
  const currentMonthly = cents((requests * minutes * hourlyCost) / 60);
  const monthlySaving = cents(currentMonthly * SECRETARY_SAVING);
  return { currentMonthly, monthlySaving, annualSaving: cents(monthlySaving * 12) };
}

export function initialValues<K extends string>(sliders: Record<K, SliderSpec>): Record<K, number> {
  return Object.fromEntries(
    Object.entries<SliderSpec>(sliders).map(([key, spec]) => [key, spec.initial]),
  ) as Record<K, number>;
}
