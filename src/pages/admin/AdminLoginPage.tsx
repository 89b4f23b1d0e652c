import { PageHeader } from '../../components/ui/PageHeader';
import { LoginForm } from '../../features/admin/LoginForm';
import { useAdminT } from '../../i18n/namespaces/admin';
import { AdminRouter } from './AdminRouter';

export default function AdminLoginPage() {
  const { t } = useAdminT();
  return (
    <AdminRouter>
      <PageHeader title={t('login.heading')} lead={t('login.lead')} />
      <LoginForm />
    </AdminRouter>
  );
}
