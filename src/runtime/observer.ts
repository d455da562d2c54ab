import type { RuntimeEvent } from './types.js';

type Listener = (event: RuntimeEvent) => void;

/** Fans runtime events out to observers. An observer that throws is ignored: watching never breaks a run. */
export class Observer {
  private readonly listeners: Listener[] = [];

  add(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  emit(event: RuntimeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // An observer's bug must not change what the agent does.
      }
    }
  }
}
