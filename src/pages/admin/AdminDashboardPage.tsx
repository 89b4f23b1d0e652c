import { PageHeader } from '../../components/ui/PageHeader';
import { useAdminT } from '../../i18n/namespaces/admin';

export default function AdminDashboardPage() {
  const { t } = useAdminT();
  return <PageHeader title={t('dashboard.heading')} lead={t('dashboard.lead')} />;
}
