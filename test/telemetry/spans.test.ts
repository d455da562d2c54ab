import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { deny } from '../../src/core/results.js';
import { instrumentEngine } from '../../src/telemetry/index.js';

function engineWithHooks(): HookEngine {
  return new HookEngine()
    .register({
      name: 'no-rm',
      events: 'PreToolUse',
      matcher: 'Bash',
      handler: (i) => (String(i.tool_input.command).includes('rm ') ? deny('no rm') : undefined),
    })
    .register({ name: 'slow', events: 'PreToolUse', timeoutMs: 20, onError: 'continue', handler: () => new Promise<undefined>(() => {}) })
    .register({
      name: 'broken',
      events: 'PreToolUse',
      onError: 'continue',
      handler: () => {
        throw new Error('boom');
      },
    });
}

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('instrumentEngine', () => {
  it('records a span per fire with a child span per hook, in GenAI attribute names', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    const engine = engineWithHooks();
    const detach = instrumentEngine(engine, { attributes: { 'hookwise.tenant': 'acme' } });
    const outcome = await engine.fire('PreToolUse', {
      session_id: 's1',
      tool_name: 'Bash',
      tool_use_id: 'tu_1',
      tool_input: { command: 'rm -rf x' },
    });
    expect(outcome.decision).toBe('deny');
    const spans = exporter.getFinishedSpans();
    const fire = spans.find((s) => s.name === 'hookwise.fire PreToolUse')!;
    expect(fire.attributes).toMatchObject({
      'hookwise.event': 'PreToolUse',
      'hookwise.decision': 'deny',
      'hookwise.blocked': true,
      'hookwise.reason': 'no rm',
      'hookwise.tenant': 'acme',
      'gen_ai.tool.name': 'Bash',
      'gen_ai.tool.call.id': 'tu_1',
      'gen_ai.conversation.id': 's1',
    });
    const hooks = spans.filter((s) => s.name.startsWith('hookwise.hook '));
    // The deny ends the chain: only no-rm ran.
    expect(hooks.map((s) => s.name)).toEqual(['hookwise.hook no-rm']);
    expect(hooks[0]!.parentSpanContext?.spanId).toBe(fire.spanContext().spanId);
    expect(hooks[0]!.spanContext().traceId).toBe(fire.spanContext().traceId);
    expect(hooks[0]!.attributes).toMatchObject({
      'hookwise.hook.name': 'no-rm',
      'hookwise.hook.status': 'ok',
      'hookwise.hook.result': 'deny',
    });

    exporter.reset();
    await engine.fire('PreToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const second = exporter.getFinishedSpans();
    const byName = new Map(second.map((s) => [s.name, s]));
    expect(byName.get('hookwise.hook slow')!.attributes).toMatchObject({ 'hookwise.hook.status': 'timeout', 'error.type': 'timeout' });
    expect(byName.get('hookwise.hook broken')!.status).toEqual({ code: 2, message: 'boom' });
    const fireSpan = byName.get('hookwise.fire PreToolUse')!;
    for (const name of ['hookwise.hook slow', 'hookwise.hook broken'])
      expect(byName.get(name)!.parentSpanContext?.spanId).toBe(fireSpan.spanContext().spanId);

    detach();
    exporter.reset();
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm x' } });
    expect(exporter.getFinishedSpans()).toEqual([]);
    await provider.shutdown();
  });

  it('keeps concurrent fires apart: each hook span has its own fire as parent', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const engine = new HookEngine().register({
      name: 'wait',
      events: ['PreToolUse'],
      handler: async () => new Promise<void>((r) => setTimeout(r, 5)),
    });
    instrumentEngine(engine);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => engine.fire('PreToolUse', { session_id: `s${i}`, tool_name: 'Read', tool_input: {} })),
    );
    const spans = exporter.getFinishedSpans();
    const fires = new Map(spans.filter((s) => s.name.startsWith('hookwise.fire')).map((s) => [s.spanContext().spanId, s]));
    const hooks = spans.filter((s) => s.name === 'hookwise.hook wait');
    expect(fires.size).toBe(20);
    expect(hooks).toHaveLength(20);
    for (const hook of hooks) expect(fires.has(hook.parentSpanContext!.spanId)).toBe(true);
    expect(new Set(hooks.map((h) => h.parentSpanContext!.spanId)).size).toBe(20);
  });

  it('counts decisions, failures and timeouts, and records latencies', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    const engine = engineWithHooks();
    instrumentEngine(engine);
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' } });
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    await reader.forceFlush();
    const all = exporter.getMetrics().flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
    const points = (name: string) =>
      all.filter((m) => m.descriptor.name === name).flatMap((m): ReadonlyArray<DataPoint<unknown>> => m.dataPoints);
    expect(
      points('hookwise.hook.decisions').map((p) => [p.attributes['hookwise.hook.name'], p.attributes['hookwise.hook.result'], p.value]),
    ).toEqual(
      expect.arrayContaining([
        ['no-rm', 'deny', 1],
        ['no-rm', 'none', 1],
        ['slow', 'none', 1],
        ['broken', 'none', 1],
      ]),
    );
    expect(
      points('hookwise.hook.failures').map((p) => [p.attributes['hookwise.hook.name'], p.attributes['hookwise.hook.status'], p.value]),
    ).toEqual(
      expect.arrayContaining([
        ['slow', 'timeout', 1],
        ['broken', 'error', 1],
      ]),
    );
    expect(points('hookwise.fire.outcomes').map((p) => [p.attributes['hookwise.decision'], p.value])).toEqual(
      expect.arrayContaining([
        ['deny', 1],
        ['none', 1],
      ]),
    );
    const latency = points('hookwise.fire.duration');
    expect(latency.reduce((n, p) => n + (p.value as { count: number }).count, 0)).toBe(2);
    await provider.shutdown();
  });

  it('attaches nothing when no SDK is registered', async () => {
    const engine = new HookEngine().register({ name: 'h', events: ['PreToolUse'], handler: () => undefined });
    const fire = engine.fire;
    instrumentEngine(engine);
    expect(engine.fire).toBe(fire);
    expect(Object.hasOwn(engine, 'fire')).toBe(false);
    expect((engine as unknown as { listeners: Record<string, unknown[]> }).listeners.hookStart).toHaveLength(0);
  });
});
