export { instrumentEngine, type TelemetryOptions } from './instrument.js';
export { startOtlpExport, type OtlpExport } from './otlp.js';
export { ATTR, METRIC } from './names.js';
