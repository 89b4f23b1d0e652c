import type { ReactNode } from 'react';
import { BookingLink } from '../../components/ui/BookingLink';
import { Card } from '../../components/ui/Card';
import { Faq } from '../../components/ui/Faq';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { site } from '../../config/site';
import { useT } from '../../i18n/language';
import { PlanCards } from './PricingPlanCard';

const plans = ['basic', 'professional'] as const;
const linkClass = 'mt-4 inline-block break-all font-semibold text-brand-800 underline underline-offset-4 hover:text-brand-900';

/** The three ways to ask for a price, each with its own action. */
const ways: readonly { key: 'phone' | 'email' | 'booking'; action: ReactNode }[] = [
  {
    key: 'phone',
    action: (
      <a className={linkClass} href={`tel:${site.contactPhone.replace(/\s+/g, '')}`}>
        {site.contactPhone}
      </a>
    ),
  },
  {
    key: 'email',
    action: (
      <a className={linkClass} href={`mailto:${site.contactEmail}`}>
        {site.contactEmail}
      </a>
    ),
  },
  { key: 'booking', action: <BookingLink variant="secondary" className="mt-4" /> },
];

export default function PricingPage() {
  const { t } = useT('pricing');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <Section title={t('onRequest.title')}>
        <p className="max-w-3xl text-slate-700">{t('onRequest.text')}</p>
        <ul className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-3">
          {ways.map((way) => (
            <li key={way.key}>
              <Card className="h-full">
                <h3 className="text-lg font-semibold text-slate-900">{t(`onRequest.${way.key}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`onRequest.${way.key}.text`)}</p>
                {way.action}
              </Card>
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('plans.title')}>
        <p className="mb-6 max-w-3xl text-slate-700">{t('plans.intro')}</p>
        <PlanCards
          priceLabel={t('plans.priceLabel')}
          plans={plans.map((key) => {
            const plan = t(`plans.${key}`, { returnObjects: true });
            return { ...plan, product: t('plans.product', { name: plan.name }) };
          })}
        />
      </Section>
      <Section title={t('faq.title')}>
        <Faq items={t('faq.items', { returnObjects: true })} />
      </Section>
      <RelatedLinks title={t('related')} ids={['features', 'solutions', 'contact', 'products']} />
    </>
  );
}
