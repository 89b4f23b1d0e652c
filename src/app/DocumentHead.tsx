import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useLanguage } from '../i18n/language';
import { headFor } from './head';

function upsert(selector: string, create: () => HTMLElement): HTMLElement {
  return document.head.querySelector<HTMLElement>(selector) ?? document.head.appendChild(create());
}

/** Keeps <head> in step with client-side navigation; the prerenderer wrote the first one. */
export function DocumentHead() {
  const { pathname } = useLocation();
  const { lang } = useLanguage();

  useEffect(() => {
    const head = headFor(pathname, lang);
    document.title = head.title;
    upsert('meta[name="description"]', () => Object.assign(document.createElement('meta'), { name: 'description' })).setAttribute(
      'content',
      head.description,
    );

    document.head.querySelector('meta[name="robots"]')?.remove();
    if (head.robots) {
      const robots = Object.assign(document.createElement('meta'), { name: 'robots', content: head.robots });
      document.head.appendChild(robots);
    }

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
  }, [pathname, lang]);

  return null;
}
