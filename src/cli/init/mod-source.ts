import { FIND_HOOKWISE, NOT_INSTALLED, shellWord } from '../../hosts/entry-command.js';
import { SENT_WHEN_HEARD } from '../resident/mod-server.js';
/**
 * The hooks module of Claude Code's in-process mod (`hookwise init claude-code --mod`,
 * docs/claude-code.md#the-mod), verified against Claude Code 2.1.328. Its sandbox has no
 * Node: it reaches hookwise through `$` only. It starts its resident (`hookwise
 * claude-code --mod-serve`, src/cli/resident/mod-server.ts) with `$.process.spawn` when
 * the session starts, hands it a fresh key on stdin, and sends every classic hook event
 * hookwise knows (`classic.PreToolUse` for each tool call, `classic.UserPromptSubmit`,
 * `classic.SessionStart`, `classic.Stop`, …; PostToolBatch only while a hook listens,
 * SENT_WHEN_HEARD in mod-server.ts) to it over its Unix socket with
 * `$.http.fetch`, each request carrying an HMAC and each reply checked against the
 * resident's seal. The answer is the Claude Code answer `hookwise claude-code` gives,
 * read here into the classic event's result, so one policy means the same thing.
 *
 * Failing closed: a hook that throws is skipped by Claude Code (the call runs), so the
 * registration carries a `.catch` that refuses in its place; the time a hook waits on `$`
 * is not counted against Claude Code's 10 s budget, so the module keeps its own limit
 * (LIMIT_MS) and refuses past it. On end-of-turn events failing closed ends the run.
 */
export interface ModSourceOptions {
  /** The events hookwise knows (src/core/events.ts): the others are not sent. */
  events: readonly string[];
}

/** The mod's own limit on an answer: past hookwise's deadline (6 s), short of Claude Code's 10 s budget. */
export const MOD_LIMIT_MS = 8000;
/**
 * SessionStart waits for the resident to start and load the policy, which a loaded
 * machine can take past MOD_LIMIT_MS (seen at load 23 on 2 cores); its context would
 * be lost. Claude Code does not time a hook's waits, and nothing runs meanwhile.
 */
export const MOD_START_LIMIT_MS = 30000;

/** Set by the mod as the session starts; the UserPromptSubmit marker (claude-settings) refuses prompts without it. */
export const MOD_LOADED_ENV = 'HOOKWISE_MOD_LOADED';

export function modSource({ events }: ModSourceOptions): string {
  return `// hookwise for Claude Code, in-process (docs/claude-code.md#the-mod). Written by
// \`hookwise init claude-code --mod\`: run it again rather than editing this file.
// It sends every hook event hookwise knows (PostToolBatch only while a hook listens)
// to a hookwise resident this mod starts, and answers as \`hookwise claude-code\`
// would; any failure refuses (fails closed).

// The project's hookwise, found when the session starts (this file names no machine's install):
// its node_modules, else the one \`hookwise init\` ran from on this machine; else the resident
// does not start, saying why, and every call is refused.
const RESIDENT = ['sh', '-c', ${JSON.stringify(residentLookup())}, 'hookwise-mod']
const EVENTS = ${JSON.stringify(events)}
// Not sent at all while no hook listens (they follow every batch of tool calls).
const SENT_WHEN_HEARD = ${JSON.stringify(SENT_WHEN_HEARD)}
const LIMIT_MS = ${MOD_LIMIT_MS}
const START_LIMIT_MS = ${MOD_START_LIMIT_MS}
const END_OF_TURN = ['Stop', 'SubagentStop', 'TeammateIdle', 'TaskCompleted']
// The fields each classic event's result may carry besides block and preventContinuation.
const CONTEXT = ['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart', 'Setup', 'PostModelSwitch', 'SubagentStart', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop']

/** The resident of this session: a promise of { socket, sign } while one runs or starts. */
let resident
/**
 * Events the last answer (or the resident, as it started) said no hook of the policy
 * listens to: those of SENT_WHEN_HEARD are not sent, the others are sent without waiting
 * for the answer (it can only be that nothing objects; they are still recorded), until an
 * answer stops listing them. A failure answer lists nothing, so then every event waits.
 */
let unheard = []
/** Whether anything said yet what the policy listens to (before, the session's first events wait for the resident to start). */
let told = false
/** What the last resident of this policy found nobody listens to, read as the session starts (hearingOf). */
let hearing

const encoder = new TextEncoder()
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const randomHex = (n) => hex(crypto.getRandomValues(new Uint8Array(n)))

// HMAC-SHA-256 in plain JavaScript: the mod's sandbox has crypto.getRandomValues but no crypto.subtle.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

function sha256(data) {
  const length = data.length
  const blocks = Math.ceil((length + 9) / 64)
  const m = new Uint8Array(blocks * 64)
  m.set(data)
  m[length] = 0x80
  const view = new DataView(m.buffer)
  view.setUint32(m.length - 8, Math.floor(length / 0x20000000))
  view.setUint32(m.length - 4, (length * 8) >>> 0)
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  const rotr = (x, n) => (x >>> n) | (x << (32 - n))
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4)
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3)
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10)
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, k] = h
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0
      k = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    h[0] += a
    h[1] += b
    h[2] += c
    h[3] += d
    h[4] += e
    h[5] += f
    h[6] += g
    h[7] += k
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i])
  return out
}

/** HMAC-SHA-256 of text under key (both UTF-8), in hex: node:crypto's createHmac('sha256', key) on the resident's side. */
function hmacOf(key) {
  const block = new Uint8Array(64)
  const raw = encoder.encode(key)
  block.set(raw.length > 64 ? sha256(raw) : raw)
  const inner = block.map((b) => b ^ 0x36)
  const outer = block.map((b) => b ^ 0x5c)
  return (text) => {
    const message = encoder.encode(text)
    const first = new Uint8Array(64 + message.length)
    first.set(inner)
    first.set(message, 64)
    const second = new Uint8Array(96)
    second.set(outer)
    second.set(sha256(first), 64)
    return hex(sha256(second))
  }
}

/**
 * Why the resident ended, from its stderr: its own "not starting: …" line, else the error
 * Node printed for a crash, else the last line. Never Node's closing "Node.js v…" banner.
 */
function whyEnded(err) {
  const lines = err.split('\\n').map((l) => l.trim()).filter((l) => l !== '' && !/^Node\\.js v\\d/.test(l))
  const own = lines.findLast((l) => l.includes('not starting:'))
  if (own) return own.slice(own.indexOf('not starting:'))
  return lines.find((l) => /^([A-Z]\\w*)?Error\\b/.test(l)) ?? lines.pop() ?? 'no reason given'
}

function start($) {
  const key = randomHex(32)
  const started = (async () => {
    const sign = hmacOf(key)
    const env = await $.process.hookEnv()
    return new Promise((resolve, reject) => {
      void (async () => {
        let out = ''
        let err = ''
        try {
          // The key goes on stdin only: never on disk, in argv or in the environment, out of the agent's reach.
          const child = $.process.spawn({ argv: RESIDENT, env, input: key })
          for await (const piece of child) {
            if (piece.stream === 'stdout') {
              out += piece.text
              const line = out.indexOf('\\n')
              if (line >= 0) {
                const first = JSON.parse(out.slice(0, line))
                // Known before the policy loads when it did not change since the last session (the resident's hearing.ts).
                if (!told && Array.isArray(first.unheard)) {
                  unheard = first.unheard
                  told = true
                }
                resolve({ socket: first.socket, sign })
              }
            } else if (piece.stream === 'stderr') {
              err = (err + piece.text).slice(-4000)
              $.ui.log(piece.text.trimEnd(), { to: 'debug' })
            }
          }
          // plain Error: this runs inside Claude Code, where no hookwise class can be imported
          reject(new Error(\`the hookwise resident ended: \${whyEnded(err)}\`))
        } catch (error) {
          reject(error)
        } finally {
          if (resident === started) resident = undefined
        }
      })()
    })
  })()
  started.catch(() => {})
  return started
}

/**
 * The events nobody listens to, as the last resident that loaded this policy wrote them in
 * .hookwise/cache/mod-hearing.json (the resident's hearing.ts), when every file it was
 * loaded from has the size and mtime it had: the session's first events then need not
 * wait for a resident to start. Anything amiss (no file, a file changed or gone, no $.fs):
 * undefined, and they wait as before.
 */
async function hearingOf($) {
  try {
    const env = await $.process.hookEnv()
    const dir = env.CLAUDE_PROJECT_DIR || (await $.session.cwd())
    const known = JSON.parse(await $.fs.read(\`\${dir}/.hookwise/cache/mod-hearing.json\`))
    if (!Array.isArray(known.files) || !Array.isArray(known.unheard)) return undefined
    const same = await Promise.all(
      known.files.map(async ([file, , size, mtime]) => {
        const stat = await $.fs.stat(file).catch(() => undefined)
        if (size === undefined) return stat === undefined
        return stat !== undefined && stat.size === size && Math.floor(stat.mtimeMs) === mtime
      }),
    )
    return same.every(Boolean) ? known.unheard : undefined
  } catch {
    return undefined
  }
}

/** hookwise's answer to one event, as \`hookwise claude-code\` writes it: { stdout, stderr, code }. */
async function ask($, input, again = false) {
  resident ??= start($)
  const current = resident
  const { socket, sign } = await current
  const nonce = randomHex(16)
  const mac = sign(\`hookwise-mod-request\\0\${nonce}\\0\${input}\`)
  const response = await $.http.fetch('http://hookwise/hook', {
    method: 'POST',
    socketPath: socket,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nonce, input, mac }),
  })
  // plain Error: this runs inside Claude Code, where no hookwise class can be imported
  if (!response.ok) throw new Error(\`the hookwise resident answered HTTP \${response.status}\`)
  const { reply, seal } = JSON.parse(response.text)
  // Whoever else listens on that socket has no key: an answer without the seal is no answer.
  if (typeof reply !== 'string' || seal !== sign(\`hookwise-resident-reply\\0\${nonce}\\0\${input}\\0\${reply}\`))
    // plain Error: inside Claude Code, as above
    throw new Error("the answer on hookwise's socket does not carry its resident's seal")
  const answer = JSON.parse(reply)
  if (!answer.stale) {
    unheard = Array.isArray(answer.unheard) ? answer.unheard : []
    told = true
    return answer
  }
  // The config changed: nothing ran; a new resident loads it.
  // plain Error: inside Claude Code, as above
  if (again) throw new Error('the hookwise resident declined the call twice')
  if (resident === current) resident = undefined
  return ask($, input, true)
}

/**
 * The answer within \`limit\` ms, else a failure: waits on $ do not count against Claude
 * Code's own budget. The sandbox's own timer, not $.clock.sleep: each $ call is a trip
 * out of the mod's worker and back, on every tool call.
 */
async function within(work, limit) {
  let timer
  const late = new Promise((_, reject) => {
    // plain Error: this runs inside Claude Code, where no hookwise class can be imported
    timer = setTimeout(() => reject(new Error(\`hookwise did not answer within \${limit} ms\`)), limit)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

const parsed = (text) => {
  if (!text || !text.trim()) return {}
  return JSON.parse(text)
}
const firstLine = (text, fallback) => (text ?? '').trim().split('\\n')[0] || fallback

/** Claude Code's PreToolUse answer as classic.PreToolUse's result. */
function preToolResult(answer) {
  if (answer.code === 2) return { deny: firstLine(answer.stderr, 'refused by hookwise') }
  const out = parsed(answer.stdout)
  const specific = out.hookSpecificOutput ?? {}
  const extra = specific.additionalContext ? { additionalContext: [specific.additionalContext] } : {}
  if (out.continue === false) return { deny: out.stopReason || 'hookwise ended the session', ...extra }
  if (out.decision === 'block') return { deny: out.reason || 'refused by hookwise', ...extra }
  if (specific.permissionDecision === 'deny') return { deny: specific.permissionDecisionReason || 'refused by hookwise', ...extra }
  if (specific.permissionDecision === 'ask') return { ask: specific.permissionDecisionReason || 'hookwise asks', ...extra }
  const rewrite = specific.updatedInput ? { updatedInput: specific.updatedInput } : {}
  if (specific.permissionDecision === 'allow') return { allow: true, ...rewrite, ...extra }
  return { ...rewrite, ...extra }
}

/** Claude Code's answer to any other event as that classic event's result. */
function classicResult(event, answer) {
  const out = parsed(answer.stdout)
  const result = {}
  if (answer.code === 2) result.block = firstLine(answer.stderr, 'blocked by hookwise')
  if (out.decision === 'block') result.block = out.reason || 'blocked by hookwise'
  if (out.continue === false) {
    result.preventContinuation = true
    if (out.stopReason) result.stopReason = out.stopReason
  }
  const specific = out.hookSpecificOutput ?? {}
  if (specific.additionalContext && CONTEXT.includes(event)) result.additionalContext = [specific.additionalContext]
  if (event === 'PermissionRequest' && specific.decision) result.decision = specific.decision
  // A replaced output (replaceOutput, the secret guard's redaction): classic.PostToolUse's result carries it as a settings hook's does.
  if (event === 'PostToolUse') {
    if (specific.updatedToolOutput !== undefined) result.updatedToolOutput = specific.updatedToolOutput
    if (specific.updatedMCPToolOutput !== undefined) result.updatedMCPToolOutput = specific.updatedMCPToolOutput
  }
  return result
}

/** hookwise's result first, then the settings hooks beneath; a refusal stands, contexts add up. */
function merged(mine, below) {
  const context = [...(below.additionalContext ?? []), ...(mine.additionalContext ?? [])]
  return { ...below, ...mine, ...(context.length > 0 && { additionalContext: context }) }
}

/**
 * The session every other classic event named last (SessionStart names each new one, on
 * /clear and resume too, before any tool call): classic.PreToolUse carries only the
 * tool's fields, and asking $ for the id is a trip out of the worker on every call.
 */
let sessionId

async function inputOf($, event, e) {
  if (event !== 'PreToolUse') return { ...e, hook_event_name: event }
  const { tool, tool_use_id, ...tool_input } = e
  const [session_id, cwd] = await Promise.all([sessionId ?? $.session.id(), $.session.cwd()])
  return { session_id, cwd, hook_event_name: 'PreToolUse', tool_name: tool, tool_input, tool_use_id }
}

/** hookwise's own failure, as it fails closed on that event. */
function failure(event, reason, e, next) {
  const line = \`hookwise failed closed: \${reason}\`
  if (event === 'PreToolUse') return next.called ? next(e) : { deny: line }
  if (END_OF_TURN.includes(event)) return { preventContinuation: true, stopReason: line }
  if (event === 'UserPromptSubmit' || event === 'PermissionRequest') return { block: line }
  return next(e)
}

export const register = (on) => {
  on('session.start', async ($, e, next) => {
    await $.env.set('${MOD_LOADED_ENV}', '1')
    resident ??= start($)
    hearing ??= hearingOf($)
    return next(e)
  })

  on('classic.*', async ($, e, next) => {
    const event = next.event.slice('classic.'.length)
    if (!EVENTS.includes(event)) return next(e)
    if (event === 'SessionEnd') {
      // Claude Code ends the resident as it shuts down, before SessionEnd: a new one would only start to be stopped
      // (1.7 s at load, and the call timed out). SessionEnd cannot refuse anything: sent to a resident still
      // running, not waited for; with none, not sent (the sandbox's session folders go by their 24-hour sweep).
      if (resident !== undefined) void inputOf($, event, e).then((input) => ask($, JSON.stringify(input))).catch(() => {})
      return next(e)
    }
    // Claude Code may fire classic.SessionStart before session.start: the resident starts loading the policy now either way.
    resident ??= start($)
    // The session's first events: what the policy listens to is known from the last resident, or comes with this one's start.
    if (!told) {
      const known = await within((hearing ??= hearingOf($)), LIMIT_MS).catch(() => undefined)
      if (!told && Array.isArray(known)) {
        unheard = known
        told = true
      }
    }
    if (!told) await within((resident ??= start($)), START_LIMIT_MS).catch(() => {})
    if (unheard.includes(event) && SENT_WHEN_HEARD.includes(event)) return next(e)
    // PreToolUse's fields are the tool's own: a tool argument named session_id names no session.
    if (event !== 'PreToolUse' && typeof e.session_id === 'string') sessionId = e.session_id
    if (unheard.includes(event)) {
      // Nobody listens: recorded, not waited for.
      void inputOf($, event, e).then((input) => ask($, JSON.stringify(input))).catch(() => {})
      return next(e)
    }
    const input = JSON.stringify(await inputOf($, event, e))
    const answer = await within(ask($, input), event === 'SessionStart' ? START_LIMIT_MS : LIMIT_MS)
    if (event === 'PreToolUse') {
      const mine = preToolResult(answer)
      if (mine.deny !== undefined || mine.ask !== undefined || mine.updatedInput !== undefined) return mine
      return merged(mine, await next(e))
    }
    const mine = classicResult(event, answer)
    if (mine.block !== undefined || mine.preventContinuation) return mine
    return merged(mine, await next(e))
  }).catch(($, e, next) => failure(next.event.slice('classic.'.length), next.error?.message ?? 'the hookwise mod failed', e, next))
}
`;
}

/** The sh line that starts the project's hookwise as the mod's resident (src/hosts/entry-command.ts finds it the same way). */
function residentLookup(): string {
  return [
    'p="${CLAUDE_PROJECT_DIR:-$PWD}"',
    ...FIND_HOOKWISE,
    '[ -f "$b" ] && command -v node >/dev/null && exec node "$b" claude-code --mod-serve',
    `echo ${shellWord(`not starting: ${NOT_INSTALLED}`)} >&2`,
    'exit 1',
  ].join('; ');
}
