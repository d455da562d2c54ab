/**
 * The part of a tree-sitter node that the shell code reads. web-tree-sitter's own
 * nodes have it, but each read (`type`, `isNamed`, `endIndex`, `children`, ...) is a
 * call into the wasm parser; a snapshot has it as plain fields, read from the tree once.
 */
export interface SyntaxNode {
  /** Unique within one tree. */
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly children: ReadonlyArray<SyntaxNode | null>;
  readonly namedChildren: ReadonlyArray<SyntaxNode | null>;
  readonly namedChildCount: number;
  readonly lastNamedChild: SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): ReadonlyArray<SyntaxNode | null>;
  /**
   * The node itself and every node below it whose type is one of `types`, in source order
   * (as web-tree-sitter's: not a zero-width node at the very start of the text).
   */
  descendantsOfType(types: string | string[]): ReadonlyArray<SyntaxNode | null>;
}

/** A whole tree's root, which also says whether the parser met an error anywhere in it. */
export interface SyntaxRoot extends SyntaxNode {
  /** tree-sitter's own verdict (which also counts what it hides), not a search of the visible nodes. */
  readonly hasError: boolean;
}

class SnapshotNode implements SyntaxNode {
  readonly children: SnapshotNode[] = [];
  readonly namedChildren: SnapshotNode[] = [];
  /** The field each child is under, by index in `children` (absent when no child has one). */
  fields: Array<string | undefined> | undefined;
  private cachedText: string | undefined;

  constructor(
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly source: string,
  ) {}

  get text(): string {
    this.cachedText ??= this.source.slice(this.startIndex, this.endIndex);
    return this.cachedText;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get lastNamedChild(): SnapshotNode | null {
    return this.namedChildren[this.namedChildren.length - 1] ?? null;
  }

  childForFieldName(name: string): SnapshotNode | null {
    const fields = this.fields;
    if (fields) for (let i = 0; i < fields.length; i++) if (fields[i] === name) return this.children[i]!;
    return null;
  }

  childrenForFieldName(name: string): SnapshotNode[] {
    const fields = this.fields;
    return fields ? this.children.filter((_, i) => fields[i] === name) : [];
  }

  descendantsOfType(types: string | string[]): SnapshotNode[] {
    const wanted = Array.isArray(types) ? types : [types];
    const out: SnapshotNode[] = [];
    const stack: SnapshotNode[] = [this];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.endIndex === 0) continue;
      if (wanted.includes(node.type)) out.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
    return out;
  }

  addChild(child: SnapshotNode, field: string | undefined): void {
    if (field !== undefined) {
      this.fields ??= new Array<string | undefined>(this.children.length).fill(undefined);
      this.fields[this.children.length] = field;
    } else this.fields?.push(undefined);
    this.children.push(child);
    if (child.isNamed) this.namedChildren.push(child);
  }
}

/**
 * What snapshotTree reads of web-tree-sitter's Tree, written out here so that this
 * module's declarations do not pull web-tree-sitter's (and its Emscripten globals) into
 * a strict consumer's type-check (test/package).
 */
export interface ParsedTree {
  rootNode: { hasError: boolean };
  walk(): {
    readonly startIndex: number;
    readonly endIndex: number;
    readonly nodeIsMissing: boolean;
    readonly nodeType: string;
    readonly nodeIsNamed: boolean;
    readonly currentFieldName: string | null;
    gotoFirstChild(): boolean;
    gotoNextSibling(): boolean;
    gotoParent(): boolean;
    delete(): void;
  };
}

/**
 * Copy a parsed tree into plain objects (the tree can then be deleted), walking it once
 * with a cursor. `source` must be the text the tree was parsed from: indices are its
 * UTF-16 offsets, as web-tree-sitter reports them for a string input.
 */
export function snapshotTree(tree: ParsedTree, source: string): { root: SyntaxRoot; size: number } {
  const cursor = tree.walk();
  let nextId = 0;
  // An ERROR node has no fields to tree-sitter's childForFieldName, though the cursor can
  // name one from a hidden node inside it: the copy answers as childForFieldName does.
  const fieldOf = (parent: SnapshotNode) => (parent.type === 'ERROR' ? undefined : (cursor.currentFieldName ?? undefined));
  const read = (): SnapshotNode => {
    const start = cursor.startIndex;
    const end = cursor.endIndex;
    // A MISSING node is zero-width: wider ones need no call to ask.
    const missing = start === end && cursor.nodeIsMissing;
    return new SnapshotNode(++nextId, cursor.nodeType, cursor.nodeIsNamed, missing, start, end, source);
  };
  try {
    const root = Object.assign(read(), { hasError: tree.rootNode.hasError });
    // Iterative, so a deeply nested command cannot overflow the stack here.
    const path: SnapshotNode[] = [root];
    let descend = true;
    while (path.length > 0) {
      const parent = path[path.length - 1]!;
      if (descend && cursor.gotoFirstChild()) {
        const child = read();
        parent.addChild(child, fieldOf(parent));
        path.push(child);
        continue;
      }
      path.pop();
      if (path.length === 0) break;
      if (cursor.gotoNextSibling()) {
        const sibling = read();
        const above = path[path.length - 1]!;
        above.addChild(sibling, fieldOf(above));
        path.push(sibling);
        descend = true;
      } else {
        cursor.gotoParent();
        descend = false;
      }
    }
    return { root, size: nextId };
  } finally {
    cursor.delete();
  }
}
