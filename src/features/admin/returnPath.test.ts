import { rememberReturnPath, takeReturnPath } from './returnPath';

describe('return path after sign-in', () => {
  beforeEach(() => sessionStorage.clear());

  it('gives the stored admin path once', () => {
    rememberReturnPath('/admin/master-dashboard?tab=knowledge');
    expect(takeReturnPath()).toBe('/admin/master-dashboard?tab=knowledge');
    expect(takeReturnPath()).toBeNull();
  });

  it('ignores anything that is not an admin page, and the login itself', () => {
    rememberReturnPath('https://evil.example/phish');
    expect(takeReturnPath()).toBeNull();
    rememberReturnPath('//evil.example/admin/');
    expect(takeReturnPath()).toBeNull();
    rememberReturnPath('/admin/dashboard-login');
    expect(takeReturnPath()).toBeNull();
  });
});
