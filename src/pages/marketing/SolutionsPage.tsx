import { BookingLink } from '../../components/ui/BookingLink';
import { Card, CheckList } from '../../components/ui/Card';
import { ComparisonTable } from '../../components/ui/ComparisonTable';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { SolutionsRoi } from '../../features/roi/islands';
import { useT } from '../../i18n/language';
import { SuccessStory } from './SolutionsSuccessStory';

const offers = ['mentalHealth', 'communication'] as const;

export default function SolutionsPage() {
  const { t } = useT('solutions');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <Section title={t('enterprise.title')}>
        <p className="max-w-3xl text-slate-700">{t('enterprise.intro')}</p>
        <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2">
          {offers.map((offer) => (
            <Card key={offer} className="h-full">
              <h3 className="break-words text-lg font-semibold text-slate-900 hyphens-auto sm:text-xl">{t(`enterprise.${offer}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`enterprise.${offer}.text`)}</p>
              <CheckList items={t(`enterprise.${offer}.items`, { returnObjects: true })} className="mt-4" />
            </Card>
          ))}
        </div>
      </Section>
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
        <SolutionsRoi />
      </div>
      <Section title={t('comparison.title')}>
        <ComparisonTable
          caption={t('comparison.caption')}
          columns={[t('comparison.criterion'), t('comparison.ours'), t('comparison.traditional')]}
          rows={t('comparison.rows', { returnObjects: true }).map((row) => ({
            label: row.label,
            values: [row.ours, row.traditional],
          }))}
        />
      </Section>
      <Section title={t('stories.title')}>
        <ul className="grid grid-cols-1 gap-6 md:grid-cols-2">
          {t('stories.items', { returnObjects: true }).map((story) => (
            <li key={story.title}>
              <SuccessStory {...story} />
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('cta.title')}>
        <p className="max-w-3xl text-slate-700">{t('cta.text')}</p>
        <BookingLink className="mt-6" />
      </Section>
      <RelatedLinks title={t('related')} ids={['features', 'pricing', 'mentalCoaches', 'products']} />
    </>
  );
}
