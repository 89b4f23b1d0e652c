import { Component, type ReactNode } from 'react';
import { buttonClass } from '../components/ui/buttonStyles';
import type { Lang } from '../config/routes';

const texts = {
  de: {
    title: 'Etwas ist schiefgelaufen.',
    body: 'Diese Seite konnte nicht geladen werden. Bitte laden Sie die Seite neu.',
    reload: 'Seite neu laden',
  },
  en: {
    title: 'Something went wrong.',
    body: 'This page could not be loaded. Please reload the page.',
    reload: 'Reload page',
  },
} as const;

interface Props {
  lang: Lang;
  children: ReactNode;
}

/**
 * Catches a page that fails to load or render (for example a chunk that vanished with a new
 * deployment) and shows a plain message inside the layout: never a blank page or a stack trace.
 * The layout keys it by path, so moving to another page starts afresh.
 */
export class PageErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const text = texts[this.props.lang];
    return (
      <div className="mx-auto max-w-3xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold text-slate-900">{text.title}</h1>
        <p className="mt-4 text-slate-700">{text.body}</p>
        <button type="button" onClick={() => window.location.reload()} className={buttonClass('primary', 'mt-8')}>
          {text.reload}
        </button>
      </div>
    );
  }
}
