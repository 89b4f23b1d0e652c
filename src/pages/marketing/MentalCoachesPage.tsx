import { Link } from 'react-router';
import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass } from '../../components/ui/buttonStyles';
import { FeatureCard } from '../../components/ui/Card';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { persona } from '../../config/persona';
import { getHref } from '../../config/routes';
import { useLanguage } from '../../i18n/language';
import { useT } from '../../i18n/language';
import { StepList } from '../../components/ui/StepList';

const audiences = ['forCoaches', 'forClients'] as const;

export default function MentalCoachesPage() {
  const { t } = useT('mentalCoaches');
  const { lang } = useLanguage();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      {audiences.map((audience) => (
        <Section key={audience} title={t(`${audience}.title`)}>
          <ul className="grid grid-cols-1 gap-6 md:grid-cols-3">
            {t(`${audience}.items`, { returnObjects: true }).map((item) => (
              <li key={item.title}>
                <FeatureCard title={item.title} text={item.text} />
              </li>
            ))}
          </ul>
        </Section>
      ))}
      <Section title={t('howItWorks.title')}>
        <StepList steps={t('howItWorks.steps', { returnObjects: true })} />
      </Section>
      <Section title={t('next.title')}>
        <p className="max-w-3xl text-slate-700">{t('next.text', { name: persona.name })}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to={getHref('liveCoach', lang)} className={buttonClass('primary')}>
            {t('next.liveCta', { name: persona.name })}
          </Link>
          <Link to={getHref('coachPlans', lang)} className={buttonClass('secondary')}>
            {t('next.plansCta')}
          </Link>
        </div>
      </Section>
      <RelatedLinks title={t('related')} ids={['coachPlans', 'liveCoach', 'solutions', 'products']} />
    </>
  );
}
