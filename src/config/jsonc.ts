/**
 * JSON with `//` and `/* *\/` comments, as Gemini CLI reads its `.gemini/settings.json`.
 * Each comment becomes spaces (its newlines kept), so a JSON error's line and column
 * still point into the file; text inside strings is left as it is.
 */
export function stripJsonComments(text: string): { text: string; comments: boolean } {
  let out = '';
  let comments = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      // A string, to its closing quote (a backslash escapes the next character).
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      comments = true;
      const block = text[i + 1] === '*';
      const close = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i);
      const end = close === -1 ? text.length : block ? close + 2 : close;
      out += text.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, comments };
}
