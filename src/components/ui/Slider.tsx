import * as RadixSlider from '@radix-ui/react-slider';
import { useId } from 'react';

interface SliderProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  /** The value as the visitor reads it, e.g. "250 €" or "0,75". */
  format: (value: number) => string;
  className?: string;
  disabled?: boolean;
}

/** A Radix slider with a visible label and value, operable by keyboard (arrows, Page keys, Home/End). */
export function Slider({ label, value, min, max, step, onChange, format, className = '', disabled = false }: SliderProps) {
  const labelId = useId();
  const shown = format(value);
  return (
    <div className={className}>
      <div className="flex items-baseline justify-between gap-4">
        <span id={labelId} className="text-sm font-medium text-slate-800">
          {label}
        </span>
        <output aria-hidden="true" className="whitespace-nowrap text-sm font-semibold tabular-nums text-brand-800">
          {shown}
        </output>
      </div>
      <RadixSlider.Root
        className="relative mt-3 flex h-6 w-full touch-none select-none items-center"
        value={[value]}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onValueChange={(next) => {
          const [first] = next;
          if (first !== undefined) onChange(first);
        }}
      >
        <RadixSlider.Track className="relative h-2 grow overflow-hidden rounded-full bg-slate-200">
          <RadixSlider.Range className="absolute h-full rounded-full bg-brand-600" />
        </RadixSlider.Track>
        <RadixSlider.Thumb
          aria-labelledby={labelId}
          aria-valuetext={shown}
          className="block h-6 w-6 rounded-full border-2 border-brand-700 bg-white shadow data-[disabled]:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        />
      </RadixSlider.Root>
    </div>
  );
}
