import { afterAll, expect, it } from 'vitest';
import { slack } from '../support/slack.js';
import { GUARDS_CONFIG, post, TOKEN, workspace, writeConfig } from './helpers.js';
import { spawnServe } from './spawn.js';

const ws = workspace('rate-limit-flag');
afterAll(() => ws.cleanup());

const minute = () => Math.floor(Date.now() / 60_000);

/**
 * `--rate-limit <n>`: n requests per minute of the clock for the one tenant, the next
 * answered 429 with the reason. A try that a minute's turn cut in two proves nothing, so
 * it is made again (a second turn cannot fall inside three calls).
 */
it('--rate-limit allows n requests a minute and answers the next with 429, saying why', { timeout: slack(120_000) }, async () => {
  const config = writeConfig(ws.configDir, GUARDS_CONFIG);
  const served = await spawnServe(['--config', config, '--rate-limit', '2'], { cwd: ws.configDir, env: { HOOKWISE_TOKEN: TOKEN } });
  try {
    const prompt = { session_id: 'r', cwd: ws.project, prompt: 'hi' };
    for (let tries = 0; ; tries++) {
      const began = minute();
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await post(`${served.url}/v1/fire/UserPromptSubmit`, prompt));
      if (minute() !== began && tries === 0) {
        // The first try may have used this minute's allowance in part: wait for the next one.
        await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 50));
        continue;
      }
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(answers[2]!.text).toContain('over its rate limit of 2 requests per 60 s');
      break;
    }
  } finally {
    served.child.kill('SIGTERM');
    await served.exited;
  }
});
