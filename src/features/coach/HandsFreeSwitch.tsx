import { useId } from 'react';
import { coachTexts } from './texts';

/**
 * "Freihändig sprechen": the coach listens again by itself and can be interrupted by voice. A plain
 * button with the switch role (aria-checked, Space and Enter toggle it as for any button): the coach
 * page keeps its first download small, so no switch library is loaded for it.
 */
export function HandsFreeSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="flex max-w-md items-start gap-3 text-left">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={on}
        aria-describedby={hintId}
        onClick={() => onChange(!on)}
        className={`relative mt-0.5 h-6 w-11 shrink-0 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${on ? 'bg-brand-700' : 'bg-slate-400'}`}
      >
        <span
          aria-hidden="true"
          className={`block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-[1.375rem]' : 'translate-x-0.5'}`}
        />
      </button>
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
