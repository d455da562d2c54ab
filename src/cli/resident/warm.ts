/**
 * A command that takes the bash parser through most of its grammar: quotes, expansions,
 * substitutions, pipes, lists, redirections, a heredoc, a function, tests and a loop.
 */
const WARM_COMMAND = `f() { local a="$1"; [ -n "$a" ] && echo "\${a%/*}" | tr a-z A-Z > /tmp/x 2>&1; }; for i in 1 2; do f "$(printf '%s' "$i")" || true; done; cat <<'EOF'
x
EOF
(cd src && ls -la) && [[ -f a.txt ]] && echo $((1 + 2)) >> out.log`;

/**
 * What a resident does while it waits for its first call, so that call does not pay for
 * it: the bash parser loaded and run once (its wasm is compiled function by function as
 * a parse first needs each: about 30 ms on a first parse), and the OS sandbox program
 * tried (a process; src/sandbox/detect.ts). Failures are the first call's to meet.
 */
export async function warmUp(): Promise<void> {
  try {
    const { loadBashParser } = await import('../../shell/parser.js');
    const parser = await loadBashParser();
    parser.release(parser.parse(WARM_COMMAND));
    const { detectSandbox } = await import('../../sandbox/detect.js');
    detectSandbox();
  } catch {
    // The call that needs the parser or the sandbox loads it again and answers for it.
  }
}
