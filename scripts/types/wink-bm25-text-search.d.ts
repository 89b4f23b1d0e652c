/** The part of wink-bm25-text-search 3.1's API that scripts/ragPeer.ts uses (the package ships no types). */
declare module 'wink-bm25-text-search' {
  interface Bm25Config {
    fldWeights: Record<string, number>;
    bm25Params?: { k1?: number; b?: number; k?: number };
  }
  interface Bm25Engine {
    defineConfig(config: Bm25Config): boolean;
    definePrepTasks(tasks: ((input: string) => string[])[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(precision?: number): boolean;
    /** [id, score] pairs, best first; ids are given back as strings. */
    search(text: string, limit?: number): [string, number][];
  }
  function bm25(): Bm25Engine;
  export default bm25;
}
