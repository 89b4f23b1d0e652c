import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useContactCenterT } from '../../i18n/namespaces/contactCenter';

export default function ContactCenterPage() {
  const { t } = useContactCenterT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['hotlines', 'secretary', 'pricing']} />
    </>
  );
}
