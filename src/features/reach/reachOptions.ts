import type { Lang } from '../../config/routes';
import { formatNumber } from '../../lib/format';

/**
 * How far a mental coach's AI coaching reaches (seed section 3). The multiplier is shown to the
 * visitor but deliberately not applied to any price: all prices are on request.
 */
export const reachOptions = [
  { id: 'national', multiplier: 1 },
  { id: 'international', multiplier: 1.5 },
  { id: 'global', multiplier: 2 },
] as const;

export type ReachOption = (typeof reachOptions)[number];
export type ReachId = ReachOption['id'];

export const defaultReach: ReachId = 'national';

export function reachOption(id: ReachId): ReachOption {
  return reachOptions.find((option) => option.id === id) ?? reachOptions[0];
}

/** "1", "1,5" / "1.5", "2": whole factors without decimals, the others with one. */
export function formatMultiplier(value: number, lang: Lang): string {
  return formatNumber(value, lang, Number.isInteger(value) ? 0 : 1);
}
