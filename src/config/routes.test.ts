import { englishPrefixes, getHref, langOfPath, matchPath, pathForLanguage, prerenderPaths, routeIds, routes } from './routes';

describe('route registry', () => {
  it('has the live-test route from the persona slug', () => {
    expect(routes.liveCoach.paths.de).toBe('/produkte/mia-ai');
    expect(routes.liveCoach.paths.en).toBe('/products/mia-ai');
  });

  it('gives every public page a German and an English path, the admin area one path', () => {
    for (const id of routeIds) {
      const paths: { de: string; en?: string } = routes[id].paths;
      if (routes[id].kind === 'admin') expect(paths.en, id).toBeUndefined();
      else expect(paths.en, id).toMatch(/^\/(en$|products(\/|$)|company\/|legal\/)/);
    }
  });

  it('keeps the seed\'s German paths', () => {
    expect(routeIds.map((id) => routes[id].paths.de)).toEqual([
      '/',
      '/produkte',
      '/produkte/features',
      '/produkte/demo',
      '/produkte/loesungen',
      '/produkte/preise',
      '/produkte/auftritt-waehlen',
      '/produkte/ai-contact-center',
      '/produkte/ai-hotlines',
      '/produkte/ai-secretary',
      '/produkte/mental-coaches',
      '/produkte/mia-ai',
      '/unternehmen/ueber-uns',
      '/unternehmen/kontakt',
      '/rechtliches/impressum',
      '/rechtliches/datenschutz',
      '/rechtliches/transparenz',
      '/admin/dashboard-login',
      '/admin/master-dashboard',
    ]);
  });

  it('binds every public path to its language; the admin area follows the remembered one', () => {
    expect(matchPath('/produkte/ai-hotlines')).toEqual({ id: 'hotlines', boundLang: 'de' });
    expect(matchPath('/products/ai-hotlines')).toEqual({ id: 'hotlines', boundLang: 'en' });
    expect(matchPath('/en')).toEqual({ id: 'home', boundLang: 'en' });
    expect(matchPath('/legal/imprint/')).toEqual({ id: 'imprint', boundLang: 'en' });
    expect(matchPath('/admin/master-dashboard')).toEqual({ id: 'adminDashboard', boundLang: null });
    expect(matchPath('/nowhere')).toBeNull();
    expect(langOfPath('/rechtliches/datenschutz')).toBe('de');
    expect(langOfPath('/products/features')).toBe('en');
    expect(langOfPath('/admin/dashboard-login')).toBeNull();
  });

  it('gives an unknown path the language of its first segment', () => {
    expect([...englishPrefixes].sort()).toEqual(['company', 'en', 'legal', 'products']);
    expect(langOfPath('/products/nothing-here')).toBe('en');
    expect(langOfPath('/en/typo')).toBe('en');
    expect(langOfPath('/legal')).toBe('en');
    expect(langOfPath('/produkte/gibt-es-nicht')).toBe('de');
    expect(langOfPath('/english')).toBe('de');
  });

  it('switches to the twin; an unknown path to the home page, the admin area stays', () => {
    expect(pathForLanguage('/produkte/ai-secretary', 'en')).toBe('/products/ai-secretary');
    expect(pathForLanguage('/company/contact', 'de')).toBe('/unternehmen/kontakt');
    expect(pathForLanguage('/produkte/preise', 'en')).toBe('/products/pricing');
    expect(pathForLanguage('/', 'en')).toBe('/en');
    expect(pathForLanguage('/en', 'de')).toBe('/');
    expect(pathForLanguage('/unknown', 'en')).toBe('/en');
    expect(pathForLanguage('/admin/master-dashboard', 'en')).toBe('/admin/master-dashboard');
  });

  it('prerenders every public path in both languages, never admin', () => {
    const paths = prerenderPaths().map((entry) => entry.path);
    expect(paths).toContain('/');
    expect(paths).toContain('/en');
    expect(paths).toContain('/legal/transparency');
    expect(paths).toContain('/produkte/mia-ai');
    expect(paths.some((path) => path.startsWith('/admin'))).toBe(false);
    expect(new Set(paths).size).toBe(paths.length);
    const publicIds = routeIds.filter((id) => routes[id].kind !== 'admin');
    expect(paths).toHaveLength(publicIds.length * 2);
    expect(getHref('imprint', 'en')).toBe('/legal/imprint');
    expect(getHref('adminLogin', 'en')).toBe('/admin/dashboard-login');
  });
});
