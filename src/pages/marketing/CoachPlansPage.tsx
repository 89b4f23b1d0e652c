import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function CoachPlansPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('coachPlans.heading')} lead={t('coachPlans.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['mentalCoaches', 'liveCoach', 'pricing', 'products']} />
    </>
  );
}
