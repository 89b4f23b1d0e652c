import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function FeaturesPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('features.heading')} lead={t('features.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['demo', 'solutions', 'pricing', 'products']} />
    </>
  );
}
