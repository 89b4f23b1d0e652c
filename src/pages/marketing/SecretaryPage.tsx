import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useSecretaryT } from '../../i18n/namespaces/secretary';

export default function SecretaryPage() {
  const { t } = useSecretaryT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contactCenter', 'hotlines', 'pricing']} />
    </>
  );
}
