import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useProductsT } from '../../i18n/namespaces/products';

export default function ContactCenterPage() {
  const { t } = useProductsT();
  return (
    <>
      <PageHeader title={t('contactCenter.heading')} lead={t('contactCenter.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['hotlines', 'secretary', 'pricing']} />
    </>
  );
}
