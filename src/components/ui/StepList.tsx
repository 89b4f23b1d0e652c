import { Card } from './Card';

export interface Step {
  title: string;
  text: string;
  /** A time frame shown beside the number, e.g. "Woche 1–2". */
  time?: string;
}

/** Numbered steps of a process; the numbers come from the ordered list, the circles are decoration. */
export function StepList({ steps }: { steps: readonly Step[] }) {
  return (
    <ol className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {steps.map((step, index) => (
        <li key={step.title}>
          <Card className="h-full">
            <div className="flex items-center gap-3">
              <span
                aria-hidden="true"
                className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
              >
                {index + 1}
              </span>
              {step.time ? (
                <p className="text-sm font-semibold uppercase tracking-wide text-brand-800">{step.time}</p>
              ) : null}
            </div>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
            <p className="mt-2 text-slate-700">{step.text}</p>
          </Card>
        </li>
      ))}
    </ol>
  );
}
