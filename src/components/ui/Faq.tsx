/**
 * Questions as native disclosures (<details>/<summary>): keyboard operable (Enter/Space), announced
 * as expandable by screen readers, and working before any script has loaded.
 */
export function Faq({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200">
      {items.map((item) => (
        <details key={item.question} className="group p-5">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            {item.question}
            <svg viewBox="0 0 20 20" className="h-5 w-5 shrink-0 transition-transform group-open:rotate-180" aria-hidden="true" focusable="false">
              <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </summary>
          <p className="mt-3 text-slate-700">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}
