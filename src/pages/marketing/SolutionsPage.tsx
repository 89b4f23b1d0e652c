import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useSolutionsT } from '../../i18n/namespaces/solutions';

export default function SolutionsPage() {
  const { t } = useSolutionsT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['features', 'pricing', 'mentalCoaches', 'products']} />
    </>
  );
}
