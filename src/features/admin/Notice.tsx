import type { ReactNode } from 'react';

export type NoticeTone = 'success' | 'error' | 'info';

const tones: Record<NoticeTone, string> = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-slate-300 bg-slate-50 text-slate-800',
};

/**
 * An inline message instead of a blocking alert(): errors are announced assertively
 * (role="alert"), everything else politely (role="status").
 */
export function Notice({ tone, children, className = '' }: { tone: NoticeTone; children: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-xl border px-4 py-3 text-sm ${tones[tone]} ${className}`}>
      {children}
    </div>
  );
}
