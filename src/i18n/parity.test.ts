const files = import.meta.glob<unknown>('./locales/*/*.json', { eager: true, import: 'default' });

function byLang(lang: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(files)
      .filter(([path]) => path.startsWith(`./locales/${lang}/`))
      .map(([path, value]) => [path.slice(`./locales/${lang}/`.length), value]),
  );
}

/** Every leaf of a translation tree as `path → text`. */
function leaves(value: unknown, prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return { [prefix]: value };
  return Object.assign(
    {},
    ...Object.entries(value).map(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key)),
  ) as Record<string, unknown>;
}

const placeholders = (text: unknown) =>
  typeof text === 'string' ? [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort() : [];

const de = byLang('de');
const en = byLang('en');
const namespaces = Object.keys(de);

describe('translations', () => {
  it('have the same namespaces in German and English', () => {
    expect(namespaces.length).toBeGreaterThan(0);
    expect(Object.keys(en).sort()).toEqual([...namespaces].sort());
  });

  it.each(namespaces)('%s has the same keys in both languages', (file) => {
    expect(Object.keys(leaves(en[file])).sort()).toEqual(Object.keys(leaves(de[file])).sort());
  });

  it.each(namespaces)('%s uses the same placeholders in both languages', (file) => {
    const deLeaves = leaves(de[file]);
    const enLeaves = leaves(en[file]);
    for (const key of Object.keys(deLeaves)) {
      expect(placeholders(enLeaves[key]), key).toEqual(placeholders(deLeaves[key]));
    }
  });

  it.each(namespaces)('%s has no empty or non-text leaf', (file) => {
    for (const tree of [de[file], en[file]]) {
      for (const [key, value] of Object.entries(leaves(tree))) {
        expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
      }
    }
  });
});
