import { useId, type ReactNode } from 'react';
import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass, type ButtonVariant } from '../../components/ui/buttonStyles';
import { Card, CheckList, FeatureCard, StatCard, Testimonial } from '../../components/ui/Card';
import { useContact } from '../../features/contact/ContactContext';

/**
 * The building blocks of the three product pages (AI Contact Center, AI Hotlines, AI Secretary).
 * Presentational only: the pages pass in their own words, so each page ships just its namespace.
 */

/** Opens the site's contact modal with the product in the e-mail subject. */
export function ProductContactButton({
  product,
  label,
  variant = 'secondary',
  className = '',
}: {
  product: string;
  label: string;
  variant?: ButtonVariant;
  className?: string;
}) {
  const { open } = useContact();
  return (
    <button type="button" className={buttonClass(variant, className)} onClick={() => open(product)}>
      {label}
    </button>
  );
}

/** The two calls to action every product page offers: book a callback, or write to us. */
export function ProductActions({ product, contactLabel }: { product: string; contactLabel: string }) {
  return (
    <>
      <BookingLink />
      <ProductContactButton product={product} label={contactLabel} />
    </>
  );
}

/** A short introduction under a section's heading. */
export function ProductIntro({ children }: { children: ReactNode }) {
  return <p className="mb-8 max-w-3xl text-lg text-slate-700">{children}</p>;
}

/** Key figures as stat cards; the figures are plain text from the copy, never computed. */
export function ProductStats({ items }: { items: readonly { value: string; label: string; description: string }[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {items.map((item) => (
        <li key={item.label} className="[&>div]:h-full">
          <StatCard value={item.value} label={item.label} description={item.description} />
        </li>
      ))}
    </ul>
  );
}

/**
 * Feature (or integration) cards, one column on phones, up to three side by side. A long German
 * compound wraps inside its card (min-w-0, break-words) instead of widening the column.
 */
export function ProductFeatures({ items }: { items: readonly { title: string; text: string }[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => (
        <li key={item.title} className="min-w-0 break-words">
          <FeatureCard title={item.title} text={item.text} />
        </li>
      ))}
    </ul>
  );
}

/** Benefit lists side by side, e.g. for customers and for the business. */
export function ProductBenefits({ groups }: { groups: readonly { title: string; items: readonly string[] }[] }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {groups.map((group) => (
        <Card key={group.title}>
          <h3 className="text-lg font-semibold text-slate-900">{group.title}</h3>
          <CheckList items={group.items} className="mt-4" />
        </Card>
      ))}
    </div>
  );
}

/** Technical requirements and facts as a definition list. */
export function ProductSpecs({ items }: { items: readonly { label: string; value: string }[] }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.label} className="rounded-2xl border border-slate-200 bg-white p-5">
          <dt className="text-sm font-semibold uppercase tracking-wide text-brand-800">{item.label}</dt>
          <dd className="mt-1 text-slate-800">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Customer quotes, side by side from tablet width. */
export function ProductTestimonials({ items }: { items: readonly { quote: string; name: string; role: string }[] }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {items.map((item) => (
        <li key={item.name}>
          <Testimonial quote={item.quote} name={item.name} role={item.role} />
        </li>
      ))}
    </ul>
  );
}

/** A calculator (it brings its own heading) at the page's standard width. */
export function ProductCalculator({ children }: { children: ReactNode }) {
  return <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">{children}</div>;
}

/** The closing call to action: a dark band with the booking link and the contact button. */
export function ProductCta({
  title,
  text,
  product,
  contactLabel,
}: {
  title: string;
  text: string;
  product: string;
  contactLabel: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <div className="rounded-3xl bg-brand-900 px-6 py-10 text-white sm:px-10 sm:py-12">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight sm:text-3xl">
          {title}
        </h2>
        <p className="mt-3 max-w-3xl text-lg text-brand-100">{text}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <BookingLink variant="inverse" />
          <ProductContactButton
            product={product}
            label={contactLabel}
            variant="ghost"
            className="border border-white/70 text-white hover:bg-white/10 focus-visible:outline-white"
          />
        </div>
      </div>
    </section>
  );
}
