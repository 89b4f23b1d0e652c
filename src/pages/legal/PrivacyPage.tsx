import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { usePrivacyT } from '../../i18n/namespaces/privacy';

export default function PrivacyPage() {
  const { t } = usePrivacyT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['imprint', 'transparency']} />
    </>
  );
}
