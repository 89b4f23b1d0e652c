import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useFeaturesT } from '../../i18n/namespaces/features';

export default function FeaturesPage() {
  const { t } = useFeaturesT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['demo', 'solutions', 'pricing', 'products']} />
    </>
  );
}
