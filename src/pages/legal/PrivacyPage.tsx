import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useLegalT } from '../../i18n/namespaces/legal';

export default function PrivacyPage() {
  const { t } = useLegalT();
  return (
    <>
      <PageHeader title={t('privacy.heading')} lead={t('privacy.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['imprint', 'transparency']} />
    </>
  );
}
