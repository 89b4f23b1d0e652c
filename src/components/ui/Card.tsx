import type { ReactNode } from 'react';
import { useLanguage } from '../../i18n/language';

/** A bordered panel; the base of feature, stat, plan and story cards. */
export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-2xl border border-slate-200 bg-white p-6 shadow-sm ${className}`}>{children}</div>;
}

/** A big figure with its label, e.g. "95 %" – "Kundenzufriedenheit". Figures are plain text. */
export function StatCard({ value, label, description }: { value: string; label: string; description?: string }) {
  return (
    <Card className="text-center">
      <p className="text-4xl font-extrabold tracking-tight text-brand-700">{value}</p>
      <p className="mt-2 font-semibold text-slate-900">{label}</p>
      {description ? <p className="mt-1 text-sm text-slate-700">{description}</p> : null}
    </Card>
  );
}

/** A titled card with a text and optional extra content (lists, figures, buttons). */
export function FeatureCard({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <Card className="flex h-full flex-col">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      <p className="mt-2 text-slate-700">{text}</p>
      {children ? <div className="mt-4 flex flex-1 flex-col">{children}</div> : null}
    </Card>
  );
}

/** A list with check marks, for benefits and plan features. */
export function CheckList({ items, className = '' }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={`space-y-2 ${className}`}>
      {items.map((item) => (
        <li key={item} className="flex gap-2 text-slate-800">
          <svg viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0 text-emerald-700" aria-hidden="true" focusable="false">
            <path d="M5 10.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

const quoteMarks = { de: ['„', '“'], en: ['“', '”'] } as const;

/** A customer quote with its source, in the quotation marks of the page's language. */
export function Testimonial({ quote, name, role }: { quote: string; name: string; role: string }) {
  const [open, close] = quoteMarks[useLanguage().lang];
  return (
    <figure className="h-full rounded-2xl bg-brand-50 p-6">
      <blockquote className="text-lg text-slate-900">
        {open}
        {quote}
        {close}
      </blockquote>
      <figcaption className="mt-4 text-sm">
        <span className="font-semibold text-slate-900">{name}</span>
        <span className="text-slate-700"> · {role}</span>
      </figcaption>
    </figure>
  );
}
