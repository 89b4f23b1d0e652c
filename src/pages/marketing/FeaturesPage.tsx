import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass } from '../../components/ui/buttonStyles';
import { CheckList, FeatureCard } from '../../components/ui/Card';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { useT } from '../../i18n/language';

export default function FeaturesPage() {
  const { t } = useT('features');
  const categories = t('categories', { returnObjects: true });
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      {categories.map((category) => (
        <Section key={category.title} title={category.title}>
          <p className="max-w-3xl text-slate-700">{category.intro}</p>
          <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2">
            {category.items.map((item) => (
              <FeatureCard key={item.title} title={item.title} text={item.description}>
                <p className="font-semibold text-slate-900">{t('benefits')}</p>
                <CheckList items={item.benefits} className="mt-3" />
                <div className="mt-auto pt-6">
                  <p className="rounded-xl bg-brand-50 p-4">
                    <span className="sr-only">{t('statLabel')}: </span>
                    <span className="block text-3xl font-extrabold tracking-tight text-brand-800">{item.stat}</span>
                    <span className="mt-1 block text-sm text-slate-800">{item.statText}</span>
                  </p>
                  {/* The seed keeps the demos for later: the button is there, visibly not yet usable. */}
                  <button type="button" disabled className={buttonClass('secondary', 'mt-6')}>
                    {t('demo')}
                  </button>
                </div>
              </FeatureCard>
            ))}
          </div>
        </Section>
      ))}
      <RelatedLinks title={t('related')} ids={['demo', 'solutions', 'pricing', 'products']} />
    </>
  );
}
