import { persona } from '../config/persona';
import { getHref, matchPath, routes, type Lang, type RouteId } from '../config/routes';
import { site } from '../config/site';
import { fixedT } from '../i18n';

export interface HeadData {
  readonly lang: Lang;
  readonly title: string;
  readonly description: string;
  readonly canonical: string | null;
  readonly alternates: readonly { hreflang: string; href: string }[];
  readonly robots: string | null;
}

const absolute = (path: string) => `${site.url}${path === '/' ? '/' : path}`;

/**
 * Title, description, canonical and hreflang links of a path, in the language it renders. Needs
 * the `meta` namespace loaded (the prerenderer loads everything; the browser loads it on the first
 * client-side change of page or language).
 */
export function headFor(pathname: string, lang: Lang): HeadData {
  const match = matchPath(pathname);
  const id: RouteId | 'notFound' = match?.id ?? 'notFound';
  const t = fixedT(lang, 'meta');
  const vars = { site: site.name, name: persona.name };
  const title = t(`${id}.title`, vars);
  const description = t(`${id}.description`, vars);

  if (!match) {
    return { lang, title, description, canonical: null, alternates: [], robots: 'noindex' };
  }
  const route = routes[match.id];
  const admin = route.kind === 'admin';
  const own = getHref(match.id, match.boundLang ?? 'de');
  const alternates =
    admin
      ? []
      : 'en' in route.paths
        ? [
            { hreflang: 'de', href: absolute(getHref(match.id, 'de')) },
            { hreflang: 'en', href: absolute(getHref(match.id, 'en')) },
            { hreflang: 'x-default', href: absolute(getHref(match.id, 'de')) },
          ]
        : [
            { hreflang: 'de', href: absolute(own) },
            { hreflang: 'x-default', href: absolute(own) },
          ];
  return {
    lang,
    title,
    description,
    canonical: admin ? null : absolute(own),
    alternates,
    robots: admin ? 'noindex' : null,
  };
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The head tags as HTML, for the prerenderer. */
export function renderHeadTags(head: HeadData): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
  ];
  if (head.robots) tags.push(`<meta name="robots" content="${escapeHtml(head.robots)}" />`);
  if (head.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`);
  for (const alt of head.alternates) {
    tags.push(`<link rel="alternate" hreflang="${alt.hreflang}" href="${escapeHtml(alt.href)}" />`);
  }
  return tags.join('\n    ');
}
