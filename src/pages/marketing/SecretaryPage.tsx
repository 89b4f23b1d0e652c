import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useProductsT } from '../../i18n/namespaces/products';

export default function SecretaryPage() {
  const { t } = useProductsT();
  return (
    <>
      <PageHeader title={t('secretary.heading')} lead={t('secretary.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contactCenter', 'hotlines', 'pricing']} />
    </>
  );
}
