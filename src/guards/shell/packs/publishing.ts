/** The publishing pack: what goes out to a registry cannot be taken back (a version number is spent for good). */
import type { Arg } from '../args.js';
import { packRule } from './registry.js';

const words = (args: Arg[]) => args.filter((a) => !a.value?.startsWith('-')).map((a) => a.value ?? '');
// `--dry-run=false` is not a dry run (npm and cargo read `--flag=value`).
const dryRun = (args: Arg[]) => args.some((a) => /^(--dry-run|-n|--dryrun)(=(true|1|yes))?$/i.test(a.value ?? ''));

/**
 * npm runs any unambiguous prefix of a command (`npm pub` publishes, `npm unp` unpublishes)
 * and some aliases: the subcommand as npm reads it. The prefixes below are the shortest no
 * other npm command shares.
 */
function npmCommand(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const full: Array<[string, number]> = [
    ['publish', 2],
    ['unpublish', 3],
    ['deprecate', 3],
    ['dist-tag', 3],
  ];
  for (const [name, shortest] of full) if (word.length >= shortest && name.startsWith(word)) return name;
  if (word === 'dist-tags') return 'dist-tag';
  return word;
}

packRule('publishing', ['npm', 'pnpm', 'yarn', 'bun'], (inv, p) => {
  const w = words(inv.args);
  const raw = w[0] === 'npm' && inv.name === 'yarn' ? w[1] : w[0];
  const sub = inv.name === 'npm' ? npmCommand(raw) : raw;
  if (dryRun(inv.args)) return;
  if (sub === 'publish' || sub === 'unpublish')
    p.deny(
      `publishing/${sub}`,
      `\`${inv.name} ${sub}\` ${sub === 'publish' ? 'publishes to the registry, which cannot be undone' : 'removes a published version for everyone who depends on it'}`,
    );
  else if (sub === 'deprecate' || (sub === 'dist-tag' && w[1] !== 'ls' && w[1] !== 'list'))
    p.deny('publishing/registry-change', `\`${inv.name} ${sub}\` changes what the registry serves`);
});

packRule('publishing', ['cargo'], (inv, p) => {
  const sub = words(inv.args)[0];
  if ((sub === 'publish' || sub === 'yank') && !dryRun(inv.args))
    p.deny(`publishing/${sub}`, `\`cargo ${sub}\` changes crates.io for good`);
});

packRule(
  'publishing',
  [
    'twine',
    'poetry',
    'uv',
    'flit',
    'hatch',
    'pdm',
    'gem',
    'dotnet',
    'mvn',
    'mvnw',
    'gradle',
    'gradlew',
    'lerna',
    'changeset',
    'vsce',
    'ovsx',
  ],
  (inv, p) => {
    const w = words(inv.args);
    if (dryRun(inv.args)) return;
    const hit =
      (inv.name === 'twine' && w[0] === 'upload') ||
      (['poetry', 'uv', 'flit', 'hatch', 'pdm', 'lerna', 'vsce', 'ovsx'].includes(inv.name) && w[0] === 'publish') ||
      (inv.name === 'gem' && (w[0] === 'push' || w[0] === 'yank')) ||
      (inv.name === 'dotnet' && w[0] === 'nuget' && w[1] === 'push') ||
      // The wrappers (`./mvnw`, `./gradlew`) run the same build tool.
      (/^mvnw?$/.test(inv.name) && w.some((x) => /^(deploy|release:perform|deploy:deploy(-file)?)$/.test(x))) ||
      (/^gradlew?$/.test(inv.name) && w.some((x) => /^(:?[\w-]+:)*publish/.test(x) && !/MavenLocal$/.test(x))) ||
      (inv.name === 'changeset' && w[0] === 'publish');
    if (hit) p.deny('publishing/publish', `\`${inv.name} ${w.slice(0, 2).join(' ')}\` publishes to a registry, which cannot be undone`);
  },
);

// A forge's release is published to everyone who watches the repository, and is what many
// repositories' workflows publish packages from (`on: release`). A draft is not published.
packRule('publishing', ['gh', 'glab'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] !== 'release') return;
  const draft = inv.args.find((a) => /^--draft(=|$)/.test(a.value ?? ''))?.value;
  const toDraft = draft === '--draft' || draft === '--draft=true';
  // `edit` publishes only when it takes the release out of draft.
  const publishes = w[1] === 'upload' || (w[1] === 'create' && !toDraft) || (w[1] === 'edit' && draft !== undefined && !toDraft);
  if (publishes)
    p.deny(
      'publishing/release',
      `\`${inv.name} release ${w[1]}\` publishes a release on the forge, which its watchers and workflows take at once`,
    );
});

packRule('publishing', ['git'], (inv, p) => {
  const i = inv.args.findIndex((a) => a.value === 'push');
  if (
    i < 0 ||
    inv.args
      .slice(0, i)
      .some(
        (a) =>
          !a.value?.startsWith('-') &&
          inv.args[inv.args.indexOf(a) - 1]?.value !== '-C' &&
          inv.args[inv.args.indexOf(a) - 1]?.value !== '-c',
      )
  )
    return;
  const rest = inv.args.slice(i + 1);
  if (dryRun(rest)) return;
  const refspecs = words(rest).slice(1);
  if (
    rest.some((a) => /^--(tags|follow-tags)$/.test(a.value ?? '')) ||
    refspecs.some((r) => /^\+?(refs\/tags\/|v?\d+\.\d+)/.test(r) || /:refs\/tags\//.test(r))
  )
    p.deny(
      'publishing/git-push-tags',
      '`git push` of tags publishes release tags others build from; a moved or deleted tag is not undone for them',
    );
});
