import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useCoachPlansT } from '../../i18n/namespaces/coachPlans';

export default function CoachPlansPage() {
  const { t } = useCoachPlansT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['mentalCoaches', 'liveCoach', 'pricing', 'products']} />
    </>
  );
}
