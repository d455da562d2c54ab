/**
 * Code in another language handed to an interpreter on the command line
 * (`python -c`, `node -e`, `perl -e`, awk programs). hookwise does not parse
 * these languages; it looks for the capabilities that matter (running
 * commands, changing files, evaluating generated code) and for string literals
 * it can judge (commands, paths). Anything with such a capability that it
 * cannot fully judge is unprovable.
 */
export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'awk' | 'other';

export interface ForeignScan {
  /** Capabilities found, each a short phrase ("runs commands (os.system)"). */
  capabilities: string[];
  /** Literals that look like shell commands given to an exec-like call. */
  commands: string[];
  /** Literals that look like paths. */
  paths: string[];
  /** Every string literal (for the secret test). */
  literals: string[];
  /** Paths the awk program writes with print > "file". */
  writes: string[];
  /** Literal paths handed to a recursive delete (`shutil.rmtree('src')`, `fs.rmSync('out', …)`, `FileUtils.rm_rf`). */
  removes: string[];
}

/** Recursive deletes whose first argument is a literal path (optionally wrapped in `Path(…)`). */
const REMOVES =
  /\b(rmtree|rmSync|rm_rf|rm_r|remove_tree|remove_dir|remove_entry(?:_secure)?|rimraf(?:\.sync)?|rmdirSync|fs\.rm|promises\.rm)\s*\(\s*(?:(?:pathlib\.)?Path\s*\(\s*)?(['"])([^'"\n]+)\2/g;

const EXEC: Record<Language, RegExp> = {
  python: /\b(os\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*)|subprocess|pty\.spawn|commands\.getoutput|platform\.popen)\b/,
  node: /\b(child_process|execSync|execFileSync|spawnSync|execFile|spawn|exec|fork)\b|process\.binding/,
  perl: /\b(system|exec|qx|open\s*\(?[^;]*\|)|`|\bopen\s*\(?\s*\w*\s*,\s*['"]\s*[|-]/,
  ruby: /\b(system|exec|spawn|popen\w*|IO\.popen|Open3|Kernel\.(system|exec|spawn)|%x)\b|`/,
  php: /\b(system|exec|shell_exec|passthru|proc_open|popen|pcntl_exec)\s*\(|`/,
  lua: /\b(os\.execute|io\.popen)\b/,
  awk: /\bsystem\s*\(|\|\s*getline|\|\s*"|\|&/,
  other: /\b(system|exec|spawn|popen|do shell script|run)\b/,
};

// A database connection (sqlite3, better-sqlite3, node:sqlite) writes the file it opens.
const WRITE =
  /\b(sqlite3?|rmtree|remove_tree|rimraf|remove|unlink\w*|rmdir\w*|rmSync|rm\s*\(|writeFile\w*|appendFile\w*|createWriteStream|rename\w*|chmod\w*|chown\w*|truncate\w*|copyFile\w*|symlink\w*|shutil|os\.replace|write_text|write_bytes|FileUtils|File\.(write|delete|open)|file_put_contents|fopen|fwrite|io\.open)\b|\bopen\s*\([^)]*,\s*['"][^'"]*[wax+]|open\s*\(?\s*(my\s+)?\$?\w*\s*,\s*['"]\s*[>+]/;

// Parsers and regexes by the module's own name (`json.load(f)`, `re.compile(p)`) read data, not code.
const EVAL =
  /(?<!\b(?:json|re|regex|toml|tomllib|tomli|csv|JSON)\.)\b(eval|exec|compile|__import__|importlib|Function|vm\.run\w*|loadstring|load|instance_eval|class_eval|create_function|assert)\s*\(|\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]/;

const LITERAL = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;

export function languageOf(interpreter: string): Language {
  if (/^python/.test(interpreter) || interpreter === 'pypy' || interpreter === 'pypy3') return 'python';
  if (interpreter === 'node' || interpreter === 'nodejs' || interpreter === 'bun' || interpreter === 'deno') return 'node';
  if (/^perl/.test(interpreter)) return 'perl';
  if (/^ruby/.test(interpreter) || interpreter === 'irb') return 'ruby';
  if (/^php/.test(interpreter)) return 'php';
  if (/^lua/.test(interpreter) || interpreter === 'luajit') return 'lua';
  if (/awk$/.test(interpreter)) return 'awk';
  return 'other';
}

export function scanForeign(code: string, language: Language): ForeignScan {
  const scan: ForeignScan = { capabilities: [], commands: [], paths: [], literals: [], writes: [], removes: [] };
  const exec = EXEC[language].exec(code);
  if (exec) scan.capabilities.push(`runs commands (${exec[0].trim()})`);
  const write = language === 'awk' ? undefined : WRITE.exec(code);
  if (write) scan.capabilities.push(`changes files (${write[0].trim()})`);
  const evaluated = language === 'awk' ? undefined : EVAL.exec(code);
  if (evaluated && !(language === 'node' && /^exec/.test(evaluated[0])))
    scan.capabilities.push(`evaluates code built at run time (${evaluated[0].replace(/\s*\($/, '')})`);
  for (const m of code.matchAll(LITERAL)) {
    const literal = m[1] ?? m[2] ?? m[3] ?? '';
    scan.literals.push(literal);
    if (/^(~|\.{1,2})?\//.test(literal) || /^~$/.test(literal)) scan.paths.push(literal);
    if (exec && /^[\w./~-]+(\s|$)/.test(literal) && /[a-z]/i.test(literal)) scan.commands.push(literal);
  }
  if (language !== 'awk' && write) for (const m of code.matchAll(REMOVES)) scan.removes.push(m[3]!);
  if (language === 'awk') {
    for (const m of code.matchAll(/>>?\s*"([^"]*)"/g)) scan.writes.push(m[1]!);
  }
  return scan;
}
