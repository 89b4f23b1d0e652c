/**
 * Where an admin wanted to go before the sign-in got in the way. Kept for this tab only
 * (sessionStorage) and only for admin paths, so a crafted value cannot send anyone elsewhere.
 */
const KEY = 'admin-return-path';

export function rememberReturnPath(path: string): void {
  try {
    window.sessionStorage.setItem(KEY, path);
  } catch {
    // Storage disabled: the sign-in then goes to the dashboard.
  }
}

/** The stored path (removed on reading) when it is an admin path, else null. */
export function takeReturnPath(): string | null {
  try {
    const path = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return path?.startsWith('/admin/') && !path.startsWith('/admin/dashboard-login') ? path : null;
  } catch {
    return null;
  }
}
