import * as RadixSwitch from '@radix-ui/react-switch';
import { useId } from 'react';

interface SwitchProps {
  label: string;
  /** A sentence under the label that says what the switch does (its accessible description). */
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** A Radix switch with its label and hint beside it; Space toggles it, as for any switch. */
export function Switch({ label, hint, checked, onChange, disabled = false }: SwitchProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="flex items-start gap-3">
      <RadixSwitch.Root
        id={id}
        checked={checked}
        disabled={disabled}
        aria-describedby={hintId}
        onCheckedChange={onChange}
        className="relative mt-0.5 h-6 w-11 shrink-0 rounded-full bg-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 data-[state=checked]:bg-brand-700"
      >
        <RadixSwitch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </RadixSwitch.Root>
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <p id={hintId} className="text-sm text-slate-700">
          {hint}
        </p>
      </div>
    </div>
  );
}
