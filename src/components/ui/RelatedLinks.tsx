import { Link } from 'react-router';
import { persona } from '../../config/persona';
import { getHref, type RouteId } from '../../config/routes';
import { useLanguage, useT } from '../../i18n/language';

/** A row of links to neighbouring pages, labelled with the pages' own names. */
export function RelatedLinks({ title, ids }: { title: string; ids: readonly RouteId[] }) {
  const { t } = useT();
  const { lang } = useLanguage();
  return (
    <nav aria-label={title} className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <ul className="mt-4 flex flex-wrap gap-3">
        {ids.map((id) => (
          <li key={id}>
            <Link
              to={getHref(id, lang)}
              className="inline-flex rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:border-brand-600 hover:text-brand-800"
            >
              {t(`links.${id}`, { name: persona.name })}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
