import { Link } from 'react-router';
import { persona } from '../../config/persona';
import { getHref, type RouteId } from '../../config/routes';
import { useLanguage, useT } from '../../i18n/language';

/**
 * A card for one product page. The heading's link covers the whole card (a stretched link), so
 * the card is one click target and one tab stop, named by the page's name.
 */
export function ProductCard({ id, text }: { id: RouteId; text: string }) {
  const { t } = useT();
  const { lang } = useLanguage();
  return (
    <div className="relative flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:border-brand-600 hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-brand-700">
      <h3 className="text-lg font-semibold text-slate-900">
        <Link to={getHref(id, lang)} className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none">
          {t(`links.${id}`, { name: persona.name })}
        </Link>
      </h3>
      <p className="mt-2 flex-1 text-slate-700">{text}</p>
      <span aria-hidden="true" className="mt-4 font-semibold text-brand-800">
        →
      </span>
    </div>
  );
}
