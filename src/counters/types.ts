// The interface lives in the core, which lends a host's store to hooks (ctx.counters); the stores live here.
export type { CounterStore } from '../core/counter-store.js';
