import { CONSENT_STORAGE_KEY, markStoredConsent } from './decided';

const mark = () => document.documentElement.dataset.cookieConsent;

describe('the entry marks <html> with the stored consent before the app loads', () => {
  afterEach(() => {
    delete document.documentElement.dataset.cookieConsent;
    vi.restoreAllMocks();
  });

  it('"none" for a first-time visitor: the prerendered notice shows', () => {
    markStoredConsent();
    expect(mark()).toBe('none');
  });

  it('"accepted" once consent is stored: the notice stays hidden', () => {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, 'accepted');
    markStoredConsent();
    expect(mark()).toBe('accepted');
  });

  it('"none" for any other stored value and when storage is unavailable', () => {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, 'maybe');
    markStoredConsent();
    expect(mark()).toBe('none');
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    markStoredConsent();
    expect(mark()).toBe('none');
  });
});
