import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function ProductsPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('products.heading')} lead={t('products.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contactCenter', 'hotlines', 'secretary', 'mentalCoaches', 'coachPlans', 'features', 'demo', 'solutions', 'pricing', 'liveCoach']} />
    </>
  );
}
