import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useTransparencyT } from '../../i18n/namespaces/transparency';

export default function TransparencyPage() {
  const { t } = useTransparencyT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['imprint', 'privacy']} />
    </>
  );
}
