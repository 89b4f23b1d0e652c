import { ProcessingRegistry } from './processingHere';

describe('ProcessingRegistry', () => {
  it('knows a document while it is processed here and tells its listeners', () => {
    const registry = new ProcessingRegistry();
    const heard: ReadonlySet<string>[] = [];
    registry.subscribe(() => heard.push(registry.current()));
    const done = registry.begin('a');
    expect(registry.current().has('a')).toBe(true);
    done();
    expect(registry.current().has('a')).toBe(false);
    expect(heard.map((set) => [...set])).toEqual([['a'], []]);
  });

  it('keeps a document until every run of it here has ended, and counts each end once', () => {
    const registry = new ProcessingRegistry();
    const first = registry.begin('a');
    const second = registry.begin('a');
    first();
    first();
    expect(registry.current().has('a')).toBe(true);
    second();
    expect(registry.current().has('a')).toBe(false);
  });

  it('gives a new snapshot after each change and the same one in between', () => {
    const registry = new ProcessingRegistry();
    const before = registry.current();
    expect(registry.current()).toBe(before);
    registry.begin('b');
    expect(registry.current()).not.toBe(before);
  });
});
