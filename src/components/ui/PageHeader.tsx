import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  lead?: string;
  children?: ReactNode;
}

/** The top of every page: its one h1, an introduction and optional calls to action. */
export function PageHeader({ title, lead, children }: PageHeaderProps) {
  return (
    <header className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl lg:text-5xl">{title}</h1>
        {lead ? <p className="mt-4 max-w-3xl text-lg text-slate-700">{lead}</p> : null}
        {children ? <div className="mt-8 flex flex-wrap gap-3">{children}</div> : null}
      </div>
    </header>
  );
}
