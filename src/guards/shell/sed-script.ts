/**
 * What a sed script can do besides editing text: GNU sed's `e` runs commands,
 * `w`/`W` and the `s///w` flag write files, `r`/`R` read them.
 */
export interface SedEffects {
  executes: boolean;
  writes: string[];
  reads: string[];
  /** The scanner got lost: treat as unprovable. */
  unclear: boolean;
}

export function scanSed(script: string): SedEffects {
  const fx: SedEffects = { executes: false, writes: [], reads: [], unclear: false };
  let i = 0;
  const n = script.length;
  const restOfLine = () => {
    const end = script.indexOf('\n', i);
    const text = script.slice(i, end < 0 ? n : end).trim();
    i = end < 0 ? n : end + 1;
    return text;
  };
  const delimited = (delim: string): boolean => {
    // Reads one delimited part; false if unterminated.
    while (i < n) {
      const c = script[i++];
      if (c === '\\') i++;
      else if (c === delim) return true;
      else if (c === '\n' && delim !== '\n') return false;
    }
    return false;
  };
  let depth = 0;
  while (i < n) {
    // Skip blanks, separators and the address part.
    const c = script[i]!;
    if (c === '{' || c === '}') {
      depth += c === '{' ? 1 : -1;
      if (depth < 0) return { ...fx, unclear: true };
      i++;
      continue;
    }
    if (/[\s;!]/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9$,~+]/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' || c === '\\') {
      const delim = c === '\\' ? script[++i] : '/';
      i++;
      if (!delim || !delimited(delim)) return { ...fx, unclear: true };
      if (script[i] === 'I' || script[i] === 'M') i++;
      continue;
    }
    if (c === '#') {
      restOfLine();
      continue;
    }
    i++;
    switch (c) {
      case 's':
      case 'y': {
        const delim = script[i++];
        if (!delim || delim === '\n' || delim === '\\') return { ...fx, unclear: true };
        if (!delimited(delim) || !delimited(delim)) return { ...fx, unclear: true };
        if (c === 'y') break;
        while (i < n && /[gpIiMme0-9]/.test(script[i]!)) {
          if (script[i] === 'e') fx.executes = true;
          i++;
        }
        if (script[i] === 'w' || script[i] === 'W') {
          i++;
          fx.writes.push(restOfLine());
        }
        break;
      }
      case 'e':
        fx.executes = true;
        restOfLine();
        break;
      case 'w':
      case 'W':
        fx.writes.push(restOfLine());
        break;
      case 'r':
      case 'R':
        fx.reads.push(restOfLine());
        break;
      case 'a':
      case 'i':
      case 'c':
        // Text to the end of the line; a trailing backslash continues it.
        while (i < n) {
          const end = script.indexOf('\n', i);
          if (end < 0) {
            i = n;
            break;
          }
          const escaped = script[end - 1] === '\\';
          i = end + 1;
          if (!escaped) break;
        }
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
        while (i < n && !/[;\n]/.test(script[i]!)) i++;
        break;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        while (i < n && /[ 0-9]/.test(script[i]!)) i++;
        break;
      case 'v':
        while (i < n && !/[;\n]/.test(script[i]!)) i++;
        break;
      default:
        if (!/[=dDgGhHnNpPxzF]/.test(c)) return { ...fx, unclear: true };
    }
  }
  return depth === 0 ? fx : { ...fx, unclear: true };
}
