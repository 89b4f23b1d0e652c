import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useMarketingT } from '../../i18n/namespaces/marketing';

export default function AboutPage() {
  const { t } = useMarketingT();
  return (
    <>
      <PageHeader title={t('about.heading')} lead={t('about.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contact', 'products', 'transparency']} />
    </>
  );
}
