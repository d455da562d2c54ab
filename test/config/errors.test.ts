import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { findJsonProblem } from '../../src/config/json-error.js';
import { loadConfig, loadSource } from '../../src/config/load.js';
import { fixture } from './helpers.js';

const err = (name: string) => fixture('errors', name);

async function loadError(file: string): Promise<string> {
  try {
    await loadSource(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected ${file} to fail`);
}

describe('configuration errors name the file and the JSON path, word for word', () => {
  it('a value of the wrong type: a warning, the entry skipped, the rest of the file kept', async () => {
    const source = await loadSource(err('bad-timeout.json'));
    expect(source.warnings).toEqual([
      `${err('bad-timeout.json')}: hooks.PreToolUse[0].hooks[1].timeout: expected number (entry hooks.PreToolUse[0].hooks[1] skipped)`,
    ]);
    expect(source.hooks.map((h) => h.source)).toEqual([`${err('bad-timeout.json')} hooks.PreToolUse[0].hooks[0]`]);
  });

  it('an invalid matcher regex is an error', async () => {
    expect(await loadError(err('bad-regex.json'))).toBe(
      `${err('bad-regex.json')}: hooks.PreToolUse[1].matcher: invalid regex "mcp__(github": error parsing regexp: missing closing ): \`mcp__(github\``,
    );
  });

  it('an invalid `if` permission rule is an error', async () => {
    expect(await loadError(err('bad-if.json'))).toBe(
      `${err('bad-if.json')}: hooks.PreToolUse[0].hooks[0].if: invalid permission rule "Bash(git push": expected Tool or Tool(pattern), e.g. Bash(git *)`,
    );
  });

  it('invalid JSON is an error with line and column', async () => {
    expect(await loadError(err('invalid.json'))).toBe(
      `${err('invalid.json')}: invalid JSON at line 5, column 5: trailing comma before "]"`,
    );
  });

  it('invalid YAML frontmatter is an error with the line in the markdown file', async () => {
    expect(await loadError(err('frontmatter-bad.md'))).toBe(
      `${err('frontmatter-bad.md')}: invalid YAML frontmatter at line 4, column 34: Flow map in block collection must be sufficiently indented and end with a }`,
    );
  });

  it('a misspelt event is an error naming the file and the event it looks like', async () => {
    const config = await loadConfig({ files: [err('unknown-event.json')] });
    const { engineFor } = await import('../../src/config/load.js');
    expect(() => engineFor(config)).toThrow(/unknown-event\.json: .*events: unknown event "PreToolUze"; did you mean "PreToolUse"\?/);
  });

  it('a custom event is a warning naming it, and its hooks are still registered', async () => {
    const config = await loadConfig({ files: [err('custom-event.json')] });
    expect(config.warnings).toEqual([
      `${err('custom-event.json')}: hooks.DeployFinished: unknown event "DeployFinished"; registered anyway, hosts may fire custom events`,
    ]);
    const { engineFor } = await import('../../src/config/load.js');
    const outcome = await engineFor(config).fire('DeployFinished', { session_id: 's' });
    expect(outcome.additionalContext).toBe('custom');
  });

  it('every bad entry is one warning; the good entry of the same group survives', async () => {
    const f = err('bad-entries.json');
    const source = await loadSource(f);
    expect(source.warnings).toEqual([
      `${f}: hooks.PreToolUse[0].hooks[0].command: required (expected string) (entry hooks.PreToolUse[0].hooks[0] skipped)`,
      `${f}: hooks.PreToolUse[0].hooks[2].type: expected "command", "http", "prompt", "agent" or "mcp_tool" (entry hooks.PreToolUse[0].hooks[2] skipped)`,
      `${f}: hooks.PreToolUse[0].hooks[3].onFailure: expected "block" or "continue" (entry hooks.PreToolUse[0].hooks[3] skipped)`,
      `${f}: hooks.PreToolUse[0].hooks[4].timout: unknown field, ignored`,
      `${f}: hooks.PreToolUse[1].hooks: expected array (group hooks.PreToolUse[1] skipped)`,
      `${f}: hooks.Stop: expected an array of hook groups, a command string or a name-to-hook map (skipped)`,
    ]);
    // hooks[1] is an agent hook: loaded, as in Claude Code.
    expect(source.hooks.map((h) => h.source)).toEqual([`${f} hooks.PreToolUse[0].hooks[1]`, `${f} hooks.PreToolUse[0].hooks[4]`]);
  });

  it('a file that is not there, or of an unknown kind', async () => {
    expect(await loadError(err('missing.json'))).toBe(`${err('missing.json')}: file not found`);
    expect(await loadError(fixture('scripts', 'say.sh'))).toBe(
      `${fixture('scripts', 'say.sh')}: unknown kind of configuration file; expected a Claude Code settings or plugin hooks .json, a skill/agent .md, or hookwise.config.{ts,mts,mjs,js}`,
    );
  });

  it('a matcher that is not a string and a `hooks` that is not an object are errors', async () => {
    const { claudeSettingsFromJson } = await import('../../src/config/settings.js');
    expect(() => claudeSettingsFromJson('/p/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } })).toThrow(
      '/p/.claude/settings.json: hooks.PreToolUse[0].matcher: expected string',
    );
    expect(() => claudeSettingsFromJson('/p/.claude/settings.json', { hooks: [] })).toThrow(
      '/p/.claude/settings.json: hooks: expected an object mapping event names to hook groups',
    );
    expect(() => claudeSettingsFromJson('/p/.claude/settings.json', { disableAllHooks: 'yes' })).toThrow(
      '/p/.claude/settings.json: disableAllHooks: expected boolean',
    );
  });
});

describe('the JSON scanner behind the line/column of invalid JSON', () => {
  it.each([
    ['{"a": 1,}', 8, 'trailing comma before "}"'],
    ['{"a" 1}', 5, 'unexpected "1", expected ":"'],
    ['{a: 1}', 1, 'unexpected "a", expected a property name in double quotes'],
    ['[1, 2', 5, 'unexpected end of input, expected "," or "]"'],
    ['{"a": "x}', 9, 'unterminated string'],
    ['{} {}', 3, 'unexpected "{" after the JSON value'],
  ])('%s', (text, position, message) => {
    expect(findJsonProblem(text)).toEqual({ position, message });
  });

  it('finds nothing wrong in valid JSON', () => {
    expect(findJsonProblem('{"a": [1, -2.5e3, true, false, null, "x\\"y"], "b": {}}')).toBeUndefined();
  });
});
