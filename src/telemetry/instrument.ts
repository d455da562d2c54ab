import { AsyncLocalStorage } from 'node:async_hooks';
import {
  context,
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Meter,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { ATTR, METRIC } from './names.js';

export interface TelemetryOptions {
  /** Default: the global tracer provider's, when an SDK registered one. */
  tracer?: Tracer;
  /** Default: the global meter provider's, when an SDK registered one. */
  meter?: Meter;
  /** Added to every span and measurement (e.g. `{ 'hookwise.tenant': 'acme' }`). */
  attributes?: Attributes;
}

const SCOPE = 'hookwise';
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NoopMeter = createNoopMeter().constructor;

/** The global tracer, or undefined when no SDK has registered a provider. */
function registeredTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  const delegate = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  return delegate === NOOP_TRACER_PROVIDER ? undefined : trace.getTracer(SCOPE);
}

function registeredMeter(): Meter | undefined {
  const meter = metrics.getMeter(SCOPE);
  return meter instanceof NoopMeter ? undefined : meter;
}

interface FireTrace {
  span: Span | undefined;
  ctx: Context;
  hooks: Map<string, Span>;
}

/**
 * Spans and metrics for every fire of `engine` (docs/fleet.md lists them): a span per
 * fire with a child span per hook, decisions, latencies, failures and timeouts.
 * With no tracer or meter (none given, no SDK registered) it attaches nothing at all,
 * so fire() costs exactly what it did. Returns the function that detaches it.
 */
export function instrumentEngine(engine: HookEngine, options: TelemetryOptions = {}): () => void {
  const tracer = options.tracer ?? registeredTracer();
  const meter = options.meter ?? registeredMeter();
  if (!tracer && !meter) return () => {};
  const common = options.attributes ?? {};
  const current = new AsyncLocalStorage<FireTrace>();
  const instruments = meter && {
    fireDuration: meter.createHistogram(METRIC.fireDuration, { unit: 's', description: 'Time one fire took, all its hooks included' }),
    hookDuration: meter.createHistogram(METRIC.hookDuration, { unit: 's', description: 'Time one hook took' }),
    decisions: meter.createCounter(METRIC.decisions, { description: 'What each hook answered, per hook and event' }),
    outcomes: meter.createCounter(METRIC.outcomes, { description: 'The merged decision of each fire, per event' }),
    failures: meter.createCounter(METRIC.failures, { description: 'Hooks that threw, rejected or timed out' }),
  };

  const fire = engine.fire;
  engine.fire = function tracedFire(this: HookEngine, event: string, input?: HookInput, fireOptions?: Parameters<HookEngine['fire']>[2]) {
    const started = performance.now();
    const span = tracer?.startSpan(`hookwise.fire ${event}`, {
      kind: SpanKind.INTERNAL,
      attributes: { ...common, ...inputAttributes(event, input) },
    });
    const state: FireTrace = { span, ctx: span ? trace.setSpan(context.active(), span) : context.active(), hooks: new Map() };
    return current
      .run(state, () => fire.call(this, event, input, fireOptions))
      .then(
        (outcome) => {
          const decision = decisionOf(outcome);
          if (span) {
            span.setAttributes({
              [ATTR.decision]: decision,
              [ATTR.blocked]: outcome.blocked,
              [ATTR.stop]: outcome.stop,
              [ATTR.hookCount]: outcome.hooks.length,
            });
            if (outcome.reason) span.setAttribute(ATTR.reason, outcome.reason);
            span.end();
          }
          if (instruments) {
            const attrs = { ...common, [ATTR.event]: outcome.event, [ATTR.decision]: decision };
            instruments.fireDuration.record((performance.now() - started) / 1000, attrs);
            instruments.outcomes.add(1, attrs);
          }
          return outcome;
        },
        (error: unknown) => {
          if (span) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
            span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : 'Error');
            span.end();
          }
          throw error;
        },
      );
  };

  const offStart = engine.on('hookStart', (info) => {
    const state = current.getStore();
    if (!state?.span || !tracer) return;
    const attributes: Attributes = { ...common, [ATTR.event]: info.event, [ATTR.hookName]: info.name };
    state.hooks.set(info.name, tracer.startSpan(`hookwise.hook ${info.name}`, { kind: SpanKind.INTERNAL, attributes }, state.ctx));
  });
  const offEnd = engine.on('hookEnd', ({ event, name, record }) => {
    const state = current.getStore();
    const span = state?.hooks.get(name);
    if (span) {
      state!.hooks.delete(name);
      span.setAttributes({
        [ATTR.hookStatus]: record.status,
        [ATTR.hookResult]: record.result ?? 'none',
      });
      if (record.durationMs !== undefined) span.setAttribute(ATTR.hookDurationMs, record.durationMs);
      if (record.error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
        span.setAttribute(ATTR.errorType, record.status === 'timeout' ? 'timeout' : 'hook_error');
      }
      span.end();
    }
    if (instruments) {
      const attrs = { ...common, [ATTR.event]: event, [ATTR.hookName]: name };
      if (record.durationMs !== undefined)
        instruments.hookDuration.record(record.durationMs / 1000, { ...attrs, [ATTR.hookStatus]: record.status });
      instruments.decisions.add(1, { ...attrs, [ATTR.hookResult]: record.result ?? 'none' });
      if (record.status === 'error' || record.status === 'timeout')
        instruments.failures.add(1, { ...attrs, [ATTR.hookStatus]: record.status });
    }
  });

  return () => {
    offStart();
    offEnd();
    if (Object.hasOwn(engine, 'fire')) delete (engine as { fire?: unknown }).fire;
  };
}

/** What a fire's span says about the call it guards, in GenAI semantic-convention names where they fit. */
function inputAttributes(event: string, input: HookInput | undefined): Attributes {
  const attributes: Attributes = { [ATTR.event]: event };
  if (!input) return attributes;
  if (typeof input.tool_name === 'string') attributes[ATTR.toolName] = input.tool_name;
  if (typeof input.tool_use_id === 'string') attributes[ATTR.toolCallId] = input.tool_use_id;
  if (typeof input.session_id === 'string') attributes[ATTR.conversationId] = input.session_id;
  return attributes;
}

function decisionOf(outcome: Outcome): string {
  if (outcome.decision) return outcome.decision;
  if (outcome.stop) return 'stop';
  if (outcome.blocked) return 'block';
  return 'none';
}
