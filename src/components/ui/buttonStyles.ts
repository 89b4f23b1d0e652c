export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'inverse';

const base =
  'inline-flex items-center justify-center gap-2 rounded-full px-5 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 focus-visible:outline-brand-700',
  secondary:
    'border border-brand-700 bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-brand-700',
  ghost: 'text-slate-800 hover:bg-slate-100 focus-visible:outline-brand-700',
  inverse: 'bg-white text-brand-900 hover:bg-brand-100 focus-visible:outline-white',
};

/** One source for button looks, shared by <button>, router links and external links. */
export function buttonClass(variant: ButtonVariant = 'primary', extra = ''): string {
  return `${base} ${variants[variant]} ${extra}`.trim();
}
