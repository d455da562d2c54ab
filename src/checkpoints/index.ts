/** hookwise's checkpoints: every step that can write undoable (docs/security.md#undo). */
export {
  Checkpoints,
  checkpointsDir,
  DEFAULT_KEEP,
  type KeepLimits,
  type StepStart,
  type StepEnd,
  type UndoOptions,
  type Undone,
} from './checkpoints.js';
export { summary, type Change, type Side } from './changes.js';
export { CheckpointError } from './errors.js';
export type { Step } from './steps.js';
export type { Trees } from './shadow-repo.js';
