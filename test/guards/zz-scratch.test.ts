import { it } from 'vitest';
import { loadShellJudge } from '../../src/guards/index.js';
import { fill, makeFixture } from './fixture.js';
it('scratch', async () => {
  const f = makeFixture();
  const j = await loadShellJudge({ workspace: f.ws, home: f.home });
  const cmds = (process.env.CMDS ?? '').split('\n').filter(Boolean);
  for (const c of cmds) { const d = j.judge(fill(c, f), f.ws); console.log(`${d.decision.padEnd(5)} ${c}  -- ${d.reason.slice(0, 200)}`); }
  f.cleanup();
}, 600000);
