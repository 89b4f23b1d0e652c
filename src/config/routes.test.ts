import { getHref, matchPath, pathForLanguage, prerenderPaths, routeIds, routes } from './routes';

describe('route registry', () => {
  it('has the live-test route from the persona slug', () => {
    expect(routes.liveCoach.paths.de).toBe('/produkte/mia-ai');
  });

  it('binds German and English twins to their language and leaves the rest open', () => {
    expect(matchPath('/produkte/ai-hotlines')).toEqual({ id: 'hotlines', boundLang: 'de' });
    expect(matchPath('/products/ai-hotlines')).toEqual({ id: 'hotlines', boundLang: 'en' });
    expect(matchPath('/company/about')).toEqual({ id: 'about', boundLang: 'en' });
    expect(matchPath('/produkte/features')).toEqual({ id: 'features', boundLang: null });
    expect(matchPath('/rechtliches/impressum/')).toEqual({ id: 'imprint', boundLang: null });
    expect(matchPath('/nowhere')).toBeNull();
  });

  it('switches to the other language path where there is one', () => {
    expect(pathForLanguage('/produkte/ai-secretary', 'en')).toBe('/products/ai-secretary');
    expect(pathForLanguage('/company/contact', 'de')).toBe('/unternehmen/kontakt');
    expect(pathForLanguage('/produkte/preise', 'en')).toBe('/produkte/preise');
    expect(pathForLanguage('/unknown', 'en')).toBe('/unknown');
  });

  it('keeps German paths for routes without an English one', () => {
    expect(getHref('imprint', 'en')).toBe('/rechtliches/impressum');
    expect(getHref('about', 'en')).toBe('/company/about');
  });

  it('prerenders every public path in each of its languages, never admin', () => {
    const paths = prerenderPaths().map((entry) => entry.path);
    expect(paths).toContain('/');
    expect(paths).toContain('/products/mental-coaches');
    expect(paths).toContain('/produkte/mia-ai');
    expect(paths.some((path) => path.startsWith('/admin'))).toBe(false);
    expect(new Set(paths).size).toBe(paths.length);
    const publicIds = routeIds.filter((id) => routes[id].kind !== 'admin');
    expect(new Set(prerenderPaths().map((entry) => entry.id))).toEqual(new Set(publicIds));
  });
});
