/**
 * Looks a text up in translation trees, the way i18next does for the features this site's texts
 * use: nested keys (`a.b.c`), an optional `namespace:` prefix, `{{name}}` placeholders (values not
 * escaped: React escapes), plurals by `count` (`key_zero`, then `key_one`/`key_other`… by the
 * language's plural rules, then `key`), `returnObjects` for lists and groups (every text inside
 * gets the placeholders too) and the fallback language. A key found nowhere comes back as it is.
 *
 * i18next with react-i18next is 19 KB gzip of every page's first-load JavaScript; this is well
 * under 1 KB. The keys stay typed by i18next's own types (src/i18n/i18next.d.ts).
 */
export type Tree = { readonly [key: string]: unknown };
/** language → namespace → texts */
export type Resources = Readonly<Record<string, Readonly<Record<string, Tree | undefined>> | undefined>>;

export interface TranslateOptions {
  readonly returnObjects?: boolean;
  readonly count?: number;
  readonly [name: string]: unknown;
}

function walk(tree: Tree | undefined, path: string): unknown {
  let node: unknown = tree;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Tree)[part];
  }
  return node;
}

function interpolate(value: unknown, values: TranslateOptions): unknown {
  if (typeof value === 'string') {
    return value.replace(/{{\s*(\w+)\s*}}/g, (placeholder, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : placeholder,
    );
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, values));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, values)]));
  }
  return value;
}

const pluralRules = new Map<string, Intl.PluralRules>();

function candidates(key: string, lang: string, count: number | undefined): string[] {
  if (typeof count !== 'number') return [key];
  let rules = pluralRules.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang);
    pluralRules.set(lang, rules);
  }
  return [...(count === 0 ? [`${key}_zero`] : []), `${key}_${rules.select(count)}`, `${key}_other`, key];
}

export function translate(
  resources: Resources,
  languages: readonly string[],
  namespace: string,
  key: string,
  options: TranslateOptions = {},
): unknown {
  const prefixed = /^(\w+):(.+)$/.exec(key);
  const [ns, path] = prefixed?.[1] && prefixed[2] ? [prefixed[1], prefixed[2]] : [namespace, key];
  for (const lang of languages) {
    for (const candidate of candidates(path, lang, options.count)) {
      const found = walk(resources[lang]?.[ns], candidate);
      if (typeof found === 'string' || typeof found === 'number') return interpolate(String(found), options);
      if (found !== undefined && found !== null && options.returnObjects) return interpolate(found, options);
    }
  }
  return key;
}
