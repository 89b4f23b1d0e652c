import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function SolutionsPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('solutions.heading')} lead={t('solutions.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['features', 'pricing', 'mentalCoaches', 'products']} />
    </>
  );
}
