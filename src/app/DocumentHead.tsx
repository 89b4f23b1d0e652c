import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { loadNamespaces } from '../i18n';
import { useLanguage } from '../i18n/language';
import { headFor, type HeadData } from './head';

function upsertMeta(name: string, content: string | null) {
  const existing = document.head.querySelector(`meta[name="${name}"]`);
  if (content === null) {
    existing?.remove();
    return;
  }
  const meta = existing ?? document.head.appendChild(Object.assign(document.createElement('meta'), { name }));
  meta.setAttribute('content', content);
}

function applyHead(head: HeadData) {
  document.title = head.title;
  upsertMeta('description', head.description);
  upsertMeta('robots', head.robots);
  document.head.querySelector('link[rel="canonical"]')?.remove();
  if (head.canonical) {
    document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'canonical', href: head.canonical }));
  }
  document.head.querySelectorAll('link[rel="alternate"][hreflang]').forEach((link) => link.remove());
  for (const alt of head.alternates) {
    const link = Object.assign(document.createElement('link'), { rel: 'alternate', href: alt.href });
    link.setAttribute('hreflang', alt.hreflang);
    document.head.appendChild(link);
  }
}

// A prerendered page arrives with the right head; only later changes need the titles.
let headIsCurrent = typeof document !== 'undefined' && document.head.querySelector('meta[name="description"]') !== null;
let firstHead: string | null = null;

/** Keeps <head> in step with client-side navigation and language changes. */
export function DocumentHead() {
  const { pathname } = useLocation();
  const { lang } = useLanguage();

  useEffect(() => {
    const key = `${lang} ${pathname}`;
    firstHead ??= key;
    if (headIsCurrent && key === firstHead) return;
    headIsCurrent = false;
    let cancelled = false;
    void loadNamespaces(['meta']).then(() => {
      if (!cancelled) applyHead(headFor(pathname, lang));
    });
    return () => {
      cancelled = true;
    };
  }, [pathname, lang]);

  return null;
}
