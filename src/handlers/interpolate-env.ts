const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Replace `$VAR` and `${VAR}` with the environment's value, for the names a hook
 * allows only; any other name becomes the empty string, so a config file cannot
 * exfiltrate secrets it was not granted.
 */
export function interpolateEnv(text: string, allowed: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const names = new Set(allowed);
  return text.replace(VARIABLE, (_match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return names.has(name) ? (env[name] ?? '') : '';
  });
}
