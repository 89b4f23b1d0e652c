import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { usePricingT } from '../../i18n/namespaces/pricing';

export default function PricingPage() {
  const { t } = usePricingT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['features', 'solutions', 'contact', 'products']} />
    </>
  );
}
