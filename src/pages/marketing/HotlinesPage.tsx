import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useHotlinesT } from '../../i18n/namespaces/hotlines';

export default function HotlinesPage() {
  const { t } = useHotlinesT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contactCenter', 'secretary', 'pricing']} />
    </>
  );
}
