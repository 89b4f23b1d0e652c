import { PageHeader } from '../../components/ui/PageHeader';
import { Dashboard } from '../../features/admin/Dashboard';
import { RequireAdmin } from '../../features/admin/RequireAdmin';
import { useAdminT } from '../../i18n/namespaces/admin';

export default function AdminDashboardPage() {
  const { t } = useAdminT();
  return (
    <RequireAdmin>
      {(session) => (
        <>
          <PageHeader title={t('dashboard.heading')} lead={t('dashboard.lead')} />
          <Dashboard session={session} />
        </>
      )}
    </RequireAdmin>
  );
}
