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

export default function DemoPage() {
  const { t } = useT('demo');
  const { lang } = useLanguage();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <Section title={t('shows.title')}>
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2">
          {t('shows.items', { returnObjects: true }).map((item) => (
            <li key={item.title}>
              <FeatureCard title={item.title} text={item.text} />
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('steps.title')}>
        <StepList steps={t('steps.items', { returnObjects: true })} />
      </Section>
      <Section title={t('live.title')}>
        <p className="max-w-3xl text-slate-700">{t('live.text', { name: persona.name })}</p>
        <Link to={getHref('liveCoach', lang)} className={buttonClass('primary', 'mt-6')}>
          {t('live.cta', { name: persona.name })}
        </Link>
      </Section>
      <Section title={t('booking.title')}>
        <p className="max-w-3xl text-slate-700">{t('booking.text')}</p>
        <BookingLink variant="secondary" className="mt-6" />
      </Section>
      <RelatedLinks title={t('related')} ids={['liveCoach', 'features', 'pricing', 'products']} />
    </>
  );
}
