import path from 'node:path';
import type { FileResult } from './run-tests.js';

/** XML 1.0 text: escape markup, drop characters XML cannot carry. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** JUnit XML (the Ant/Jenkins schema): one testsuite per test file, one testcase per case. */
export function junitReport(results: FileResult[], cwd: string): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = results.reduce((n, r) => n + r.cases.length, 0);
  const failures = results.reduce((n, r) => n + r.cases.filter((c) => c.mismatches.length).length, 0);
  out.push(`<testsuites name="hookwise test" tests="${total}" failures="${failures}" errors="0">`);
  for (const [id, r] of results.entries()) {
    const name = path.relative(cwd, r.loaded.file) || r.loaded.file;
    const failed = r.cases.filter((c) => c.mismatches.length).length;
    const time = r.cases.reduce((t, c) => t + c.ms, 0);
    out.push(
      `  <testsuite name="${xml(name)}" tests="${r.cases.length}" failures="${failed}" errors="0" skipped="0" time="${seconds(time)}" timestamp="${new Date().toISOString().slice(0, 19)}" hostname="localhost" id="${id}" package="hookwise">`,
      '    <properties/>',
    );
    for (const c of r.cases) {
      const open = `    <testcase name="${xml(c.case.name)}" classname="${xml(name)}" time="${seconds(c.ms)}"`;
      if (c.mismatches.length === 0) {
        out.push(`${open}/>`);
        continue;
      }
      const diff = c.mismatches
        .map((m) => `${m.field}: expected ${JSON.stringify(m.expected)}, actual ${JSON.stringify(m.actual)}`)
        .join('\n');
      out.push(
        `${open}>`,
        `      <failure message="${xml(c.mismatches.map((m) => m.field).join(', '))} differ" type="mismatch">${xml(diff)}</failure>`,
        '    </testcase>',
      );
    }
    const uncovered = r.unexercised.map((h) => `not exercised: ${h.name}`).join('\n');
    out.push(`    <system-out>${xml(uncovered)}</system-out>`, '    <system-err></system-err>', '  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
