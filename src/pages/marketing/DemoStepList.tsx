/** Numbered steps of a process; the numbers come from the ordered list, the circles are decoration. */
export function StepList({ steps }: { steps: readonly { title: string; text: string }[] }) {
  return (
    <ol className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {steps.map((step, index) => (
        <li key={step.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <span
            aria-hidden="true"
            className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white"
          >
            {index + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
          <p className="mt-2 text-slate-700">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}
