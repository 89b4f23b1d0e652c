import { createIsland } from '../../components/island';
import { loadNamespaces } from '../../i18n';

const placeholder = <div className="min-h-[36rem] rounded-3xl border border-slate-200" aria-hidden="true" />;

async function calculators() {
  const [module] = await Promise.all([import('./calculators'), loadNamespaces(['roi'])]);
  return module;
}

/** The ROI calculators, hydrated after the rest of the page (see createIsland). */
export const SolutionsRoi = createIsland(async () => (await calculators()).SolutionsRoiCalculator, placeholder);
export const HotlineRoi = createIsland(async () => (await calculators()).HotlineRoiCalculator, placeholder);
export const SecretaryRoi = createIsland(async () => (await calculators()).SecretaryRoiCalculator, placeholder);
