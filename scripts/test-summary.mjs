// Prints "N passed, N failed[, N skipped]" from Vitest's JSON report.
// If the report is missing (type-check or lint failed before the tests ran), the failed step counts as one failure.
import { existsSync, readFileSync } from "node:fs";

const [reportPath, statusArg] = process.argv.slice(2);
const status = Number(statusArg ?? 0);
if (!reportPath || !existsSync(reportPath)) {
  console.log(`0 passed, ${status === 0 ? 0 : 1} failed`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (status !== 0 && !report.numFailedTests ? 1 : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
