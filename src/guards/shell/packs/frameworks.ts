/**
 * The databases pack, migration tools: the framework commands that drop and
 * recreate a database or roll every migration back (`prisma migrate reset`,
 * `rails db:drop`, `manage.py flush`, `artisan migrate:fresh`). Each deletes every
 * row; the migrations bring back the tables, not the data.
 */
import type { Arg } from '../args.js';
import type { Invocation } from '../types.js';
import { packRule, type PackApi } from './registry.js';

const words = (args: Arg[]) => args.filter((a) => !a.value?.startsWith('-')).map((a) => a.value ?? '');
const flag = (args: Arg[], re: RegExp) => args.some((a) => a.value !== undefined && re.test(a.value));

function wipes(inv: Invocation, p: PackApi, task: string): void {
  p.deny('databases/reset', `\`${inv.name} ${task}\` drops or empties the database; migrations restore its tables, not its data`);
}

/** Rake and Rails tasks that drop, purge or reload the schema over the data. */
const RAILS_TASKS = /^db:(drop(:all)?|reset|purge(:all)?|truncate_all|schema:load|structure:load|migrate:reset|setup:replant)$/;
/** Artisan, Sequelize, TypeORM, Knex, Ecto, Flyway, Liquibase: each tool's wipe. */
const TOOL_VERBS: Record<string, RegExp> = {
  sequelize: /^db:(drop|migrate:undo:all)$/,
  'sequelize-cli': /^db:(drop|migrate:undo:all)$/,
  typeorm: /^(schema:drop)$/,
  'typeorm-ts-node-commonjs': /^(schema:drop)$/,
  'typeorm-ts-node-esm': /^(schema:drop)$/,
  mix: /^ecto\.(drop|reset|rollback)$/,
  flyway: /^clean$/,
  liquibase: /^(drop-all|dropAll)$/,
};

packRule('databases', ['prisma'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] === 'migrate' && w[1] === 'reset') wipes(inv, p, 'migrate reset');
  else if (w[0] === 'db' && w[1] === 'push' && flag(inv.args, /^--(force-reset|accept-data-loss)$/)) wipes(inv, p, 'db push --force-reset');
});

packRule('databases', ['rails', 'rake'], (inv, p) => {
  const task = words(inv.args).find((x) => RAILS_TASKS.test(x.replace(/\[.*$/, '')));
  if (task) wipes(inv, p, task);
});

packRule('databases', Object.keys(TOOL_VERBS), (inv, p) => {
  const w = words(inv.args);
  const task = w.find((x) => TOOL_VERBS[inv.name]!.test(x));
  if (task && !(inv.name === 'mix' && task === 'ecto.rollback' && !flag(inv.args, /^--all$/))) wipes(inv, p, task);
});

packRule('databases', ['knex'], (inv, p) => {
  if (words(inv.args)[0] === 'migrate:rollback' && flag(inv.args, /^--all$/)) wipes(inv, p, 'migrate:rollback --all');
});

packRule('databases', ['alembic'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] === 'downgrade' && w[1] === 'base') wipes(inv, p, 'downgrade base');
});

packRule('databases', ['diesel'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] === 'database' && w[1] === 'reset') wipes(inv, p, 'database reset');
});

packRule('databases', ['dotnet'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] === 'ef' && w[1] === 'database' && w[2] === 'drop') wipes(inv, p, 'ef database drop');
});

// `python manage.py flush`, `django-admin flush`, `php artisan migrate:fresh`.
packRule('databases', ['python', 'python3', 'django-admin', 'php'], (inv, p) => {
  const w = words(inv.args);
  const script = inv.name === 'django-admin' ? 'django-admin' : w[0]?.replace(/^.*\//, '');
  const sub = inv.name === 'django-admin' ? w[0] : w[1];
  if (sub === undefined) return;
  if ((script === 'manage.py' || script === 'django-admin') && /^(flush|reset_db)$/.test(sub))
    wipes(inv, p, script === 'manage.py' ? `manage.py ${sub}` : sub);
  if (inv.name === 'php' && script === 'artisan' && /^(migrate:(fresh|reset|refresh)|db:wipe)$/.test(sub)) wipes(inv, p, `artisan ${sub}`);
});
