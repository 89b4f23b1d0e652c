import { useId } from 'react';
import { useLanguage } from '../../i18n/language';
import { useT } from '../../i18n/language';
import { useReach } from './ReachContext';
import { formatMultiplier, reachOptions } from './reachOptions';

/**
 * The reach options as native radio buttons in a fieldset: one tab stop, arrow keys move the
 * choice, and screen readers announce "1 of 3". Each radio is named by the option's name only and
 * described by its coverage, description and factor.
 */
export function ReachSelector() {
  const { t } = useT('coachPlans');
  const { lang } = useLanguage();
  const { selected, choose } = useReach();
  const baseId = useId();
  const selectedName = t(`reach.options.${selected.id}.name`);
  return (
    <fieldset>
      <legend className="text-lg font-semibold text-slate-900">{t('reach.legend')}</legend>
      <div className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-3">
        {reachOptions.map((option) => {
          const nameId = `${baseId}-${option.id}-name`;
          const detailsId = `${baseId}-${option.id}-details`;
          return (
            <label
              key={option.id}
              className="flex cursor-pointer gap-3 rounded-2xl border-2 border-slate-200 bg-white p-5 shadow-sm transition-colors hover:border-brand-400 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700"
            >
              <input
                type="radio"
                name={`${baseId}-reach`}
                value={option.id}
                checked={selected.id === option.id}
                onChange={() => choose(option.id)}
                aria-labelledby={nameId}
                aria-describedby={detailsId}
                className="mt-1 h-5 w-5 shrink-0 accent-brand-700 focus-visible:outline-none"
              />
              <span>
                <span id={nameId} className="block text-lg font-semibold text-slate-900">
                  {t(`reach.options.${option.id}.name`)}
                </span>
                <span id={detailsId} className="block">
                  <span className="block font-medium text-slate-800">{t(`reach.options.${option.id}.coverage`)}</span>
                  <span className="mt-1 block text-sm text-slate-700">{t(`reach.options.${option.id}.description`)}</span>
                  <span className="mt-3 block font-semibold text-brand-800">
                    {t('reach.multiplier', { value: formatMultiplier(option.multiplier, lang) })}
                  </span>
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <p className="mt-6 font-semibold text-slate-900" aria-live="polite" data-testid="reach-summary">
        {t('reach.selected', {
          name: selectedName,
          coverage: t(`reach.options.${selected.id}.coverage`),
          value: formatMultiplier(selected.multiplier, lang),
        })}
      </p>
      <p className="mt-2 text-sm text-slate-700">{t('reach.note')}</p>
    </fieldset>
  );
}
