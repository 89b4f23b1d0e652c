import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function DemoPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('demo.heading')} lead={t('demo.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['liveCoach', 'features', 'pricing', 'products']} />
    </>
  );
}
