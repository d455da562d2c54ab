import { metrics, trace } from '@opentelemetry/api';
import { MissingPackageError } from '../core/missing-package.js';

/** What `--otlp` loads; not installed with hookwise (see package.json peerDependencies). */
export const OTLP_PACKAGES = [
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/resources',
];

export interface OtlpExport {
  /** Exports what is buffered and stops the exporters. */
  shutdown(): Promise<void>;
}

/**
 * Registers global tracer and meter providers that export over OTLP/HTTP to `url`
 * (a collector's base URL, e.g. http://127.0.0.1:4318): spans to /v1/traces,
 * metrics to /v1/metrics every `metricIntervalMs`.
 */
export async function startOtlpExport(url: string, options: { serviceName?: string; metricIntervalMs?: number } = {}): Promise<OtlpExport> {
  const base = url.replace(/\/+$/, '');
  const [
    { BasicTracerProvider, BatchSpanProcessor },
    { MeterProvider, PeriodicExportingMetricReader },
    { OTLPTraceExporter },
    { OTLPMetricExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/resources'),
  ]).catch((error: NodeJS.ErrnoException) => {
    // The SDK and exporters are 50 MB: optional peers, installed only by those who export.
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new MissingPackageError(OTLP_PACKAGES.join(' '), '--otlp (the OpenTelemetry SDK beside hookwise)');
  });
  const resource = resourceFromAttributes({ 'service.name': options.serviceName ?? 'hookwise-serve' });
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces` }))],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }) as never,
        exportIntervalMillis: options.metricIntervalMs ?? 10_000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
    },
  };
}
