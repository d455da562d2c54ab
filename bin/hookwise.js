#!/usr/bin/env node
import { main } from '../dist/cli/index.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`hookwise: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
