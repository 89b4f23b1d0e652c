import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useLegalT } from '../../i18n/namespaces/legal';

export default function TransparencyPage() {
  const { t } = useLegalT();
  return (
    <>
      <PageHeader title={t('transparency.heading')} lead={t('transparency.lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['imprint', 'privacy']} />
    </>
  );
}
