// Prints "N passed, N failed[, N skipped]" over the Vitest JSON reports of `npm test`
// (unit, web components, end-to-end) and of `npm run test:chroma`. A suite whose report is
// missing while the run failed (type-check, lint or a setup that never started its tests)
// counts as one failure.
import { existsSync, readFileSync } from "node:fs";

const [status, ...reports] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;
for (const path of reports) {
  if (!existsSync(path)) {
    missing++;
    continue;
  }
  const report = JSON.parse(readFileSync(path, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (report.success === false && !report.numFailedTests) failed++;
}
if (Number(status) !== 0 && failed === 0) failed = Math.max(1, missing);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
