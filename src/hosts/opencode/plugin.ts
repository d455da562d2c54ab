import { CONFIG_MODULE_NAMES } from '../../config/discover.js';
import { INSTALL_POINTER, NOT_INSTALLED } from '../entry-command.js';
import { PLUGIN_WAIT_MS } from './index.js';

/**
 * The plugin `hookwise init opencode` writes to `.opencode/plugins/hookwise.js`. It
 * runs inside OpenCode (Bun) and stays thin: each hook is forwarded to `hookwise
 * opencode` (a Node process that uses the resident, see docs/agents.md for why not the
 * engine in Bun) and the answer (./answer.ts) is carried out. Anything but a readable
 * answer, in time, refuses: the plugin throws, and OpenCode hands the message to the
 * model as the tool's result.
 */
export const PLUGIN_MARK = '// hookwise: OpenCode plugin';

export function openCodePlugin(): string {
  return `${PLUGIN_MARK}, written by \`hookwise init opencode\` (docs/agents.md). init rewrites it: edit your policy, not this file.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

const CONFIGS = ${JSON.stringify(CONFIG_MODULE_NAMES)};
const NOT_INSTALLED = ${JSON.stringify(`hookwise failed closed: ${NOT_INSTALLED}`)};

/**
 * The project's hookwise, found when OpenCode calls (this file names no machine's install):
 * its node_modules, else the one \`hookwise init\` ran from on this machine (${INSTALL_POINTER}).
 * Null in a folder with no hookwise.config.*: nothing to run there.
 */
function hookwiseIn(directory) {
  if (!CONFIGS.some((name) => existsSync(path.join(directory, name)))) return null;
  const installed = path.join(directory, 'node_modules', 'hookwise', 'bin', 'hookwise.js');
  if (existsSync(installed)) return installed;
  let pointed = '';
  try {
    pointed = readFileSync(path.join(directory, ${JSON.stringify(INSTALL_POINTER)}), 'utf8').trim();
  } catch {}
  if (pointed && existsSync(pointed)) return pointed;
  // plain Error: this runs inside OpenCode, where no hookwise class can be imported; OpenCode shows the message
  throw new Error(NOT_INSTALLED);
}

/**
 * Node from PATH, found once. OpenCode runs in Bun, which puts a \`node\` that is Bun on
 * the PATH of what it starts: hookwise needs Node itself, so such a link is passed over.
 */
let node;
function nodeBinary() {
  if (node) return node;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, 'node');
    try {
      if (!/bun/i.test(path.basename(realpathSync(file))) && existsSync(file)) return (node = file);
    } catch {}
  }
  return (node = 'node');
}
/** Past hookwise's own deadline (it answers a refusal at 20 s): only a hookwise that cannot answer at all gets here. */
const WAIT_MS = ${PLUGIN_WAIT_MS};

/** One hook through \`hookwise opencode\`: resolves with its answer, rejects on anything else. */
function ask(call) {
  return new Promise((resolve, reject) => {
    let child;
    let bin;
    try {
      bin = hookwiseIn(call.directory);
      if (bin === null) return resolve({});
      child = spawn(nodeBinary(), [bin, 'opencode'], { cwd: call.directory, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      // plain Error: this runs inside OpenCode, where no hookwise class can be imported
      return reject(new Error(error.message === NOT_INSTALLED ? NOT_INSTALLED : \`hookwise failed closed: cannot run \${bin}: \${error.message}\`));
    }
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      // plain Error: this runs inside OpenCode, where no hookwise class can be imported
      reject(new Error(\`hookwise failed closed: no answer within \${WAIT_MS / 1000} s\`));
    }, WAIT_MS);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      clearTimeout(timer);
      // plain Error: this runs inside OpenCode, where no hookwise class can be imported
      reject(new Error(\`hookwise failed closed: cannot run node \${bin}: \${error.message} (run \\\`hookwise init opencode\\\` again)\`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const why = err.trim().split('\\n').pop() || \`exit \${code ?? signal}\`;
      // plain Error: this runs inside OpenCode, where no hookwise class can be imported
      if (code !== 0) return reject(new Error(why.startsWith('hookwise') ? why : \`hookwise failed closed: \${why}\`));
      const last = out.trim().split('\\n').pop();
      if (!last) return resolve({});
      let answer;
      try {
        answer = JSON.parse(last);
      } catch {}
      // plain Error: this runs inside OpenCode, where no hookwise class can be imported
      if (answer?.hookwise !== 'opencode') return reject(new Error(\`hookwise failed closed: an answer OpenCode's plugin cannot read: \${why}\`));
      resolve(answer);
    });
    child.stdin.end(JSON.stringify(call));
  });
}

let lastTime = 0;
let counter = 0;
/** An id that sorts after the prompt's own parts, as OpenCode makes them (prt_ + time + random). */
function partID() {
  const now = Date.now();
  counter = now === lastTime ? counter + 1 : 0;
  lastTime = now;
  const time = (BigInt(now) * 4096n + BigInt(counter)).toString(16).padStart(12, '0').slice(-12);
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let random = '';
  for (let i = 0; i < 14; i++) random += chars[Math.floor(Math.random() * chars.length)];
  return \`prt_\${time}\${random}\`;
}

function replaceInPlace(target, next) {
  // OpenCode runs the tool with this very object: a new one would be ignored.
  for (const key of Object.keys(target)) if (!(key in next)) delete target[key];
  Object.assign(target, next);
}

export const Hookwise = async ({ directory }) => {
  const started = new Set();
  const notes = new Map();
  const pending = new Set();
  const call = (hook, fields) => ask({ hook, directory, ...fields });
  return {
    'chat.message': async (input, output) => {
      const sessionID = input.sessionID;
      const texts = [];
      if (!started.has(sessionID)) {
        started.add(sessionID);
        // SessionStart cannot refuse anything: a failure there is said, and the prompt's own answer decides.
        const start = await call('session.start', { sessionID, agent: input.agent }).catch((error) => ({ failed: error.message }));
        if (start.context) texts.push(start.context);
      }
      const prompt = (output.parts ?? []).filter((p) => p.type === 'text' && !p.synthetic).map((p) => p.text).join('\\n');
      const answer = await call('chat.message', { sessionID, agent: input.agent, prompt }).catch((error) => ({ deny: error.message }));
      if (answer.deny) {
        // OpenCode shows the person only "Unexpected server error" for a prompt a plugin refused: say why here.
        process.stderr.write(\`hookwise refused the prompt: \${answer.deny}\\n\`);
        // plain Error: inside OpenCode, as above; throwing is how a plugin refuses
        throw new Error(answer.deny);
      }
      if (answer.context) texts.push(answer.context);
      for (const text of texts)
        output.parts.push({ id: partID(), messageID: output.message.id, sessionID, type: 'text', text, synthetic: true });
    },
    'tool.execute.before': async (input, output) => {
      const answer = await call('tool.execute.before', { sessionID: input.sessionID, tool: input.tool, callID: input.callID, args: output.args });
      // plain Error: inside OpenCode, as above; throwing is how a plugin refuses
      if (answer.deny) throw new Error(answer.deny);
      if (answer.args) replaceInPlace(output.args, answer.args);
      if (answer.context) notes.set(input.callID, answer.context);
    },
    'tool.execute.after': async (input, output) => {
      const before = notes.get(input.callID);
      notes.delete(input.callID);
      const answer = await call('tool.execute.after', {
        sessionID: input.sessionID,
        tool: input.tool,
        callID: input.callID,
        args: input.args,
        output: output.output,
        title: output.title,
        metadata: output.metadata,
      }).catch((error) => ({ append: error.message }));
      if (typeof answer.output === 'string') output.output = answer.output;
      const said = [before, answer.append].filter(Boolean);
      if (said.length > 0) output.output = \`\${output.output ?? ''}\\n\\n\${said.join('\\n')}\`;
    },
    event: ({ event }) => {
      if (event.type !== 'session.idle') return;
      // The run ends at idle whatever the answer (OpenCode gives a plugin no way to go on from here).
      const stop = call('session.idle', { sessionID: event.properties?.sessionID }).catch(() => {});
      pending.add(stop);
      stop.finally(() => pending.delete(stop));
    },
    // OpenCode awaits this on its way out: the Stop hooks finish (and are audited) first.
    dispose: async () => {
      await Promise.allSettled([...pending]);
    },
  };
};
`;
}
