import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function MentalCoachesPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('mentalCoaches.heading')} lead={t('mentalCoaches.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['coachPlans', 'liveCoach', 'solutions', 'products']} />
    </>
  );
}
