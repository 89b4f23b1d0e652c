import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMentalCoachesT } from '../../i18n/namespaces/mentalCoaches';

export default function MentalCoachesPage() {
  const { t } = useMentalCoachesT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['coachPlans', 'liveCoach', 'solutions', 'products']} />
    </>
  );
}
