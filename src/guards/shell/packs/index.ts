import './git.js';
import './files.js';
import './databases.js';
import './frameworks.js';
import './containers.js';
import './clouds.js';
import './hosted.js';
import './publishing.js';

export { DiskLook } from './disk.js';
export { judgeDeletion } from './files.js';
export { judgeUnknownProgram } from './git.js';
export { compilePacks, type PacksOption } from './options.js';
export { PACK_NAMES, PACK_RULES, PACK_SUMMARIES, type PackApi, type PackName } from './registry.js';
