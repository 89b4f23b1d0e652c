import { fixedT, i18n } from './index';

// The site's i18next set-up as the texts use it: German fallback, unescaped placeholders (React
// escapes), plurals, lists and groups with their placeholders filled.
describe('i18next set-up', () => {
  beforeAll(() => {
    i18n.addResourceBundle('de', 'testing', {
      onlyGerman: 'nur deutsch',
      hello: 'Hallo {{name}}',
      items: [{ title: 'Eins {{name}}' }, { title: 'Zwei' }],
      passages_one: '{{count}} Passage',
      passages_other: '{{count}} Passagen',
    });
    i18n.addResourceBundle('en', 'testing', {
      hello: 'Hello {{name}}',
      items: [{ title: 'One {{name}}' }, { title: 'Two' }],
      passages_one: '{{count}} passage',
      passages_other: '{{count}} passages',
    });
  });

  // The test namespace is not among the typed ones: look texts up without key checking.
  const lookup = (lang: 'de' | 'en') => fixedT(lang, 'common') as unknown as (key: string, options?: object) => unknown;

  it('falls back to German for a text English lacks', () => {
    expect(lookup('en')('testing:onlyGerman')).toBe('nur deutsch');
  });

  it('fills placeholders without escaping them', () => {
    expect(lookup('en')('testing:hello', { name: 'A & <B>' })).toBe('Hello A & <B>');
  });

  it('picks the plural form of the language', () => {
    expect(lookup('de')('testing:passages', { count: 1 })).toBe('1 Passage');
    expect(lookup('de')('testing:passages', { count: 3 })).toBe('3 Passagen');
    expect(lookup('en')('testing:passages', { count: 1 })).toBe('1 passage');
  });

  it('returns lists with their placeholders filled', () => {
    expect(lookup('en')('testing:items', { returnObjects: true, name: 'A' })).toEqual([{ title: 'One A' }, { title: 'Two' }]);
  });
});
