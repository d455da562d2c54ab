import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { PAGE_SCRIPT } from './approvals-page-script.js';

/**
 * `GET /approvals`: the page a person answers pending approvals on. One file, no build
 * step, nothing loaded from elsewhere. It holds no data: it asks for a token, keeps it
 * in the tab (sessionStorage), and calls the API with it as an Authorization header.
 * Everything a request carries is put on the page as text, never as markup: tool
 * inputs come from the agent, so they are the attacker's.
 */
const STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5f6670; --bg: #f6f7f9; --card: #fff; --line: #d8dce2;
  --ok: #116d3a; --no: #a4232f; --warn: #8a5a00; --code: #eef0f3; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #9aa3ad; --bg: #15171a; --card: #1e2125; --line: #343a41;
  --ok: #4cc38a; --no: #ff7b86; --warn: #e0b04f; --code: #262a30; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1em; align-items: baseline; flex-wrap: wrap; padding: .8em 1.2em; border-bottom: 1px solid var(--line); background: var(--card); }
h1 { font-size: 1.15em; margin: 0; }
h2 { font-size: 1em; margin: 1.4em 0 .6em; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
main { max-width: 60em; margin: 0 auto; padding: 0 1.2em 3em; }
#status { color: var(--muted); }
#status.live { color: var(--ok); }
#who { margin-left: auto; color: var(--muted); }
form#login { margin: 3em auto; max-width: 28em; display: grid; gap: .6em; }
input, textarea, button { font: inherit; color: inherit; }
input[type=password], textarea { width: 100%; padding: .45em .6em; border: 1px solid var(--line); border-radius: 6px; background: var(--card); }
button { padding: .4em 1em; border: 1px solid var(--line); border-radius: 6px; background: var(--card); cursor: pointer; }
button:disabled { opacity: .5; cursor: default; }
button.approve { background: var(--ok); border-color: var(--ok); color: #fff; }
button.deny { background: var(--no); border-color: var(--no); color: #fff; }
ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .9em; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .9em 1.1em; }
.head { display: flex; gap: .8em; align-items: baseline; flex-wrap: wrap; }
.tool { font-weight: 650; font-size: 1.1em; }
.event, .age, .meta, .hint { color: var(--muted); }
.expiry { margin-left: auto; color: var(--warn); font-variant-numeric: tabular-nums; }
.label { color: var(--muted); margin-right: .4em; }
pre, code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); border-radius: 5px; }
pre { padding: .6em .8em; margin: .6em 0; overflow: auto; max-height: 22em; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.command { font-size: 14px; }
code { padding: .1em .35em; overflow-wrap: anywhere; }
.answer { display: grid; gap: .5em; margin-top: .7em; }
.buttons { display: flex; gap: .6em; align-items: center; flex-wrap: wrap; }
.error, .refused { color: var(--no); }
.refused:empty, .error:empty { display: none; }
.settled { opacity: .85; }
.settled .state-approved { color: var(--ok); font-weight: 600; }
.settled .state-denied, .settled .state-expired { color: var(--no); font-weight: 600; }
`;

const BODY = `<header>
<h1>hookwise approvals</h1>
<span id="status" role="status"></span>
<span id="who"></span>
<button id="forget" type="button" hidden>Forget token</button>
</header>
<main>
<form id="login" hidden>
<label for="token">Token</label>
<input id="token" type="password" autocomplete="off" spellcheck="false" required>
<button type="submit">Open</button>
<p class="hint">An approver's token (or the tenant's). It stays in this tab (sessionStorage) and is sent only as an Authorization header.</p>
<p id="login-error" class="error" role="alert"></p>
</form>
<section id="board" hidden>
<h2>Waiting for an answer <span id="count"></span></h2>
<p id="empty" class="hint">Nothing is waiting for an answer.</p>
<ol id="pending"></ol>
<h2 id="answered-title" hidden>Answered</h2>
<ol id="answered"></ol>
</section>
</main>`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hookwise approvals</title>
<style>${STYLE}</style>
</head>
<body>
${BODY}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;

/** Only this page's own script and style run; it talks to this server only, and cannot be framed or submit forms. */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(PAGE_SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function sendApprovalsPage(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(HTML),
    'content-security-policy': PAGE_CSP,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  });
  res.end(HTML);
}
