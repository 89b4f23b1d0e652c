import { useId, type ReactNode } from 'react';
import { Slider } from '../../components/ui/Slider';
import type { SliderSpec } from '../../lib/roi';

export interface RoiSlider {
  key: string;
  label: string;
  spec: SliderSpec;
  value: number;
  onChange: (value: number) => void;
  format: (value: number) => string;
}

export interface RoiResult {
  label: string;
  value: string;
  emphasis?: boolean;
}

interface RoiCalculatorProps {
  title: string;
  intro: string;
  note: string;
  sliders: readonly RoiSlider[];
  results: readonly RoiResult[];
  children?: ReactNode;
}

/** Sliders on one side, the figures they produce on the other. */
export function RoiCalculator({ title, intro, note, sliders, results, children }: RoiCalculatorProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-3xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h2 id={titleId} className="text-2xl font-bold tracking-tight text-slate-900">
        {title}
      </h2>
      <p className="mt-2 text-slate-700">{intro}</p>
      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        <div className="space-y-6">
          {sliders.map((slider) => (
            <Slider
              key={slider.key}
              label={slider.label}
              value={slider.value}
              min={slider.spec.min}
              max={slider.spec.max}
              step={slider.spec.step}
              onChange={slider.onChange}
              format={slider.format}
            />
          ))}
        </div>
        <dl className="grid content-start gap-4">
          {results.map((result) => (
            <div
              key={result.label}
              className={`rounded-2xl p-5 ${result.emphasis ? 'bg-brand-900 text-white' : 'bg-slate-50 text-slate-900'}`}
            >
              <dt className={`text-sm font-medium ${result.emphasis ? 'text-brand-100' : 'text-slate-700'}`}>{result.label}</dt>
              <dd className="mt-1 text-3xl font-extrabold tabular-nums" data-testid="roi-result">
                {result.value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      <p className="mt-6 text-sm text-slate-700">{note}</p>
      {children}
    </section>
  );
}
