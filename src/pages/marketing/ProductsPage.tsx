import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { useT } from '../../i18n/language';
import { ProductCard } from './ProductsCard';

/** Every product page (and the live coach), grouped as a visitor looks for them. */
const groups = [
  { id: 'voice', pages: ['contactCenter', 'hotlines', 'secretary'] },
  { id: 'coaching', pages: ['mentalCoaches', 'coachPlans', 'liveCoach'] },
  { id: 'explore', pages: ['features', 'solutions', 'pricing', 'demo'] },
] as const;

export default function ProductsPage() {
  const { t } = useT('overview');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      {groups.map((group) => (
        <Section key={group.id} title={t(`groups.${group.id}.title`)}>
          <p className="max-w-3xl text-slate-700">{t(`groups.${group.id}.intro`)}</p>
          <ul className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {group.pages.map((id) => (
              <li key={id}>
                <ProductCard id={id} text={t(`cards.${id}`)} />
              </li>
            ))}
          </ul>
        </Section>
      ))}
      <RelatedLinks title={t('related')} ids={['about', 'contact']} />
    </>
  );
}
