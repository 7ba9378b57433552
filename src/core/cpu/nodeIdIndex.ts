/**
 * Node id → index. Ids are unique integers but neither dense nor sorted; V8's are small, so a typed
 * table is the fast path (millions of sample lookups), with a Map for ids too large or too sparse.
 */
export class NodeIdIndex {
  /** index + 1 per id (0 = unknown), when the ids fit a table. */
  readonly table: Int32Array | null;
  private readonly map: Map<number, number> | null;

  constructor(maxId: number, count: number) {
    const fitsTable = maxId >= 0 && maxId <= 4 * count + 65_536;
    this.table = fitsTable ? new Int32Array(maxId + 1) : null;
    this.map = fitsTable ? null : new Map();
  }

  /** Returns false when the id is already taken. */
  add(id: number, index: number): boolean {
    if (this.table) {
      if (this.table[id] !== 0) return false;
      this.table[id] = index + 1;
      return true;
    }
    if (this.map!.has(id)) return false;
    this.map!.set(id, index);
    return true;
  }

  /** -1 when the id is unknown (or not an integer). */
  get(id: number): number {
    if (this.table) return id >= 0 && id < this.table.length ? (this.table[id] ?? 0) - 1 : -1;
    return this.map!.get(id) ?? -1;
  }

  /** Rewrites every stored index through `to` (after the nodes are reordered). */
  remap(to: Int32Array): void {
    if (this.table) {
      const t = this.table;
      for (let id = 0; id < t.length; id++) if (t[id] !== 0) t[id] = to[t[id]! - 1]! + 1;
      return;
    }
    for (const [id, index] of this.map!) this.map!.set(id, to[index]!);
  }
}
