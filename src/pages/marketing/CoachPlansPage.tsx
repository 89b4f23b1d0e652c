import { BookingLink } from '../../components/ui/BookingLink';
import { ComparisonTable } from '../../components/ui/ComparisonTable';
import { Faq } from '../../components/ui/Faq';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { persona } from '../../config/persona';
import { ReachProvider } from '../../features/reach/ReachContext';
import { ReachSelector } from '../../features/reach/ReachSelector';
import { useT } from '../../i18n/language';
import { CoachPlanCards } from './CoachPlansOffers';

/** Which plan has which feature: Portal, White-Label Solution. */
const comparison = [
  ['aiCoach', true, true],
  ['voiceText', true, true],
  ['knowledge', true, true],
  ['reach', true, true],
  ['ownBrand', false, true],
  ['ownDomain', false, true],
  ['customVoice', false, true],
  ['embed', false, true],
] as const;

export default function CoachPlansPage() {
  const { t } = useT('coachPlans');
  const faq = t('faq.items', { returnObjects: true, name: persona.name });
  const onRequest = t('comparison.onRequest');
  return (
    <ReachProvider>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <Section title={t('reach.title')}>
        <p className="mb-6 max-w-3xl text-slate-700">{t('reach.intro')}</p>
        <ReachSelector />
      </Section>
      <Section title={t('plans.title')}>
        <p className="mb-6 max-w-3xl text-slate-700">{t('plans.intro')}</p>
        <CoachPlanCards />
      </Section>
      <Section title={t('comparison.title')}>
        {/* The table's spoken yes/no labels are absolutely positioned; this box keeps them from
            widening the page on phones (the table's own scroll box is not positioned). */}
        <div className="relative -m-1 overflow-hidden p-1">
          <ComparisonTable
            caption={t('comparison.caption')}
            columns={[t('comparison.feature'), t('plans.portal.name'), t('plans.whiteLabel.name')]}
            rows={[
              ...comparison.map(([key, portal, whiteLabel]) => ({
                label: t(`comparison.rows.${key}`),
                values: [portal, whiteLabel],
              })),
              { label: t('comparison.rows.price'), values: [onRequest, onRequest] },
            ]}
          />
        </div>
      </Section>
      <Section title={t('faq.title')}>
        <Faq items={faq} />
      </Section>
      <Section title={t('cta.title')}>
        <p className="max-w-3xl text-slate-700">{t('cta.text')}</p>
        <BookingLink className="mt-6" />
      </Section>
      <RelatedLinks title={t('related')} ids={['mentalCoaches', 'liveCoach', 'pricing', 'products']} />
    </ReachProvider>
  );
}
