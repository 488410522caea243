// The load harness behind `rcml load`.
export { type LoadOptions, type LoadProgress, runLoad } from './harness.js';
export { loadReportHtml } from './html.js';
export { formatLoadReport, type LoadReport, type LoadSecond } from './report.js';
export { type LatencySummary, percentile, summarize } from './stats.js';
export {
  checkThresholds,
  formatThresholdResult,
  type LoadThreshold,
  parseThreshold,
  THRESHOLD_METRICS,
  type ThresholdResult,
} from './thresholds.js';
