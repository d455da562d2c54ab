export { definePolicyTest, type PolicyCase, type PolicyExpectation, type PolicyTestFile } from './define.js';
export { runTestFiles, type CaseResult, type FileResult } from './run-tests.js';
export { findTestFiles, loadTestFile } from './load-cases.js';
export { textReport, failedCount } from './text-report.js';
export { junitReport } from './junit.js';
export { updateCases } from './update.js';
export { PolicyTestError } from './errors.js';
