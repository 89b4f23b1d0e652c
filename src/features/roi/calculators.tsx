import { useState } from 'react';
import { useLanguage } from '../../i18n/language';
import { useT } from '../../i18n/language';
import { formatEuro, formatNumber } from '../../lib/format';
import {
  hotlineRoi,
  hotlineSliders,
  initialValues,
  secretaryRoi,
  secretarySliders,
  snapToStep,
  solutionsAnnualSaving,
  solutionsSliders,
  type SliderSpec,
} from '../../lib/roi';
import { RoiCalculator, type RoiSlider } from './RoiCalculator';

/** Slider state for one calculator: every change is snapped to its step, so 0.1 steps stay exact. */
function useSliderValues<K extends string>(specs: Record<K, SliderSpec>) {
  const [values, setValues] = useState<Record<K, number>>(() => initialValues(specs));
  const bind = (key: K, label: string, format: (value: number) => string): RoiSlider => ({
    key,
    label,
    spec: specs[key],
    value: values[key],
    onChange: (value) => setValues((current) => ({ ...current, [key]: snapToStep(value, specs[key]) })),
    format,
  });
  return { values, bind };
}

/** Solutions page: what 30 % fewer sick days save a year. */
export function SolutionsRoiCalculator() {
  const { t } = useT('roi');
  const { lang } = useLanguage();
  const { values, bind } = useSliderValues(solutionsSliders);
  return (
    <RoiCalculator
      title={t('solutions.title')}
      intro={t('solutions.intro')}
      note={t('solutions.note')}
      sliders={[
        bind('employees', t('solutions.employees'), (v) => formatNumber(v, lang)),
        bind('sickDays', t('solutions.sickDays'), (v) => formatNumber(v, lang)),
        bind('costPerDay', t('solutions.costPerDay'), (v) => formatEuro(v, lang)),
      ]}
      results={[{ label: t('solutions.result'), value: formatEuro(solutionsAnnualSaving(values), lang), emphasis: true }]}
    />
  );
}

/** AI Hotlines: today's monthly call cost and the 40 % saved. */
export function HotlineRoiCalculator() {
  const { t } = useT('roi');
  const { lang } = useLanguage();
  const { values, bind } = useSliderValues(hotlineSliders);
  const roi = hotlineRoi(values);
  return (
    <RoiCalculator
      title={t('hotlines.title')}
      intro={t('hotlines.intro')}
      note={t('hotlines.note')}
      sliders={[
        bind('calls', t('hotlines.calls'), (v) => formatNumber(v, lang)),
        bind('minutes', t('hotlines.minutes'), (v) => t('minutes', { value: formatNumber(v, lang) })),
        bind('costPerMinute', t('hotlines.costPerMinute'), (v) => formatEuro(v, lang, 2)),
      ]}
      results={[
        { label: t('hotlines.current'), value: formatEuro(roi.currentMonthly, lang) },
        { label: t('hotlines.saving'), value: formatEuro(roi.monthlySaving, lang), emphasis: true },
        { label: t('hotlines.annual'), value: formatEuro(roi.annualSaving, lang) },
      ]}
    />
  );
}

/** AI Secretary: today's monthly handling cost and the 70 % saving. */
export function SecretaryRoiCalculator() {
  const { t } = useT('roi');
  const { lang } = useLanguage();
  const { values, bind } = useSliderValues(secretarySliders);
  const roi = secretaryRoi(values);
  return (
    <RoiCalculator
      title={t('secretary.title')}
      intro={t('secretary.intro')}
      note={t('secretary.note')}
      sliders={[
        bind('requests', t('secretary.requests'), (v) => formatNumber(v, lang)),
        bind('minutes', t('secretary.minutes'), (v) => t('minutes', { value: formatNumber(v, lang) })),
        bind('hourlyCost', t('secretary.hourlyCost'), (v) => formatEuro(v, lang)),
      ]}
      results={[
        { label: t('secretary.current'), value: formatEuro(roi.currentMonthly, lang) },
        { label: t('secretary.saving'), value: formatEuro(roi.monthlySaving, lang), emphasis: true },
        { label: t('secretary.annual'), value: formatEuro(roi.annualSaving, lang) },
      ]}
    />
  );
}
