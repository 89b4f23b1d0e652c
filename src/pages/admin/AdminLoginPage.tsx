import { PageHeader } from '../../components/ui/PageHeader';
import { LoginForm } from '../../features/admin/LoginForm';
import { useAdminT } from '../../i18n/namespaces/admin';

export default function AdminLoginPage() {
  const { t } = useAdminT();
  return (
    <>
      <PageHeader title={t('login.heading')} lead={t('login.lead')} />
      <LoginForm />
    </>
  );
}
