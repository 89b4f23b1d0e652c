import { Link } from 'react-router';
import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass } from '../../components/ui/buttonStyles';
import { persona } from '../../config/persona';
import { getHref, type RouteId } from '../../config/routes';
import { ParticleBackground } from '../../features/particles/ParticleBackground';
import { useLanguage, useT } from '../../i18n/language';

const productLinks: readonly RouteId[] = ['contactCenter', 'hotlines', 'secretary', 'mentalCoaches'];

export default function HomePage() {
  const { t } = useT();
  const { lang } = useLanguage();
  return (
    <>
      <section className="relative isolate overflow-hidden bg-brand-950 text-white">
        <ParticleBackground className="absolute inset-0 -z-10 h-full w-full" />
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6 sm:py-28 lg:px-8 lg:py-36">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-200">{t('home.eyebrow')}</p>
          <h1 className="mt-4 max-w-4xl text-3xl font-extrabold tracking-tight [overflow-wrap:break-word] sm:text-5xl lg:text-6xl">
            {t('home.headline')}
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-brand-100">{t('home.lead')}</p>
          <div className="mt-10 flex flex-wrap gap-3">
            <BookingLink variant="inverse" />
            <Link
              to={getHref('products', lang)}
              className={buttonClass('ghost', 'border border-white/60 text-white hover:bg-white/10')}
            >
              {t('home.secondaryCta')}
            </Link>
          </div>
        </div>
      </section>
      <nav aria-label={t('links.products')} className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {productLinks.map((id) => (
            <li key={id}>
              <Link
                to={getHref(id, lang)}
                className="block h-full rounded-2xl border border-slate-200 p-6 text-lg font-semibold text-slate-900 shadow-sm hover:border-brand-600 hover:shadow-md"
              >
                {t(`links.${id}`)}
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to={getHref('liveCoach', lang)} className="font-semibold text-brand-800 underline underline-offset-4">
            {t('home.coachCta', { name: persona.name })}
          </Link>
        </p>
      </nav>
    </>
  );
}
