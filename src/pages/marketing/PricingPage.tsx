import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function PricingPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('pricing.heading')} lead={t('pricing.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['features', 'solutions', 'contact', 'products']} />
    </>
  );
}
