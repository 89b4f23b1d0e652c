import { useId, type ReactNode } from 'react';

/** A page section with a labelled heading and the page's standard width. */
export function Section({
  id,
  title,
  children,
  className = '',
}: {
  id?: string;
  title?: string;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <section
      id={id}
      aria-labelledby={title ? headingId : undefined}
      className={`mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8 ${className}`}
    >
      {title ? (
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {title}
        </h2>
      ) : null}
      <div className={title ? 'mt-6' : ''}>{children}</div>
    </section>
  );
}
