import { formatEuro, formatNumber } from './format';
import {
  hotlineRoi,
  hotlineSliders,
  initialValues,
  secretaryRoi,
  secretarySliders,
  snapToStep,
  solutionsAnnualSaving,
  solutionsSliders,
} from './roi';

const nbsp = '\u00a0';

describe('solutions calculator', () => {
  it('has the seed bounds, steps and defaults', () => {
    expect(solutionsSliders).toEqual({
      employees: { min: 100, max: 10000, step: 100, initial: 100 },
      sickDays: { min: 1, max: 30, step: 1, initial: 12 },
      costPerDay: { min: 150, max: 500, step: 10, initial: 250 },
    });
  });

  it('saves employees × days × cost × 0.3 a year', () => {
    expect(solutionsAnnualSaving(initialValues(solutionsSliders))).toBe(90_000);
    expect(solutionsAnnualSaving({ employees: 100, sickDays: 1, costPerDay: 150 })).toBe(4500);
    expect(solutionsAnnualSaving({ employees: 10_000, sickDays: 30, costPerDay: 500 })).toBe(45_000_000);
    expect(solutionsAnnualSaving({ employees: 2300, sickDays: 7, costPerDay: 330 })).toBe(1_593_900);
  });
});

describe('hotline calculator', () => {
  it('has the seed bounds, steps and defaults', () => {
    expect(hotlineSliders.calls).toEqual({ min: 100, max: 10000, step: 100, initial: 1000 });
    expect(hotlineSliders.minutes).toEqual({ min: 1, max: 30, step: 1, initial: 5 });
    expect(hotlineSliders.costPerMinute).toEqual({ min: 0.5, max: 5, step: 0.1, initial: 2 });
  });

  it('costs calls × minutes × cost per minute and saves 40 %', () => {
    expect(hotlineRoi(initialValues(hotlineSliders))).toEqual({ currentMonthly: 10_000, monthlySaving: 4000, annualSaving: 48_000 });
    expect(hotlineRoi({ calls: 100, minutes: 1, costPerMinute: 0.5 })).toEqual({ currentMonthly: 50, monthlySaving: 20, annualSaving: 240 });
    expect(hotlineRoi({ calls: 10_000, minutes: 30, costPerMinute: 5 })).toEqual({
      currentMonthly: 1_500_000,
      monthlySaving: 600_000,
      annualSaving: 7_200_000,
    });
  });

  it('keeps 0.1 steps free of floating-point noise', () => {
    const value = snapToStep(0.5 + 0.1 + 0.1 + 0.1, hotlineSliders.costPerMinute);
    expect(value).toBe(0.8);
    expect(hotlineRoi({ calls: 100, minutes: 3, costPerMinute: 0.7 }).currentMonthly).toBe(210);
    expect(hotlineRoi({ calls: 300, minutes: 1, costPerMinute: 1.1 }).monthlySaving).toBe(132);
  });
});

describe('secretary calculator', () => {
  it('has the seed bounds and defaults', () => {
    expect(secretarySliders.requests).toMatchObject({ min: 100, max: 5000, initial: 1000 });
    expect(secretarySliders.minutes).toMatchObject({ min: 1, max: 15, initial: 5 });
    expect(secretarySliders.hourlyCost).toMatchObject({ min: 20, max: 50, initial: 30 });
  });

  it('costs requests × minutes / 60 × hourly cost and shows 70 % of it as the saving', () => {
    expect(secretaryRoi(initialValues(secretarySliders))).toEqual({ currentMonthly: 2500, monthlySaving: 1750, annualSaving: 21_000 });
    expect(secretaryRoi({ requests: 100, minutes: 1, hourlyCost: 20 })).toEqual({ currentMonthly: 33.33, monthlySaving: 23.33, annualSaving: 279.96 });
    expect(secretaryRoi({ requests: 5000, minutes: 15, hourlyCost: 50 })).toEqual({ currentMonthly: 62_500, monthlySaving: 43_750, annualSaving: 525_000 });
  });
});

describe('snapToStep', () => {
  it('clamps to the bounds and snaps to the step', () => {
    expect(snapToStep(42, solutionsSliders.employees)).toBe(100);
    expect(snapToStep(99_999, solutionsSliders.employees)).toBe(10_000);
    expect(snapToStep(255, solutionsSliders.costPerDay)).toBe(260);
    expect(snapToStep(4.96, hotlineSliders.costPerMinute)).toBe(5);
  });
});

describe('formatting', () => {
  it('formats euros per language', () => {
    expect(formatEuro(90_000, 'de')).toBe(`90.000${nbsp}€`);
    expect(formatEuro(90_000, 'en')).toBe('€90,000');
    expect(formatEuro(2, 'de', 2)).toBe(`2,00${nbsp}€`);
    expect(formatEuro(0.7, 'en', 2)).toBe('€0.70');
    expect(formatEuro(33.33, 'de', 2)).toBe(`33,33${nbsp}€`);
  });

  it('formats numbers per language', () => {
    expect(formatNumber(10_000, 'de')).toBe('10.000');
    expect(formatNumber(10_000, 'en')).toBe('10,000');
    expect(formatNumber(1.5, 'de', 1)).toBe('1,5');
  });
});
