import type { SyntaxNode, SyntaxRoot } from './syntax.js';

/**
 * The simple commands of a parsed bash script, flattened, with what a guard
 * needs to judge each: its words (still nodes), its assignments, its
 * redirections, and where its standard input comes from.
 */
export interface Redirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<`, ... */
  op: string;
  /** The file-descriptor number written before the operator, if any. */
  fd?: string;
  /** The target word (file redirects, here-strings). */
  target?: SyntaxNode;
  /** A here-document: its body text and whether bash expands it before use. */
  heredoc?: { body: string; expands: boolean; node: SyntaxNode };
}

export interface SimpleCommand {
  node: SyntaxNode;
  /** Command name and arguments, in order. */
  words: SyntaxNode[];
  /** `NAME=value` prefixes (and for declaration commands, the declared assignments). */
  assignments: SyntaxNode[];
  redirects: Redirect[];
  /** Where stdin comes from in a pipeline: the commands of the previous element. */
  upstream?: SimpleCommand[];
  /** `export`, `declare`, ... : words[0] is the keyword. */
  declaration?: boolean;
}

export interface Script {
  commands: SimpleCommand[];
  /** Function definitions by name, with their bodies' commands (also in `commands`). */
  functions: Map<string, SimpleCommand[]>;
  /** Things the walker did not understand or that are unsafe to reason about. */
  problems: string[];
}

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** Flatten a tree into its simple commands. */
export function extractScript(root: SyntaxRoot): Script {
  const script: Script = { commands: [], functions: new Map(), problems: [] };
  visit(root, script, undefined);
  // Any ERROR or MISSING node anywhere, even one the walk did not reach.
  if (root.hasError && !script.problems.some((p) => p.startsWith('bash cannot parse')))
    problem(script, 'bash cannot parse it unambiguously');
  return script;
}

function problem(script: Script, message: string): void {
  if (!script.problems.includes(message)) script.problems.push(message);
}

function visit(node: SyntaxNode, script: Script, upstream: SimpleCommand[] | undefined): SimpleCommand[] {
  const start = script.commands.length;
  if (node.type === 'ERROR' || node.isMissing) {
    problem(script, `bash cannot parse it unambiguously near "${snippet(node)}"`);
    return [];
  }
  switch (node.type) {
    case 'command':
      command(node, script, upstream, []);
      break;
    case 'redirected_statement':
      redirected(node, script, upstream);
      break;
    case 'pipeline':
      pipeline(node.namedChildren.filter(isNode), script, upstream);
      break;
    case 'declaration_command':
      declaration(node, script);
      break;
    case 'variable_assignment':
      script.commands.push({ node, words: [], assignments: [node], redirects: [] });
      children(node, script);
      break;
    case 'file_redirect':
    case 'herestring_redirect':
    case 'heredoc_redirect': {
      // A redirection on its own, e.g. `$(< file)`.
      const holder: SimpleCommand = { node, words: [], assignments: [], redirects: [] };
      script.commands.push(holder);
      redirect(node, holder, script);
      break;
    }
    case 'function_definition': {
      const body = node.childForFieldName('body');
      const name = node.childForFieldName('name')?.text ?? '';
      const before = script.commands.length;
      if (body) visit(body, script, undefined);
      script.functions.set(name, script.commands.slice(before));
      break;
    }
    case 'word':
      // An unquoted word cannot hold a newline; the grammar sometimes glues lines together.
      if (node.text.includes('\n'))
        problem(script, `the word ${JSON.stringify(node.text)} spans lines, which bash would not read as one word`);
      break;
    case 'expansion':
      if (/@\s*P\s*\}$/.test(node.text)) problem(script, `${node.text} expands a prompt string, which can run commands`);
      children(node, script);
      break;
    case 'subscript':
      // Bash evaluates array subscripts arithmetically, re-reading expanded values as code.
      if (node.childForFieldName('index')?.descendantsOfType(['simple_expansion', 'expansion', 'command_substitution']).length) {
        problem(script, `array subscript ${node.text} is evaluated as arithmetic, which can run commands from a variable's value`);
      }
      children(node, script);
      break;
    default:
      children(node, script, upstream);
  }
  return script.commands.slice(start);
}

function isNode(n: SyntaxNode | null): n is SyntaxNode {
  return n !== null;
}

function snippet(node: SyntaxNode): string {
  const t = node.text.replace(/\s+/g, ' ');
  return t.length > 30 ? `${t.slice(0, 30)}...` : t;
}

function children(node: SyntaxNode, script: Script, upstream?: SimpleCommand[]): void {
  // Leaves are most nodes; skipping them saves marshalling their (empty) child lists.
  if (node.namedChildCount === 0) return;
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === 'ERROR' || child.isMissing) problem(script, `bash cannot parse it unambiguously near "${snippet(child)}"`);
    else if (child.isNamed) visit(child, script, upstream);
  }
}

function pipeline(elements: SyntaxNode[], script: Script, upstream: SimpleCommand[] | undefined): void {
  let from = upstream;
  for (const element of elements) {
    const produced = visit(element, script, from);
    from = produced.length > 0 ? produced : from;
  }
}

function command(node: SyntaxNode, script: Script, upstream: SimpleCommand[] | undefined, extra: SyntaxNode[]): SimpleCommand {
  const cmd: SimpleCommand = { node, words: [], assignments: [], redirects: [] };
  if (upstream) cmd.upstream = upstream;
  script.commands.push(cmd);
  checkTouching(node, script);
  const nested: SyntaxNode[] = [];
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === 'variable_assignment') cmd.assignments.push(child);
    else if (child.type === 'command_name') {
      const inner = child.namedChildren[0];
      if (inner) cmd.words.push(inner);
      else problem(script, 'a command has an empty name');
    } else if (REDIRECT_TYPES.has(child.type)) nested.push(child);
    else if (child.type === 'comment') continue;
    else if (child.type === 'ERROR' || child.isMissing) problem(script, `bash cannot parse it unambiguously near "${snippet(child)}"`);
    else if (!child.isNamed) problem(script, `"${child.text}" in "${snippet(node)}" is shell syntax hookwise does not model`);
    else cmd.words.push(child);
  }
  for (const r of [...nested, ...extra]) redirect(r, cmd, script);
  // Substitutions inside the words and assignments run too.
  for (const w of cmd.words) visit(w, script, undefined);
  for (const a of cmd.assignments) children(a, script);
  return cmd;
}

function redirected(node: SyntaxNode, script: Script, upstream: SimpleCommand[] | undefined): void {
  const body = node.childForFieldName('body');
  const redirects = node.children.filter((c): c is SyntaxNode => c !== null && REDIRECT_TYPES.has(c.type));
  for (const c of node.children)
    if (c && (c.type === 'ERROR' || c.isMissing)) problem(script, `bash cannot parse it unambiguously near "${snippet(c)}"`);
  if (body?.type === 'command') {
    command(body, script, upstream, redirects);
    return;
  }
  const produced = body ? visit(body, script, upstream) : [];
  // `a && b <<EOF`: the grammar hangs the redirect on the list, bash on its last command.
  let last = body;
  while (last && (last.type === 'list' || last.type === 'pipeline' || last.type === 'negated_command')) last = last.lastNamedChild;
  const lastCommand = last?.type === 'command' ? produced.find((c) => c.node.id === last!.id) : undefined;
  // A group ({ ...; } > file, while ... done < file): redirections apply to the whole group.
  const holder: SimpleCommand = { node, words: [], assignments: [], redirects: [] };
  script.commands.push(holder);
  for (const r of redirects) {
    redirect(r, lastCommand ?? holder, script);
    if (lastCommand) continue;
    const parsed = holder.redirects.at(-1);
    if (parsed && (parsed.heredoc || parsed.op === '<<<' || parsed.op === '<')) {
      // Every command in the group may read it.
      for (const c of produced) if (!c.upstream) c.redirects.push(parsed);
    }
  }
}

function redirect(node: SyntaxNode, cmd: SimpleCommand, script: Script): void {
  const fd = node.childForFieldName('descriptor')?.text;
  const kids = node.children;
  if (node.type === 'heredoc_redirect') {
    const start = kids.find((c) => c?.type === 'heredoc_start');
    const body = kids.find((c) => c?.type === 'heredoc_body');
    const quoted = start ? /['"\\]/.test(start.text) : false;
    const r: Redirect = { op: '<<' };
    if (fd) r.fd = fd;
    if (body) r.heredoc = { body: body.text, expands: !quoted, node: body };
    else r.heredoc = { body: '', expands: false, node };
    cmd.redirects.push(r);
    if (body && !quoted) visit(body, script, undefined);
    // What follows `<<EOF` on the same line (`| sh`, `&& next`) is parsed inside the redirect.
    for (const c of node.namedChildren) {
      if (!c || c.type === 'heredoc_start' || c.type === 'heredoc_body' || c.type === 'heredoc_end') continue;
      if (c.type === 'pipeline') pipeline(c.namedChildren.filter(isNode), script, [cmd]);
      else visit(c, script, undefined);
    }
    return;
  }
  const op = kids.find((c) => c !== null && !c.isNamed && c.type !== '(' && c.type !== ')')?.type ?? '>';
  const destinations = node.type === 'file_redirect' ? node.childrenForFieldName('destination').filter(isNode) : [];
  const target = node.type === 'herestring_redirect' ? node.namedChildren.find((c) => c?.type !== 'file_descriptor') : destinations[0];
  // The grammar hangs words after `> file` on the redirect; to bash they are the command's arguments.
  if (destinations.length > 1) {
    if (cmd.words.length === 0) problem(script, `"${snippet(node)}" has words after its target that belong to no command`);
    for (const extra of destinations.slice(1)) {
      cmd.words.push(extra);
      visit(extra, script, undefined);
    }
  }
  const r: Redirect = { op: node.type === 'herestring_redirect' ? '<<<' : op };
  if (fd) r.fd = fd;
  if (target) {
    r.target = target;
    visit(target, script, undefined);
  } else problem(script, `redirection "${snippet(node)}" has no target`);
  cmd.redirects.push(r);
  for (const c of kids)
    if (c && (c.type === 'ERROR' || c.isMissing)) problem(script, `bash cannot parse it unambiguously near "${snippet(c)}"`);
}

/** Two words with nothing between them are one word to bash; a tree that splits them was misparsed. */
function checkTouching(node: SyntaxNode, script: Script): void {
  let prev: SyntaxNode | null = null;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (
      prev &&
      prev.endIndex === child.startIndex &&
      !REDIRECT_TYPES.has(child.type) &&
      !REDIRECT_TYPES.has(prev.type) &&
      child.type !== 'comment'
    ) {
      problem(script, `"${snippet(node)}" joins words in a way hookwise does not model`);
      return;
    }
    prev = child;
  }
}

function declaration(node: SyntaxNode, script: Script): void {
  checkTouching(node, script);
  const cmd: SimpleCommand = { node, words: [], assignments: [], redirects: [], declaration: true };
  script.commands.push(cmd);
  const keyword = node.children[0];
  if (keyword) cmd.words.push(keyword);
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'variable_assignment') cmd.assignments.push(child);
    else cmd.words.push(child);
  }
  for (const w of cmd.words.slice(1)) visit(w, script, undefined);
  for (const a of cmd.assignments) children(a, script);
}
