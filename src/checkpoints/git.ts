import { execFile } from 'node:child_process';
import { CheckpointError } from './errors.js';

/**
 * hookwise runs git on the agent's files, never with the agent's settings: the
 * workspace's `.git/config` is the agent's to write (a `core.fsmonitor` or a pager
 * there would run a program outside the sandbox), so every call names hookwise's own
 * repository (GIT_DIR), whose config hookwise writes (./shadow-repo.ts), and reads no
 * system or global config.
 */
export function gitEnv(gitDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_DIR: gitDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

export interface GitRun {
  gitDir: string;
  /** GIT_WORK_TREE, GIT_INDEX_FILE and the like. */
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Where git runs (paths it prints are relative to it). */
  cwd?: string;
}

/** Runs `file` (git, or sh for several git commands in one start) and resolves its stdout. */
export function run(file: string, args: string[], how: GitRun, encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { env: gitEnv(how.gitDir, how.env), cwd: how.cwd, maxBuffer: 1024 * 1024 * 1024, encoding },
      (error, stdout, stderr) => {
        if (error) reject(gitFailure(file === 'git' ? args[0]! : 'snapshot', error, String(stderr)));
        else resolve(stdout);
      },
    );
    child.stdin!.on('error', () => {
      // git exits before reading all of stdin when it fails; the exit code says why.
    });
    child.stdin!.end(how.input ?? '');
  });
}

export const git = (args: string[], how: GitRun): Promise<string> => run('git', args, how) as Promise<string>;
export const gitBytes = (args: string[], how: GitRun): Promise<Buffer> => run('git', args, how, 'buffer') as Promise<Buffer>;

function gitFailure(what: string, error: Error & { code?: unknown }, stderr: string): CheckpointError {
  const said = stderr.trim().split('\n').slice(-3).join(' / ') || error.message;
  if (/No space left on device|ENOSPC|Disk quota exceeded|Out of diskspace/i.test(said)) {
    return new CheckpointError(`the disk is full (${said})`, 'CHECKPOINT_DISK_FULL');
  }
  if (error.code === 'ENOENT') return new CheckpointError('git is not installed (checkpoints need git on the PATH)', 'CHECKPOINT_NO_GIT');
  return new CheckpointError(`git ${what} failed: ${said}`, 'CHECKPOINT_GIT_FAILED');
}
