/**
 * `node --import ./hide-packages.mjs`: the packages named in HOOKWISE_TEST_HIDE (comma
 * separated) resolve as if they were not installed, as in a project that did not add an
 * optional peer dependency. Only ESM resolution is hooked: hookwise loads its optional
 * packages with import().
 */
import { register } from 'node:module';

const hook = `
const hidden = (process.env.HOOKWISE_TEST_HIDE ?? '').split(',').filter(Boolean);
export async function resolve(specifier, context, next) {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (hidden.includes(name)) {
    const error = new Error("Cannot find package '" + name + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
