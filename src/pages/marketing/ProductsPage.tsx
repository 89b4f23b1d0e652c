import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useOverviewT } from '../../i18n/namespaces/overview';

export default function ProductsPage() {
  const { t } = useOverviewT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contactCenter', 'hotlines', 'secretary', 'mentalCoaches', 'coachPlans', 'features', 'demo', 'solutions', 'pricing', 'liveCoach']} />
    </>
  );
}
