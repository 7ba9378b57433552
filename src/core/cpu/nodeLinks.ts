import type { FlatTree } from './flatTree';
import type { NodeIdIndex } from './nodeIdIndex';

/**
 * Parent → child links between nodes (by index, file order), as the file states them: `children`
 * lists and/or `parent` fields. The first link found for a child wins; links to unknown ids and
 * second parents are counted for one warning each instead of failing the whole profile.
 */
export class NodeLinks {
  /** Parent's index per node; -1 when none was found. */
  readonly parent: Int32Array;
  /** Links in listing order: edgeParent[k] → edgeChild[k]; at most one per child. */
  readonly edgeParent: Int32Array;
  readonly edgeChild: Int32Array;
  edgeCount = 0;
  private unknown = 0;
  private conflicting = 0;

  constructor(
    count: number,
    private readonly ids: NodeIdIndex,
  ) {
    this.parent = new Int32Array(count).fill(-1);
    this.edgeParent = new Int32Array(count);
    this.edgeChild = new Int32Array(count);
  }

  /** `parent` lists a child by id. */
  addChildId(parent: number, childId: unknown): void {
    this.link(parent, typeof childId === 'number' ? this.ids.get(childId) : -1);
  }

  /** `child` names its parent by id. */
  addParentId(child: number, parentId: number): void {
    this.link(this.ids.get(parentId), child);
  }

  edges(): Pick<FlatTree, 'parent' | 'edgeParent' | 'edgeChild' | 'edgeCount'> {
    return { parent: this.parent, edgeParent: this.edgeParent, edgeChild: this.edgeChild, edgeCount: this.edgeCount };
  }

  warnings(into: string[]): void {
    if (this.unknown > 0) into.push(`${this.unknown} parent/child link(s) name node ids that are not in the profile; ignored.`);
    if (this.conflicting > 0) into.push(`${this.conflicting} node(s) are listed under two different parents; the first one was kept.`);
  }

  private link(p: number, c: number): void {
    if (c < 0 || p < 0) this.unknown++;
    else if (this.parent[c] === -1) {
      this.parent[c] = p;
      this.edgeParent[this.edgeCount] = p;
      this.edgeChild[this.edgeCount++] = c;
    } else if (this.parent[c] !== p) this.conflicting++;
  }
}
