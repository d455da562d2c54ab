import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApprovals, type AnyApprovalStore, type Approval } from '../../src/approvals/index.js';
import { hashToken, loadTenantsFile, startHookServer } from '../../src/serve/index.js';
import { spawnServe, type Served } from '../serve/spawn.js';
import { GUARDS_CONFIG, repoRoot, workspace, writeConfig } from '../serve/helpers.js';

/**
 * serve's approvals page (docs/approvals.md) in a real headless Chromium: a run waits
 * for a person, the person answers on the page, the run goes on with the answer.
 * Chromium is Debian's package, never a download. Without it the file is skipped with
 * one line saying how to install it, except under CI, where that is a failure.
 * The waiting runs import dist/: `npm run build` first (npm test does it).
 */
const CHROMIUM = process.env.HOOKWISE_CHROMIUM || '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const line = `Chromium is not installed at ${CHROMIUM}: install it with \`apt-get install chromium\` (or set HOOKWISE_CHROMIUM to its path)`;
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`CI=true and ${line}`);
  process.stderr.write(`skipped: ${line}\n`);
}

// The page.evaluate callbacks run in the browser, where these globals exist; Node's types
// (the only ones this project compiles with) do not have them.
declare const window: object;
declare const document: { querySelectorAll(selectors: string): { length: number } };
declare const sessionStorage: { length: number };

const AGENT = fileURLToPath(new URL('./waiting-agent.mjs', import.meta.url));
/** Where the test leaves its screenshot; docs/approvals.png is one of these, committed. */
const SCREENSHOT = path.join(repoRoot, '.tmp', 'approvals.png');
const TOKENS = { agents: 'agents-token-0123456789abcdef', alice: 'alice-approver-token-0123456789' };

interface Run {
  /** Resolves with what the model was told about the call once the run has ended. */
  result: Promise<{ stopReason: string; text: string; told: string | null }>;
  ranFile: string;
}

describe.skipIf(!hasChromium)('the approvals page in a real Chromium', () => {
  const ws = workspace('approvals-browser');
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-approvals-browser-'));
  const db = path.join(dir, 'audit.db');
  const tenantsFile = path.join(ws.configDir, 'tenants.json');
  const children: Array<ReturnType<typeof spawn>> = [];
  let served: Served;
  let store: AnyApprovalStore;
  let browser: Browser;

  beforeAll(async () => {
    writeConfig(ws.configDir, GUARDS_CONFIG);
    writeFileSync(
      tenantsFile,
      JSON.stringify({
        tenants: [
          {
            name: 'default',
            tokenSha256: hashToken(TOKENS.agents),
            config: 'hookwise.config.mjs',
            approvals: { approvers: [{ name: 'alice', tokenSha256: hashToken(TOKENS.alice) }], standing: ['Read'] },
          },
        ],
      }),
    );
    served = await spawnServe(['--tenants', tenantsFile, '--audit', db], { cwd: ws.configDir });
    store = await openApprovals(db);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (served) {
      served.child.kill('SIGTERM');
      expect((await served.exited).code).toBe(0);
    }
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
    ws.cleanup();
  });

  /** Starts a run that will wait for an approval of `command`. */
  function waitingRun(sessionId: string, command: string): Run {
    const child = spawn(process.execPath, [AGENT, db, dir, sessionId, command], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const result = new Promise<{ stopReason: string; text: string; told: string | null }>((resolve, reject) =>
      child.once('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`the run exited ${code}: ${stderr}`)))),
    );
    // A test that fails before it awaits the run must not add an unhandled rejection to its failure.
    result.catch(() => {});
    return { result, ranFile: path.join(dir, `${sessionId}.ran`) };
  }

  /** The session's pending approval, once its run has asked. */
  async function pendingOf(sessionId: string): Promise<Approval> {
    for (;;) {
      const [found] = await store.list({ state: 'pending', sessionId });
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A fresh tab (its own sessionStorage) with the page open and the token given. */
  async function openPage(url: string, token: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 820 } });
    const page = await context.newPage();
    const response = await page.goto(`${url}/approvals`);
    expect(response!.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-/);
    await page.fill('#token', token);
    await page.click('#login button[type=submit]');
    await page.locator('#status.live').waitFor();
    expect(await page.locator('#login').isVisible()).toBe(false);
    return page;
  }

  const card = (page: Page, id: string) => page.locator(`#pending li.card[data-id="${id}"]`);
  const answered = (page: Page, id: string) => page.locator(`#answered li[data-id="${id}"]`);

  it('shows a waiting run, takes an approval with a note, and the run goes on with it; a new request appears live', async () => {
    const release = waitingRun('session-release', 'npm publish --access public');
    const first = await pendingOf('session-release');

    const page = await openPage(served.url, TOKENS.alice);
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await card(page, first.id).waitFor();
    expect(await card(page, first.id).locator('pre.command').textContent()).toBe('npm publish --access public');
    expect(await card(page, first.id).locator('.why').textContent()).toBe(
      'asked bypublish-guard: releases and infrastructure changes need a person',
    );
    expect(await card(page, first.id).locator('.meta').textContent()).toBe(`session session-release · id ${first.id}`);
    expect(await card(page, first.id).locator('.expiry').textContent()).toMatch(/^expires in \d+ min \d\d s, then deny$/);
    expect(await page.locator('#who').textContent()).toBe('signed in as alice (tenant default)');
    // The policy lets only Read stand for a session: a Bash call is approved once.
    expect(await card(page, first.id).locator('input[type=checkbox]').count()).toBe(0);

    // A second run asks while the page is open: it appears without a reload.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const infra = waitingRun('session-infra', 'terraform apply -auto-approve');
    const second = await pendingOf('session-infra');
    await card(page, second.id).waitFor();
    expect(await card(page, second.id).locator('pre.command').textContent()).toBe('terraform apply -auto-approve');
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await page.locator('#count').textContent()).toBe('(2)');
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await card(page, first.id).locator('textarea.note').fill('Ship it; announce it in #releases');
    await card(page, first.id).locator('button.approve').click();
    await answered(page, first.id).waitFor();
    expect(await answered(page, first.id).locator('.head').textContent()).toBe('Bashapprovedby alice (you)');
    const done = await release.result;
    expect(done).toMatchObject({ stopReason: 'end_turn', text: 'Done.' });
    expect(done.told).toBe(
      `ran npm publish --access public\n\nNote from alice, who approved this Bash call (approval ${first.id}): Ship it; announce it in #releases`,
    );
    expect(readFileSync(release.ranFile, 'utf8')).toBe('npm publish --access public\n');

    await card(page, second.id).locator('textarea.note').fill('Not on a Friday');
    await card(page, second.id).locator('button.deny').click();
    await answered(page, second.id).waitFor();
    const refused = await infra.result;
    expect(refused.told).toContain(`alice denied Bash (approval ${second.id}): Not on a Friday`);
    expect(existsSync(infra.ranFile)).toBe(false);
    expect(await store.get(second.id)).toMatchObject({ state: 'denied', answeredBy: 'alice', note: 'Not on a Friday' });

    // The token went in headers only: never in an address the browser asked for.
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).not.toContain(TOKENS.alice);
    expect(page.url()).toBe(`${served.url}/approvals`);
    await page.context().close();
  });

  it('shows what a tool call carries as text, never as markup (tool inputs are the attacker’s)', async () => {
    const evil = await store.request({
      sessionId: 'session-evil',
      event: 'PreToolUse',
      tool: '<img src=x onerror="window.pwned=1">',
      input: {
        command: '"><script>window.pwned=2</script><img src=x onerror="window.pwned=3">',
        file_path: '<b id="bold">not bold</b>',
        extra: '</pre><iframe src="javascript:window.pwned=4"></iframe>',
      },
      toolUseId: 'toolu_evil',
      hook: '<svg onload="window.pwned=5"></svg>',
      reason: '<a href="javascript:window.pwned=6">click</a>',
    });
    const page = await openPage(served.url, TOKENS.alice);
    await card(page, evil.id).waitFor();
    const shown = card(page, evil.id);
    expect(await shown.locator('.tool').textContent()).toBe('<img src=x onerror="window.pwned=1">');
    expect(await shown.locator('pre.command').textContent()).toBe('"><script>window.pwned=2</script><img src=x onerror="window.pwned=3">');
    expect(await shown.locator('.field code').textContent()).toBe('<b id="bold">not bold</b>');
    expect(await shown.locator('.hook').textContent()).toBe('<svg onload="window.pwned=5"></svg>');
    expect(await shown.locator('.reason').textContent()).toBe('<a href="javascript:window.pwned=6">click</a>');
    expect(await shown.locator('pre.json').textContent()).toContain('</pre><iframe src=\\"javascript:window.pwned=4\\"></iframe>');
    expect(await page.evaluate(() => document.querySelectorAll('main img, main script, main svg, main iframe, main a, #bold').length)).toBe(
      0,
    );
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await shown.locator('button.deny').click();
    await answered(page, evil.id).waitFor();
    await page.context().close();
  });

  it('offers "for the rest of this session" where the policy lets the tool stand, and the approval then stands', async () => {
    const input = { file_path: '/srv/app/.env.example' };
    const read = await store.request({ sessionId: 'session-read', event: 'PreToolUse', tool: 'Read', input, toolUseId: 'toolu_read' });
    const page = await openPage(served.url, TOKENS.alice);
    await card(page, read.id).waitFor();
    expect(await card(page, read.id).locator('.field').textContent()).toBe('file_path/srv/app/.env.example');
    await card(page, read.id).locator('label.scope input[type=checkbox]').check();
    await card(page, read.id).locator('button.approve').click();
    await answered(page, read.id).waitFor();
    expect(await answered(page, read.id).locator('.head').textContent()).toBe('Readapprovedby alice (you)for the rest of the session');
    expect(await store.standing({ sessionId: 'session-read', tool: 'Read', input })).toMatchObject({ id: read.id, scope: 'session' });
    await page.context().close();
  });

  it('says so when a token is refused, and when a second answer is refused', async () => {
    const wrong = await (await browser.newContext()).newPage();
    await wrong.goto(`${served.url}/approvals`);
    await wrong.fill('#token', 'not-the-token-of-anyone');
    await wrong.click('#login button[type=submit]');
    await wrong.locator('#login-error', { hasText: 'The server refused this token: unknown token' }).waitFor();
    expect(await wrong.evaluate(() => sessionStorage.length)).toBe(0);
    await wrong.context().close();

    // A server that does not poll: the answer given elsewhere (the CLI, another replica) reaches it only as a refused second answer.
    const quiet = await startHookServer({
      tenants: await loadTenantsFile(tenantsFile),
      port: 0,
      watch: false,
      approvals: store,
      approvalsPollMs: 3_600_000,
      log: () => {},
    });
    try {
      const pending = await store.request({
        sessionId: 'session-twice',
        event: 'PreToolUse',
        tool: 'Bash',
        input: { command: 'git push --force' },
      });
      const page = await openPage(quiet.url, TOKENS.alice);
      await card(page, pending.id).waitFor();
      await store.answer(pending.id, { decision: 'approve', by: 'bob', note: 'done from the CLI' });
      await card(page, pending.id).locator('button.deny').click();
      const message = card(page, pending.id).locator('.refused');
      await message.filter({ hasText: 'Your answer was not recorded' }).waitFor();
      expect(await message.textContent()).toMatch(
        new RegExp(
          `^Your answer was not recorded: approval ${pending.id} was already approved by bob at \\S+; this answer changed nothing$`,
        ),
      );
      expect(await store.get(pending.id)).toMatchObject({ state: 'approved', answeredBy: 'bob' });
      await page.context().close();
    } finally {
      await quiet.close();
    }
  });
});
