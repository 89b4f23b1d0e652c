import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useProductsT } from '../../i18n/namespaces/products';

export default function HotlinesPage() {
  const { t } = useProductsT();
  return (
    <>
      <PageHeader title={t('hotlines.heading')} lead={t('hotlines.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contactCenter', 'secretary', 'pricing']} />
    </>
  );
}
