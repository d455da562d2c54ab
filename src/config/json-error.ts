/**
 * Where a JSON text goes wrong, and why, for error messages. JSON.parse's own
 * messages do not always carry a position (Node 20 reports some errors with a
 * snippet only), so this small scanner walks the text once it is known to be bad.
 */
export interface JsonProblem {
  position: number;
  message: string;
}

export function findJsonProblem(text: string): JsonProblem | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw { position: i, message } satisfies JsonProblem;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const describe = () => (i >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[i])}`);
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`${describe()}, expected a value`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(`${describe()}, expected a value`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') fail(`${describe()}, expected a property name in double quotes`);
      string();
      ws();
      if (text[i] !== ':') fail(`${describe()}, expected ":"`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === '}') fail('trailing comma before "}"');
        continue;
      }
      if (text[i] === '}') return void i++;
      fail(`${describe()}, expected "," or "}"`);
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === ']') fail('trailing comma before "]"');
        continue;
      }
      if (text[i] === ']') return void i++;
      fail(`${describe()}, expected "," or "]"`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`${describe()} after the JSON value`);
    return undefined;
  } catch (problem) {
    return problem as JsonProblem;
  }
}
