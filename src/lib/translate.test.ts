import { describe, expect, it } from 'vitest';
import { translate, type Resources } from './translate';

const resources: Resources = {
  de: {
    common: {
      hello: 'Hallo {{name}}',
      nested: { deep: { text: 'tief' } },
      onlyGerman: 'nur deutsch',
      items: [{ title: 'Eins {{name}}' }, { title: 'Zwei' }],
      passages_one: '{{count}} Passage',
      passages_other: '{{count}} Passagen',
    },
    meta: { title: '{{site}} – Start' },
  },
  en: {
    common: {
      hello: 'Hello {{name}}',
      nested: { deep: { text: 'deep' } },
      items: [{ title: 'One {{name}}' }, { title: 'Two' }],
      passages_one: '{{count}} passage',
      passages_other: '{{count}} passages',
      passages_zero: 'no passages',
    },
  },
};

describe('translate', () => {
  it('finds nested keys and fills placeholders', () => {
    expect(translate(resources, ['de'], 'common', 'nested.deep.text')).toBe('tief');
    expect(translate(resources, ['en'], 'common', 'hello', { name: 'Mia' })).toBe('Hello Mia');
  });

  it('leaves a placeholder without a value as it is', () => {
    expect(translate(resources, ['de'], 'common', 'hello')).toBe('Hallo {{name}}');
  });

  it('returns lists and groups with returnObjects, placeholders filled inside', () => {
    expect(translate(resources, ['de'], 'common', 'items', { returnObjects: true, name: 'A' })).toEqual([
      { title: 'Eins A' },
      { title: 'Zwei' },
    ]);
    // Without returnObjects a group is no text: the key comes back.
    expect(translate(resources, ['de'], 'common', 'items')).toBe('items');
  });

  it('picks the plural form of the language, and _zero for none', () => {
    expect(translate(resources, ['de'], 'common', 'passages', { count: 1 })).toBe('1 Passage');
    expect(translate(resources, ['de'], 'common', 'passages', { count: 3 })).toBe('3 Passagen');
    expect(translate(resources, ['de'], 'common', 'passages', { count: 0 })).toBe('0 Passagen');
    expect(translate(resources, ['en'], 'common', 'passages', { count: 0 })).toBe('no passages');
  });

  it('falls back to the next language, then to the key', () => {
    expect(translate(resources, ['en', 'de'], 'common', 'onlyGerman')).toBe('nur deutsch');
    expect(translate(resources, ['en', 'de'], 'common', 'missing.key')).toBe('missing.key');
  });

  it('reads another namespace by prefix', () => {
    expect(translate(resources, ['de'], 'common', 'meta:title', { site: 'Voxa AI' })).toBe('Voxa AI – Start');
  });
});
