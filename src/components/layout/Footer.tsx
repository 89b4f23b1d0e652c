import { Link } from 'react-router';
import { persona } from '../../config/persona';
import { getHref, type RouteId } from '../../config/routes';
import { site } from '../../config/site';
import { useLanguage, useT } from '../../i18n/language';
import { LogoMark } from './Logo';

const groups = [
  {
    title: 'footer.content',
    links: ['products', 'features', 'demo', 'solutions', 'pricing', 'mentalCoaches', 'coachPlans', 'liveCoach'],
  },
  { title: 'footer.company', links: ['about', 'contact', 'contactCenter', 'hotlines', 'secretary'] },
  { title: 'footer.legal', links: ['imprint', 'privacy', 'transparency'] },
] as const satisfies readonly { title: string; links: readonly RouteId[] }[];

export function Footer({ onOpenContact }: { onOpenContact: () => void }) {
  const { t } = useT();
  const { lang } = useLanguage();

  return (
    <footer className="border-t border-slate-800 bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-5 lg:px-8">
        <div className="lg:col-span-2">
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <LogoMark />
            {site.name}
          </p>
          <p className="mt-4 max-w-sm text-sm leading-6">{t('footer.tagline')}</p>
          <button
            type="button"
            onClick={onOpenContact}
            className="mt-6 inline-flex items-center rounded-full border border-slate-500 px-4 py-2 text-sm font-semibold text-white hover:border-white hover:bg-slate-900"
          >
            {t('footer.contactTrigger')}
          </button>
        </div>
        {groups.map((group) => (
          <nav key={group.title} aria-label={t(group.title)}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{t(group.title)}</h2>
            <ul className="mt-4 space-y-2">
              {group.links.map((id) => (
                <li key={id}>
                  <Link to={getHref(id, lang)} className="text-sm hover:text-white hover:underline">
                    {t(`links.${id}`, { name: persona.name })}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <p>{t('footer.copyright', { year: __BUILD_YEAR__, site: site.name })}</p>
          <p>{t('footer.compliance')}</p>
        </div>
      </div>
    </footer>
  );
}
