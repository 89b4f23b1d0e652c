import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';
import { coachTexts } from './texts';

/** "Freihändig sprechen": the coach listens again by itself and can be interrupted by voice. */
export function HandsFreeSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="flex max-w-md items-start gap-3 text-left">
      <Switch.Root
        id={id}
        checked={on}
        onCheckedChange={onChange}
        aria-describedby={hintId}
        className="relative mt-0.5 h-6 w-11 shrink-0 rounded-full bg-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=checked]:bg-brand-700"
      >
        <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </Switch.Root>
      <div>
        <label htmlFor={id} className="font-medium text-slate-900">
          {coachTexts.handsFree.label}
        </label>
        <p id={hintId} className="text-sm text-slate-700">
          {coachTexts.handsFree.hint}
        </p>
      </div>
    </div>
  );
}
